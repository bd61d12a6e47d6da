import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCache } from '../../src/cache/index.js';
import { NYC } from '../helpers/cache-builder.js';

const root = mkdtempSync(join(tmpdir(), 'svc-watch-version-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Resolves once `check` holds, looking every few milliseconds: a state, not a time. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
}

describe("a cache's watch on another connection's commits (Cache.watchDataVersion)", () => {
  it("hears another connection's commit, not its own, and nothing once stopped", async () => {
    const file = join(root, 'cache.db');
    const screen = openCache(file);
    const sync = openCache(file);
    let heard = 0;
    const stop = screen.watchDataVersion(() => heard++, 10);
    try {
      // its own write moves no data_version: its change events say it instead
      screen.resources.upsertCities([NYC]);
      // another connection's commit (a sync in another process): heard at the next look
      sync.alerts.add({ severity: 'warning', kind: 'listener-down', message: 'm', created_at: '2026-11-24T12:00:00Z' });
      await until(() => heard > 0);
      expect(heard).toBe(1);
      stop();
      // a second watch as the witness: once it heard two more commits, the stopped one had every chance to hear them
      let witnessed = 0;
      const witness = screen.watchDataVersion(() => witnessed++, 10);
      for (const minute of ['01', '02']) {
        const seen = witnessed;
        sync.alerts.add({
          severity: 'warning',
          kind: 'listener-down',
          message: minute,
          created_at: `2026-11-24T12:${minute}:00Z`,
        });
        await until(() => witnessed > seen);
      }
      witness();
      expect([heard, witnessed]).toEqual([1, 2]);
    } finally {
      stop();
      sync.close();
      screen.close();
    }
  });
});
