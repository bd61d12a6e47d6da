import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache } from '../../src/cache/index.js';
import type { HistoricalRow } from '../../src/contract/historical.js';
import { DAY, fillAsOfDay } from '../cache/as-of-day.js';
import { runCli } from '../cli/run-cli.js';

/**
 * `export board --at` carries CROSS (issue 45 item 4), through the built CLI on the hand-built New York day of
 * test/cache/as-of-day.ts, whose mkta snapshots of 54-55°F are 16:00Z 0.45 / 0.55 (1.00: cost 0.01) and 18:00Z
 * 0.80 / 0.20 (1.00: cost 0.01), with mktb snapshots of 54-55°F added here (every one under 1.01 in all: cost 0.01):
 *
 * - 16:01Z yes 0.56 no 0.43: mkta sells at 0.45, mktb bids 1 - 0.43 = 0.57: 0.57 - 0.45 - 0.02 = 0.10, a cross;
 * - 17:00Z the same prices: mkta's newest is still 16:00Z, an hour behind: stale, no cross;
 * - 18:01Z yes 0.78 no 0.21: mktb sells at 0.78, mkta bids 1 - 0.20 = 0.80: 0.80 - 0.78 - 0.02 = 0, no cross;
 * - 18:02Z yes 0.77 no 0.22: 0.80 - 0.77 - 0.02 = 0.01, a cross, its snapshot two minutes after mkta's (the most);
 * - 18:03Z the same prices: three minutes after mkta's, which is stale: no cross.
 */
const WORLD_CLOCK = fileURLToPath(new URL('../helpers/world-clock.mjs', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'export-board-cross-'));
const db = join(root, 'cache.db');

let ids = 10_000;
const mktb = (hhmm: string, yes: number, no: number): HistoricalRow =>
  ({
    id: ++ids,
    city_id: 'nyc',
    local_date: DAY,
    event_slug: `highest-temperature-in-nyc-${DAY}`,
    snapshot_at: `${DAY}T${hhmm}:00Z`,
    bucket_slug: '54-55f',
    bucket_label: '54-55°F',
    yes_price: yes,
    no_price: no,
  }) as HistoricalRow;

beforeAll(() => {
  const cache = openCache(db);
  fillAsOfDay(cache);
  cache.resources.upsertHistorical('mktb_buckets_history', [
    mktb('16:01', 0.56, 0.43),
    mktb('17:00', 0.56, 0.43),
    mktb('18:01', 0.78, 0.21),
    mktb('18:02', 0.77, 0.22),
    mktb('18:03', 0.77, 0.22),
  ]);
  cache.close();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The built CLI's `export board --at`, its clock at 2026-11-25T12:00:00Z (world-clock.mjs, through NODE_OPTIONS). */
async function boardAt(hhmm: string): Promise<Record<string, any>> {
  const out = await runCli(['export', 'board', '--at', `${DAY}T${hhmm}:00Z`, '--db', db], {
    NODE_OPTIONS: `--import ${WORLD_CLOCK}`,
    WORLD_CLOCK_START: '2026-11-25T12:00:00Z',
    XDG_CONFIG_HOME: join(root, 'config'),
  });
  expect(out.stderr).toBe('');
  expect(out.code).toBe(0);
  const [nyc] = JSON.parse(out.stdout) as Record<string, any>[];
  return nyc as Record<string, any>;
}

describe('export board: CROSS', () => {
  it('flags a cross between snapshots two minutes apart at most, not at a margin of 0, not against a stale venue', async () => {
    const [at1601, at1700, at1801, at1802, at1803] = await Promise.all(
      ['16:01', '17:00', '18:01', '18:02', '18:03'].map(boardAt),
    );
    // 16:01Z: the buckets as exported, both venues' prices of 54-55°F, and the flag (nothing else: METAR 9 °C so far
    // kills no held bucket, the kill comes at 19:00Z)
    expect(at1601?.buckets.find((b: any) => b.bucket_slug === '54-55f')).toMatchObject({
      mkta: { yes_price: 0.45, no_price: 0.55, snapshot_at: `${DAY}T16:00:00Z` },
      mktb: { yes_price: 0.56, no_price: 0.43, snapshot_at: `${DAY}T16:01:00Z` },
    });
    expect(at1601?.flags).toEqual(['CROSS']);
    // from 17:00Z METAR 12 °C has killed 52-53°F (11 °C), which pick-1's leg A holds YES: DEAD
    expect(at1700?.flags).toEqual(['DEAD']);
    expect(at1801?.flags).toEqual(['DEAD']);
    expect(at1802?.flags).toEqual(['DEAD', 'CROSS']);
    expect(at1803?.flags).toEqual(['DEAD']);
  });
});
