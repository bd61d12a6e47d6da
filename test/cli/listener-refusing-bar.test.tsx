import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { afterAll, expect, it } from 'vitest';
import { INBOX_ALERT_RULES } from '../../src/alerts/kill-alert.js';
import { type Cache, openCache } from '../../src/cache/index.js';
import type { TestEvent } from '../../src/contract/events.js';
import { MonitorApp, type MonitorStatus } from '../../src/tui/render-monitor.js';
import { PATIENCE_MS } from '../helpers/patience.js';

/**
 * DESIGN 4: the status bar shows `listener refusing` from the refusing alert until a delivery verifies, read from the
 * cache: here written by another connection to the file, as a `listen` in another process writes it.
 */

const root = mkdtempSync(join(tmpdir(), 'svc-refusing-bar-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const NOW = Date.parse('2026-03-02T12:00:00Z');
// a monitor without its own listener: the `listen` beside it is another process
const STATUS: MonitorStatus = {
  mode: 'live',
  host: 'svc.test:443',
  connection: { state: 'ok', lastGoodAt: '2026-03-02T11:59:48Z' },
  listener: { state: 'off', accepted: 0, duplicates: 0, rejected: 0 },
};

/** A webhook.test delivery that verified, received at `at`, as the listener hands it to the inbox. */
function verified(cache: Cache, at: string): void {
  const event: TestEvent = {
    event_id: randomUUID(),
    event_type: 'webhook.test',
    event_version: 1,
    created_at: at,
    attempt: 1,
    message: 'hello',
  };
  const entry = {
    eventId: event.event_id,
    replayKey: null,
    eventType: event.event_type,
    deliveryId: randomUUID(),
    receivedAt: at,
    body: JSON.stringify(event),
    event,
  };
  cache.inbox.intake([entry], INBOX_ALERT_RULES);
}

it('says `listener refusing` while the refusing alert stands, and not once a delivery verified after it', async () => {
  const file = join(root, 'cache.db');
  const screen = openCache(file);
  // the other process's connection: its commits reach the screen through SQLite's data_version
  const listen = openCache(file);
  const app = render(
    <MonitorApp
      cache={screen}
      source={{ getStatus: () => STATUS, subscribe: () => () => {} }}
      now={() => new Date(NOW)}
      noColor
      tickMs={3_600_000}
    />,
  );
  Object.defineProperty(app.stdout, 'columns', { value: 200, configurable: true });
  Object.defineProperty(app.stdout, 'rows', { value: 30, configurable: true });
  app.stdout.emit('resize');
  const frameWhere = async (wanted: (frame: string) => boolean): Promise<string> => {
    const deadline = Date.now() + PATIENCE_MS;
    for (;;) {
      const frame = app.lastFrame() ?? '';
      if (frame.includes('hook off') && wanted(frame)) return frame;
      if (Date.now() > deadline) throw new Error(`never the wanted status bar:\n${frame}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  try {
    // a delivery verified at 11:00, then the refusing alert at 11:30: refusing
    verified(listen, '2026-03-02T11:00:00Z');
    expect(await frameWhere((f) => !f.includes('refusing'))).toContain('hook off');
    listen.alerts.add({
      severity: 'high',
      kind: 'listener-refusing',
      created_at: '2026-03-02T11:30:00Z',
      message: 'webhook listener refusing: 3 deliveries refused for their signature within 10 minutes',
    });
    expect(await frameWhere((f) => f.includes('listener refusing'))).toMatch(/hook off · !! listener refusing/);
    // a delivery verified at 11:45, after the alert: no longer refusing
    verified(listen, '2026-03-02T11:45:00Z');
    expect(await frameWhere((f) => !f.includes('listener refusing'))).toContain('hook off');
  } finally {
    app.unmount();
    listen.close();
    screen.close();
  }
});
