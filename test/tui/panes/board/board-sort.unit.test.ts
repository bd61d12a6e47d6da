import { describe, expect, it } from 'vitest';
import { type SortedRow, sortBoard, stableEdgeOrder } from '../../../../src/tui/panes/board/board-sort.js';

/** A row as an order reads it: its city, local minutes and best edge (a fraction; null: none). */
const row = (
  cityId: string,
  localMinutes: number,
  edge: number | null,
  tomorrow?: boolean,
  dayOffset = 0,
): SortedRow => ({
  cityId,
  name: cityId,
  localMinutes,
  dayOffset,
  best: edge === null ? null : { edge },
  ...(tomorrow ? { tomorrow } : {}),
});
const keys = (rows: readonly SortedRow[]) => rows.map((r) => (r.tomorrow ? `${r.cityId} tomorrow` : r.cityId));
const EDGE_MIN = 0.08;

describe('the board by local time (the default order)', () => {
  it('puts the latest local time first, then by name, tomorrow under its city', () => {
    // Paris 18:00 (1080), London 17:00 (1020), New York 12:00 (720), Austin 11:00 (660) with its tomorrow row
    const rows = [row('nyc', 720, 0.2), row('aus', 660, 0.1), row('aus', 660, 0.3, true), row('par', 1080, null)];
    expect(keys(sortBoard([...rows, row('lon', 1020, 0.01)], 'time'))).toEqual([
      'par',
      'lon',
      'nyc',
      'aus',
      'aus tomorrow',
    ]);
  });
});

describe('the board by local time in time travel (the day pinned)', () => {
  it('puts a city still on the day before after every city on the market day', () => {
    // replaying 2026-12-02 at 03:00Z: Tokyo 12:00 (720), Paris 04:00 (240), New York -1d 22:00 (-1440 + 1320 =
    // -120), Los Angeles -1d 19:00 (-1440 + 1140 = -300); by the clock alone New York (1320) would come first
    const rows = [row('par', 240, null), row('nyc', 1320, null, false, -1), row('tyo', 720, null)];
    expect(keys(sortBoard([...rows, row('lax', 1140, null, false, -1)], 'time'))).toEqual(['tyo', 'par', 'nyc', 'lax']);
  });
});

describe('the board by best edge, kept while no edge crosses edge_min', () => {
  // first drawn: Austin +12.0 (0.12), Berlin +4.0 (0.04), Chicago +3.0 (0.03), Denver -1.0, Essen none
  const first = [
    row('chi', 600, 0.03),
    row('aus', 600, 0.12),
    row('ess', 600, null),
    row('ber', 600, 0.04),
    row('den', 600, -0.01),
  ];
  const drawn = stableEdgeOrder(first, EDGE_MIN, null);

  it('sorts the first time: best edge first, none last', () => {
    expect(keys(drawn.rows)).toEqual(['aus', 'ber', 'chi', 'den', 'ess']);
  });

  it('keeps the order when Chicago moves from +3.0 to +4.5 points, past Berlin but under edge_min (8.0)', () => {
    // sorted again it would read aus (12), chi (4.5), ber (4.0): kept, it stays aus, ber, chi; Austin's 12 -> 9 stays
    // above 8, Denver's -1 -> +2 below
    const moved = [
      row('aus', 601, 0.09),
      row('ber', 601, 0.04),
      row('chi', 601, 0.045),
      row('den', 601, 0.02),
      row('ess', 601, null),
    ];
    expect(keys(sortBoard(moved, 'edge'))).toEqual(['aus', 'chi', 'ber', 'den', 'ess']);
    expect(keys(stableEdgeOrder(moved, EDGE_MIN, drawn.order).rows)).toEqual(['aus', 'ber', 'chi', 'den', 'ess']);
  });

  it('sorts again when an edge crosses edge_min: Chicago from +3.0 to +8.0 points (at least edge_min)', () => {
    const crossed = [
      row('aus', 601, 0.12),
      row('ber', 601, 0.04),
      row('chi', 601, 0.08),
      row('den', 601, -0.01),
      row('ess', 601, null),
    ];
    expect(keys(stableEdgeOrder(crossed, EDGE_MIN, drawn.order).rows)).toEqual(['aus', 'chi', 'ber', 'den', 'ess']);
  });

  it('sorts again when edges cross edge_min both ways: Austin from +12.0 to +7.9, Berlin from +4.0 to +9.0', () => {
    // 0.079 < 0.08: Austin crosses down, Berlin (0.09 >= 0.08) up: sorted again, ber 9.0, aus 7.9, chi 3.0
    const crossed = [
      row('aus', 601, 0.079),
      row('ber', 601, 0.09),
      row('chi', 601, 0.03),
      row('den', 601, -0.01),
      row('ess', 601, null),
    ];
    expect(keys(stableEdgeOrder(crossed, EDGE_MIN, drawn.order).rows)).toEqual(['ber', 'aus', 'chi', 'den', 'ess']);
  });

  it('sorts again when a row arrives or leaves', () => {
    // Berlin's tomorrow row arrives: a row of its own under Berlin; Chicago's +4.5 now counts (aus 12, chi 4.5, ber 4)
    const more = [...first.map((r) => (r.cityId === 'chi' ? row('chi', 601, 0.045) : r)), row('ber', 601, 0.3, true)];
    expect(keys(stableEdgeOrder(more, EDGE_MIN, drawn.order).rows)).toEqual([
      'aus',
      'chi',
      'ber',
      'ber tomorrow',
      'den',
      'ess',
    ]);
  });
});
