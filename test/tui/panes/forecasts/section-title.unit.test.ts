import { describe, expect, it } from 'vitest';
import { titleLines } from '../../../../src/tui/panes/forecasts/section-title.js';

const text = (width: number, note: string) =>
  titleLines('MARKET BUCKETS', note, width).map((l) => l.map((s) => s.text).join(''));

const NOTE = 'N(50.0, 1.80) °F · mkta snapshot 11-26 16:55Z · mktb snapshot 11-26 16:55Z';

describe("a section's title within a width", () => {
  it('is one line where it fits', () => {
    expect(text(100, NOTE)).toEqual([`MARKET BUCKETS  ${NOTE}`]);
  });

  it('carries the note’s parts onto indented lines below where it does not, never past the width', () => {
    // 14 + 2 + 45 = 61 beside the title; the rest under it
    expect(text(78, NOTE)).toEqual([
      'MARKET BUCKETS  N(50.0, 1.80) °F · mkta snapshot 11-26 16:55Z',
      '  mktb snapshot 11-26 16:55Z',
    ]);
    for (const width of [30, 40, 60, 78])
      for (const l of text(width, NOTE)) expect(l.length).toBeLessThanOrEqual(width);
  });

  it('wraps a part longer than a line at its words; leaves the title alone when not even the first part fits', () => {
    expect(text(24, 'no ensemble history cached before 11-26 17:00Z')).toEqual([
      'MARKET BUCKETS',
      '  no ensemble history',
      '  cached before 11-26',
      '  17:00Z',
    ]);
  });
});
