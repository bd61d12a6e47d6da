import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exportBoard } from '../../src/board/board-export.js';
import { readBoard } from '../../src/board/read-board.js';
import type { HistoricalRow } from '../../src/contract/historical.js';
import { boardColumns } from '../../src/tui/panes/board/board-columns.js';
import { BOARD_NOW, boardCache, DAY } from '../tui/board-fixture.js';

const root = mkdtempSync(join(tmpdir(), 'last-comparable-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// the service's ids grow with time: the earlier snapshots' are below the fixture's (from 1001)
let ids = 100;
const quote = (slug: string, label: string, yes: number, no: number, at: string) =>
  ({
    id: ++ids,
    city_id: 'nyc',
    local_date: DAY,
    event_slug: 'e',
    bucket_slug: slug,
    bucket_label: label,
    yes_price: yes,
    no_price: no,
    snapshot_at: at,
  }) as unknown as HistoricalRow;

/**
 * Issue 44 item 7 on a real cache file: the board fixture (test/tui/board-fixture.ts) whose venues' newest snapshots
 * are of 16:55Z, with earlier snapshots of New York at 16:46Z and 16:52Z, and a sync that holds the METAR only up to
 * 16:50Z. New York, N(21, 1) °C, high 20 °C read at 16:00Z, the desk's run of 16:05Z (board.test.tsx works the p out):
 * 68-69°F 0.259036, 70-71°F 0.410339, 72°F or higher 0.330626, 65°F or below and 66-67°F dead.
 * At 16:46Z (cost 0.01 on every quote): mkta 70-71°F YES 0.410339 - 0.33 - 0.01 = +0.070339; mktb 70-71°F YES
 * 0.410339 - 0.30 - 0.01 = +0.100339, the best; 72°F or higher YES 0.330626 - 0.30 - 0.01 = +0.020626.
 * The 16:52Z snapshot (mktb 70-71°F at 0.05) is after 16:50Z: ahead of the model too, never read for the edge.
 */
describe('the board while the model is behind, on a cache file', () => {
  it('shows the last comparable edge dimmed with its age, and exports none', () => {
    const cache = boardCache(root);
    cache.resources.upsertHistorical('mkta_buckets_history', [
      quote('70-71f', '70-71°F', 0.33, 0.69, '2026-11-24T16:46:00Z'),
      quote('72f-or-higher', '72°F or higher', 0.3, 0.72, '2026-11-24T16:46:00Z'),
    ]);
    cache.resources.upsertHistorical('mktb_buckets_history', [
      quote('70-71f', '70-71°F', 0.3, 0.72, '2026-11-24T16:46:00Z'),
      quote('70-71f', '70-71°F', 0.05, 0.97, '2026-11-24T16:52:00Z'),
    ]);
    cache.streams.recordSuccess('forecasts', '2026-11-24T16:58:30Z', 3, '2026-11-24T16:58:00Z');
    cache.streams.recordSuccess('metar', '2026-11-24T16:50:30Z', 1, '2026-11-24T16:50:00Z');
    const cities = cache.resources.cities();
    const nyc = readBoard(cache, cities, BOARD_NOW).find((r) => r.cityId === 'nyc');
    expect(nyc?.behind).toBe('model');
    expect(nyc?.best).toBeNull();
    expect(nyc?.lastComparable?.best).toMatchObject({ venue: 'mktb', side: 'YES', price: 0.3 });
    expect(nyc?.lastComparable?.best.edge).toBeCloseTo(0.100339, 5);
    // 17:00Z - 16:46Z
    expect(nyc?.lastComparable?.ageMs).toBe(14 * 60_000);
    const column = boardColumns(nyc ? [nyc] : [], 160).find((c) => c.id === 'edge');
    expect(nyc && column?.text(nyc, column.width)).toBe('+10.0 YES 70-71°F 14m ago');
    const exported = exportBoard(cache, { atMs: BOARD_NOW, replay: false, cities }).find((c) => c.city_id === 'nyc');
    expect(exported?.best_edge).toBeNull();
    expect(exported?.behind).toBe('model');
    // once the METAR is held past the newest snapshots, the board compares them again: 16:55Z's 70-71°F on mktb at
    // 0.28, 0.410339 - 0.28 - 0.01 = +0.120339, and the dimmed edge is gone
    cache.streams.recordSuccess('metar', '2026-11-24T16:58:30Z', 1, '2026-11-24T16:58:00Z');
    const caught = readBoard(cache, cities, BOARD_NOW).find((r) => r.cityId === 'nyc');
    expect(caught?.behind).toBeNull();
    expect(caught?.lastComparable).toBeNull();
    expect(caught?.best).toMatchObject({ venue: 'mktb', side: 'YES', price: 0.28 });
    cache.close();
  });
});
