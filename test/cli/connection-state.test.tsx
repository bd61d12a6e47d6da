import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../src/alerts/alert-settings.js';
import { openCache } from '../../src/cache/index.js';
import type { Connection } from '../../src/cli/config.js';
import { openSession } from '../../src/cli/monitor-session.js';
import { ConnectionTracker } from '../../src/cli/monitor-status.js';
import { ApiClient } from '../../src/client/api-client.js';
import { type StreamOutcome, SyncEngine, type SyncSummary } from '../../src/sync/sync-engine.js';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';
import { PATIENCE_MS } from '../helpers/patience.js';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';
import { type GateProxy, startGateProxy } from '../sync/gate-proxy.js';
import { lines, renderTui } from '../tui/fixtures.js';

let svc: TestService;
let gate: GateProxy;
const root = mkdtempSync(join(tmpdir(), 'svc-connection-'));
let files = 0;

beforeAll(async () => {
  svc = await startTestService({ tickMs: 24 * 3_600_000 });
  gate = await startGateProxy(svc.baseUrl);
});
afterAll(async () => {
  await gate.close();
  await svc.close();
  rmSync(root, { recursive: true, force: true });
});

/** A live connection to the service through the gate, every stream polled each second, a cache of its own. */
function liveConnection(apiKey = TEST_KEY): Connection {
  const intervals = Object.fromEntries(
    ['cities', 'current', 'forecasts', 'no24', 'yescore', 'svc-max-picks', 'fusion-locks'].map((s) => [s, 1_000]),
  );
  return {
    baseUrl: gate.baseUrl,
    apiKey,
    // the default in force, as the config resolves it
    detailDays: 14,
    baseUrlFrom: '--base-url',
    apiKeyFrom: '--api-key',
    auth: 'x-api-key',
    webhookSecrets: [],
    dbPath: join(root, `cache-${++files}.db`),
    intervals,
    alerts: DEFAULT_ALERT_SETTINGS,
    historyHours: 48,
  };
}

const statusBar = (frame: string) => lines(frame).filter(Boolean).slice(-2).join('\n');
const CLOCK = '\\d\\d:\\d\\d:\\d\\dZ';

/** Waits (up to PATIENCE_MS: a service going away takes its retries, longer on a loaded machine) for the status bar. */
async function statusUntil(app: Awaited<ReturnType<typeof renderTui>>, pattern: RegExp): Promise<string> {
  for (let i = 0; i < PATIENCE_MS / 50; i++) {
    const bar = statusBar(app.frame());
    if (pattern.test(bar)) return bar;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the status bar never matched ${pattern}; it says:\n${statusBar(app.frame())}`);
}

describe('the status bar’s connection', () => {
  it('says connecting until a pass answered, then ok with the time, unreachable with the last good answer, and ok again', async () => {
    const release = gate.hold(() => true);
    const session = await openSession('live', liveConnection(), { notify: false });
    const app = await renderTui(<MonitorApp cache={session.cache} source={session.status} now={session.now} />);
    try {
      await gate.waitFor(() => true);
      // before: "ok" (nothing said) while no answer had come
      expect(statusBar(app.frame())).toContain('connecting…');
      expect(session.status.getStatus().connection).toEqual({ state: 'connecting' });
      release();
      const ok = await statusUntil(app, new RegExp(`LIVE\\s+127\\.0\\.0\\.1:\\d+ · ok ${CLOCK}`));
      expect(ok).not.toContain('connecting');
      const answeredAt = session.status.getStatus().connection.lastGoodAt as string;
      expect(Date.parse(answeredAt)).toBeGreaterThan(Date.now() - 60_000);

      gate.setDown(true);
      const down = await statusUntil(app, /!! SERVICE UNREACHABLE/);
      expect(down).toMatch(new RegExp(`last good answer ${CLOCK}`));
      expect(session.status.getStatus().connection.state).toBe('unreachable');
      gate.setDown(false);
      await statusUntil(app, new RegExp(`· ok ${CLOCK}`));
    } finally {
      gate.setDown(false);
      release();
      app.unmount();
      await session.close();
    }
  });

  it('says the key was rejected, never showing it', async () => {
    const session = await openSession('live', liveConnection('not-the-key-0042'), { notify: false });
    const app = await renderTui(<MonitorApp cache={session.cache} source={session.status} now={session.now} />);
    try {
      const bar = await statusUntil(app, /!! KEY REJECTED/);
      expect(bar).toContain('no good answer yet');
      expect(app.frame()).not.toContain('not-the-key-0042');
      expect(session.status.getStatus().connection.state).toBe('auth-rejected');
    } finally {
      app.unmount();
      await session.close();
    }
  });
});

/** A pass's outcomes, stream by stream, as the engine reports them. */
function outcomesOf(pass: SyncSummary): StreamOutcome[] {
  const streams = new Set([...Object.keys(pass.streams), ...pass.errors.map((e) => e.stream)]);
  return [...streams].map((stream) => ({
    stream,
    counts: pass.streams[stream],
    error: pass.errors.find((e) => e.stream === stream),
  }));
}

describe('ConnectionTracker', () => {
  it('is failing while a stream the service answers keeps failing, and ok once it passes again', async () => {
    const proxy = await startFaultProxy(svc.baseUrl);
    const cache = openCache(join(root, `tracker-${++files}.db`));
    const client = new ApiClient({ baseUrl: proxy.baseUrl, apiKey: TEST_KEY, retry: { attempts: 1 } });
    const engine = new SyncEngine({ client, cache });
    const tracker = new ConnectionTracker();
    const record = (pass: SyncSummary, at: string) =>
      outcomesOf(pass)
        .map((o) => tracker.record(o, at))
        .at(-1);
    try {
      expect(tracker.current()).toEqual({ state: 'connecting' });
      proxy.setPlan((path) => (path.startsWith('/api/public/v1/no24') ? 'bad-row' : 'pass'));
      expect(record(await engine.runOnce(), '2026-11-21T12:00:00.250Z')).toEqual({
        state: 'failing',
        message: 'no24: GET /no24?status=open&limit=1000: response field /data/0/city_id must be string',
        lastGoodAt: '2026-11-21T12:00:00Z',
      });
      proxy.setPlan(() => 'pass');
      expect(record(await engine.runOnce(), '2026-11-21T12:01:00.750Z')).toEqual({
        state: 'ok',
        lastGoodAt: '2026-11-21T12:01:00Z',
      });
    } finally {
      await client.close();
      cache.close();
      await proxy.close();
    }
  });
});
