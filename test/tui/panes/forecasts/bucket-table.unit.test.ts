import { describe, expect, it } from 'vitest';
import { boardDay } from '../../../../src/board/board-day.js';
import { parseBucketLabel } from '../../../../src/domain/bucket-label.js';
import { bucketTableLines, bucketTableNote, latticeText } from '../../../../src/tui/panes/forecasts/bucket-table.js';
import { marketDay, NEW_YORK, PARIS, primary, quote } from '../../../board/fixtures.js';

const text = (l: { text: string }[]) => l.map((s) => s.text).join('');

/**
 * New York (test/board/fixtures.ts: °F, metar_c), N(12.5, 1) °C, METAR high 12 °C (53.6 °F, settles at 54), worked
 * in test/board/priced-day.unit.test.ts: 51- and 52-53°F dead; 54-55°F 0.811427 (81.1%), YES on mkta +0.101427
 * (+10.1a); 56-57°F 0.161533 (16.2%), YES on mkta +0.051533 (+5.2a); 58°F or higher 0.027040 (2.7%), YES on mktb
 * 0.027040 - 0.01 - 0.01 = +0.007040 (+0.7b). Here mktb also has a row that names no bucket at all.
 */
const day = boardDay({ ...NEW_YORK, mktb: [...NEW_YORK.mktb, { ...quote(null, null, null), bucket_slug: null }] });

describe('the Forecasts buckets table', () => {
  it('shows which whole °C each °F bucket holds, the board’s p and both venues, with the larger edge', () => {
    const [high, ...lines] = bucketTableLines(day, 90).map(text);
    expect(high).toBe('  METAR high so far 12°C, 53.6°F (settles at 54°F or more): buckets below 54°F are dead');
    // narrower than that line (86), its second half goes on below it, not past the width
    expect(bucketTableLines(day, 80).map(text).slice(0, 2)).toEqual([
      '  METAR high so far 12°C, 53.6°F (settles at 54°F or more):',
      '  buckets below 54°F are dead',
    ]);
    expect(lines[0]).toMatch(/bucket +holds +model +mkta +mktb +edge/);
    // 47°F or below holds 8 °C and under (8 °C = 46.4; 9 °C = 48.2)
    // 51°F or below holds 10 °C and under (10 °C = 50.0; 11 °C = 51.8 -> 52): dead, its NO 1 - 0.99 - 0.01 = 0
    expect(lines[1]).toMatch(/^ {2}51°F or below +≤10°C +0\.0% dead +0\.010 +— +NO \+0\.0a$/);
    // 52-53°F holds 11 °C only; dead: its NO is worth 1 - 0.97 - 0.01 = +0.02
    expect(lines[2]).toMatch(/^ {2}52-53°F +11°C +0\.0% dead +0\.020 +— +NO \+2\.0a$/);
    expect(lines[3]).toMatch(/^ {2}54-55°F +12-13°C +81\.1% \S+ +0\.700 +0\.750 +YES \+10\.1a$/);
    expect(lines[4]).toMatch(/^ {2}56-57°F +14°C +16\.2% \S+ +0\.100 +— +YES \+5\.2a$/);
    // 58°F or higher holds 15 °C (59.0) and over
    expect(lines[5]).toMatch(/^ {2}58°F or higher +≥15°C +2\.7% \S* +— +0\.010 +YES \+0\.7b$/);
    // a label the monitor cannot read: listed with its price, no lattice, no p, no edge
    expect(lines[6]).toMatch(/^ {2}Over 60 F +— +— +0\.010 +—$/);
    // a row that names no bucket and has no prices: dashes, not dropped
    expect(lines[7]).toMatch(/^ {2}— +— +— +— +—$/);
    expect(bucketTableNote(day)).toBe('N(54.5, 1.80) °F · mkta snapshot 11-24 16:55Z · mktb snapshot 11-24 16:55Z');
  });

  it('writes the lattice of every shape: one degree, two, the tails, none', () => {
    const lattice = (label: string) =>
      latticeText({ ...(day.buckets[0] as (typeof day.buckets)[number]), bucket: parseBucketLabel(label) });
    expect(['48-49°F', '54-55°F', '47°F or below', '83°F or higher', '49°F'].map(lattice)).toEqual([
      '9°C',
      '12-13°C',
      '≤8°C',
      '≥29°C',
      // 49 °F is no whole °C converted (9 °C = 48.2, 10 °C = 50.0)
      'none',
    ]);
  });

  it('a °C market has no lattice column; an unusable forecast shows — for p', () => {
    const paris = boardDay(
      marketDay({ city: PARIS, forecast: primary(18, 0), highC: 19, mkta: [quote('19°C', 0.3, 0.72)] }),
    );
    const lines = bucketTableLines(paris, 80).map(text);
    expect(lines[0]).toBe('  METAR high so far 19°C (settles at 19°C or more): buckets below 19°C are dead');
    expect(lines[1]).toMatch(/bucket +model +mkta/);
    expect(lines[1]).not.toContain('holds');
    expect(lines[2]).toMatch(/^ {2}19°C +— +\S* +0\.300 +— +—$/);
    expect(bucketTableNote(paris)).toBe('no usable forecast: no p · mkta snapshot 11-24 16:55Z');
  });

  it('lays the buckets out around the forecast when no venue is cached, and says so', () => {
    const bare = boardDay(marketDay({ city: PARIS, forecast: primary(18, 1) }));
    expect(bucketTableLines(bare, 63).map(text)[0]).toMatch(/^ {2}bucket/);
    expect(bucketTableNote(bare)).toBe(
      'N(18.0, 1.00) °C · no mkta snapshot cached: buckets laid out around the forecast',
    );
  });
});
