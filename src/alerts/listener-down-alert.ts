import type { NewAlert } from '../cache/index.js';

/** A webhook listener that could not start is a warning in the Alerts pane, never the end of the monitor. */
export function listenerDownAlert(port: number, error: unknown, at: Date): NewAlert {
  const why = error instanceof Error ? error.message : String(error);
  return {
    severity: 'warning',
    kind: 'listener-down',
    message: `webhook listener could not start on port ${port}: ${why}`,
    created_at: at.toISOString(),
  };
}
