import { describe, expect, it } from 'vitest';
import type { DayQuote } from '../../../../src/cache/index.js';
import { bucketRows, bucketTableLines, bucketTableNote } from '../../../../src/tui/panes/forecasts/bucket-table.js';

const q = (id: number, label: string, yes: number | null, no: number | null): DayQuote => ({
  id,
  bucket_slug: label,
  bucket_label: label,
  yes_price: yes,
  no_price: no,
  snapshot_at: '2026-11-21T15:00:00Z',
});
const text = (l: { text: string }[]) => l.map((s) => s.text).join('');

// N(72.5, 2) °F with a running high of 72.4 °F (settles at 72): X conditioned on X >= 71.5, mass 0.691462
// 70-71: dead. 72-73: 0.382925 / 0.691462 = 0.553790. 74-75: (0.933193 - 0.691462) / 0.691462 = 0.349593.
const input = {
  marketUnit: 'F' as const,
  mu: 72.5,
  sigma: 2,
  runningHigh: 72.4,
  mkta: [q(1, '70-71°F', 0.05, 0.96), q(2, '72-73°F', 0.4, 0.62), q(3, '74-75°F', 0.3, 0.72)],
  mktb: [q(4, '72-73°F', 0.45, 0.57), { ...q(5, '', null, null), bucket_slug: null, bucket_label: null }],
};

describe('the Forecasts buckets table', () => {
  it('prices each bucket conditioned on the running high, beside both venues, with the larger edge', () => {
    const rows = bucketRows(input);
    expect(rows.map((r) => r.label)).toEqual(['70-71°F', '72-73°F', '74-75°F', '—']);
    expect(rows[0]).toMatchObject({ p: 0, dead: true });
    // 70-71 on mkta: cost max(0.01, (0.05 + 0.96 - 1) / 2 = 0.005) = 0.01; YES 0 - 0.05 - 0.01 = -0.06;
    // NO 1 - 0.96 - 0.01 = +0.03
    expect(rows[0]?.edge?.side).toBe('NO');
    expect(rows[0]?.edge?.value).toBeCloseTo(0.03, 6);
    // 72-73: mkta (cost 0.01) YES 0.553790 - 0.40 - 0.01 = 0.143790; mktb (cost 0.01) YES 0.553790 - 0.45 - 0.01
    // = 0.093790; NO sides 0.446210 - 0.62 - 0.01 < 0 and 0.446210 - 0.57 - 0.01 < 0: YES on mkta
    expect(rows[1]?.edge).toMatchObject({ side: 'YES', venue: 'a' });
    expect(rows[1]?.edge?.value).toBeCloseTo(0.14379, 4);
    expect(rows[3]).toMatchObject({ p: null, dead: false, edge: null });

    const [high, ...lines] = bucketTableLines(input, 63).map(text);
    expect(high).toBe('  METAR high so far 72.4°F (settles at 72 or more): buckets below 72°F are dead');
    expect(lines[0]).toMatch(/bucket +model +mkta +mktb +edge/);
    expect(lines[1]).toMatch(/70-71°F +0\.0% dead +0\.050 +— +NO \+3\.0a/);
    expect(lines[2]).toMatch(/72-73°F +55\.4% \S+ +0\.400 +0\.450 +YES \+14\.4a/);
    // 74-75 on mkta: cost max(0.01, (0.30 + 0.72 - 1) / 2 = 0.01) = 0.01; YES 0.349593 - 0.30 - 0.01 = +0.039593
    expect(lines[3]).toMatch(/74-75°F +35\.0% \S+ +0\.300 +— +YES \+4\.0a/);
    // a row that names no bucket and has no prices: dashes, not dropped
    expect(lines[4]).toMatch(/^ {2}— +— +— +— +—$/);
    expect(bucketTableNote(input)).toBe('N(72.5, 2.00) °F · mkta snapshot 11-21 15:00Z · mktb snapshot 11-21 15:00Z');
  });

  it('lays the buckets out around the forecast when no venue is cached, and says so', () => {
    const bare = { ...input, runningHigh: undefined, mkta: [], mktb: [] };
    const rows = bucketRows(bare);
    expect(rows).toHaveLength(11);
    // 72-73 under N(72.5, 2): 0.691462 - 0.308538 = 0.382925
    expect(rows.find((r) => r.label === '72-73°F')?.p).toBeCloseTo(0.382925, 5);
    expect(rows.every((r) => r.edge === null && !r.dead)).toBe(true);
    expect(bucketTableLines(bare, 63).map(text)[0]).toMatch(/^ {2}bucket/);
    expect(bucketTableNote(bare)).toBe(
      'N(72.5, 2.00) °F · no mkta snapshot cached: buckets laid out around the forecast',
    );
  });
});
