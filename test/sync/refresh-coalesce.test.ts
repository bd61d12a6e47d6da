import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cache, openCache } from '../../src/cache/index.js';
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

/**
 * Resolves once the engine has recorded `n` passes of `stream` in the cache from now on, and every step that follows
 * them without waiting for the network has run: the cache says so synchronously (its change event), and the engine
 * goes on to the next stream in promise continuations, all run before the macrotask this waits for.
 */
function passesRecorded(cache: Cache, stream: string, n: number): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    const detach = cache.onChange((event) => {
      if (event.table !== 'streams' || !event.ids.includes(stream) || ++seen < n) return;
      detach();
      setImmediate(resolve);
    });
  });
}

describe('r while a stream runs', () => {
  it('never starts the stream a second time alongside: presses during the run join one more pass after it', async () => {
    const { cache, engine, close } = await rig();
    try {
      const release = gate.hold((path) => path === NYC_CURRENT);
      const running = engine.runOnce();
      await gate.waitFor((path) => path === NYC_CURRENT);
      // two presses while nyc's observations are still on their way: each runs the cities stream (the first one
      // ahead of `current` in a pass, idle by now), then asks for `current`, which is still running
      const pressesAtCurrent = passesRecorded(cache, 'cities', 2);
      const first = engine.runOnce();
      const second = engine.runOnce();
      await pressesAtCurrent;
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
      // the service's answer to the running pass is in the gate's hands: what the service gets from now on is not in it
      await gate.waitForHeld((path) => path.startsWith('/fusion-locks'));
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
