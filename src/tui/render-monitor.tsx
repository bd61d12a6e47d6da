import { render } from 'ink';
import { MonitorApp } from './app.js';
import type { MonitorOptions } from './types.js';

export { MonitorApp } from './app.js';
export type { MonitorAppProps, MonitorOptions, MonitorSource, MonitorStatus, RenderInfo } from './types.js';

/**
 * Starts the terminal UI. `q` ends it (Ink's `exit()`): `waitUntilExit` then resolves and the terminal is restored,
 * so the CLI can exit 0. Ctrl+C ends it the same way.
 */
export function renderMonitor(options: MonitorOptions): { waitUntilExit(): Promise<void>; unmount(): void } {
  const { stdout, stdin, onRender, patchConsole, ...props } = options;
  const instance = render(<MonitorApp {...props} />, {
    stdout,
    stdin,
    exitOnCtrlC: true,
    patchConsole: patchConsole ?? true,
    // Ink measures each render (layout and output) and reports it here
    onRender: onRender ? (metrics) => onRender({ renderTime: metrics.renderTime }) : undefined,
  });
  return {
    waitUntilExit: async () => {
      await instance.waitUntilExit();
    },
    unmount: () => instance.unmount(),
  };
}
