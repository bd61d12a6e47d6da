import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../src/alerts/alert-settings.js';
import type { Connection } from '../../src/cli/config.js';
import { openSession } from '../../src/cli/monitor-session.js';

// The demo in-process over a copy of the test template world (its 30-day fill skipped), as demo-fill.test.tsx runs it.
const root = mkdtempSync(join(tmpdir(), 'svc-demo-horizon-'));
const saved = process.env.XDG_DATA_HOME;
const demoDir = join(root, 'data', 'svc-monitor', 'demo');
const connection: Connection = {
  baseUrlFrom: 'the demo',
  apiKeyFrom: 'the demo',
  auth: 'x-api-key',
  webhookSecrets: [],
  dbPath: join(root, 'unused-live-cache.db'),
  intervals: {},
  historyHours: 48,
  detailDays: 14,
  alerts: DEFAULT_ALERT_SETTINGS,
};

beforeAll(() => {
  process.env.XDG_DATA_HOME = join(root, 'data');
  cpSync(inject('templateDir'), join(demoDir, 'server'), { recursive: true });
});
afterAll(() => {
  if (saved === undefined) delete process.env.XDG_DATA_HOME;
  else process.env.XDG_DATA_HOME = saved;
  rmSync(root, { recursive: true, force: true });
});

it('the demo records its listener’s registration as the book’s horizon, on the world’s clock', async () => {
  const session = await openSession('demo', connection, { notify: false });
  try {
    const horizon = session.cache.inbox.bookHorizon();
    expect(horizon?.from).toBe('registration');
    // the world's present when the service took the webhook: not after the monitor's clock (the world's) now
    expect(horizon?.ms).toBeLessThanOrEqual(session.now().getTime());
    // ... and the instant the listener's picks are read from: Positions and the board read the same
    expect(session.cache.positions.open('2000-01-01').horizon).toEqual(horizon);
    // a second run registers again; the book keeps the first
    const first = horizon?.at as string;
    session.cache.inbox.recordRegistration(new Date(session.now().getTime() + 60_000).toISOString());
    expect(session.cache.inbox.bookHorizon()?.at).toBe(first);
  } finally {
    await session.close();
  }
});
