import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache } from '../../src/cache/index.js';
import { ApiClient } from '../../src/client/api-client.js';
import { SyncEngine } from '../../src/sync/sync-engine.js';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';
import { insertExtraLocks } from '../helpers/sync-fixtures.js';
import { type GateProxy, startGateProxy } from './gate-proxy.js';

let svc: TestService;
let gate: GateProxy;
const root = mkdtempSync(join(tmpdir(), 'svc-refresh-'));
let files = 0;

beforeAll(async () => {
  svc = await startTestService({ tickMs: 24 * 3_600_000 });
});
afterAll(async () => {
  await svc.close();
  rmSync(root, { recursive: true, force: true });
});

/** An engine over a new cache file, talking to the service through a new gate proxy. */
async function rig() {
  gate = await startGateProxy(svc.baseUrl);
  const cache = openCache(join(root, `cache-${++files}.db`));
  const client = new ApiClient({ baseUrl: gate.baseUrl, apiKey: TEST_KEY });
  const engine = new SyncEngine({ client, cache });
  return {
    cache,
    engine,
    async close() {
      await engine.stop();
      await client.close();
      cache.close();
      await gate.close();
    },
  };
}

const NYC_CURRENT = '/current?city_id=nyc';

describe('r while a stream runs', () => {
  it('never starts the stream a second time alongside: presses during the run join one more pass after it', async () => {
    const { engine, close } = await rig();
    try {
      const release = gate.hold((path) => path === NYC_CURRENT);
      const running = engine.runOnce();
      await gate.waitFor((path) => path === NYC_CURRENT);
      // two presses while nyc's observations are still on their way
      const first = engine.runOnce();
      const second = engine.runOnce();
      await new Promise((r) => setTimeout(r, 300));
      expect(gate.count((path) => path === NYC_CURRENT)).toBe(1);
      release();
      const passes = await Promise.all([running, first, second]);
      for (const pass of passes) expect(pass.errors).toEqual([]);
      // the running pass and one more for both presses; never two at once
      expect(gate.count((path) => path === NYC_CURRENT)).toBe(2);
      expect(gate.mostInFlight(NYC_CURRENT)).toBe(1);
    } finally {
      await close();
    }
  });

  it('brings data at least as fresh as the press: what reached the service after the run began is stored', async () => {
    const { cache, engine, close } = await rig();
    try {
      const release = gate.hold((path) => path.startsWith('/fusion-locks'));
      const running = engine.runOnce();
      await gate.waitFor((path) => path.startsWith('/fusion-locks'));
      // a lock the running pass's answer does not hold: it appears at the service, then the trader presses r
      const newest = svc.service.db.prepare('SELECT max(locked_at) FROM fusion_locks').pluck().get() as string;
      const later = new Date(Date.parse(newest) + 60_000).toISOString().replace('.000Z', 'Z');
      const [id] = insertExtraLocks(svc.service.db, {
        count: 1,
        prefix: 'fl-pressed',
        resolved: false,
        lockedAt: () => later,
      });
      const pressed = engine.runOnce();
      release();
      await running;
      const ids = () => cache.export.rows('fusion-locks').map((json) => JSON.parse(json).id as string);
      expect(ids()).not.toContain(id);
      expect((await pressed).errors).toEqual([]);
      expect(ids()).toContain(id);
    } finally {
      await close();
    }
  });
});
