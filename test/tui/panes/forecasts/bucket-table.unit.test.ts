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
    expect(lines[0]).toMatch(/^ {2}bucket +holds +model +mkta +mktb +edge a +edge b$/);
    // each venue: YES bid (1 - NO) / ask (YES), and its own larger side of the edge; cost 0.01 on every quote
    // 47°F or below holds 8 °C and under (8 °C = 46.4; 9 °C = 48.2)
    // 51°F or below holds 10 °C and under (10 °C = 50.0; 11 °C = 51.8 -> 52): dead, YES 0.01 (the floor) and NO
    // 0.99 (the ceiling): no offer on either side (DESIGN 4), no edge
    expect(lines[1]).toMatch(/^ {2}51°F or below +≤10°C +dead +0\.010\/0\.010 +— +— +—$/);
    // 52-53°F holds 11 °C only; dead: its NO is worth 1 - 0.97 - 0.01 = +0.02; bid 1 - 0.97 = 0.03
    expect(lines[2]).toMatch(/^ {2}52-53°F +11°C +dead +0\.030\/0\.020 +— +N\+2\.0 +—$/);
    // mktb's YES 0.811427 - 0.75 - 0.01 = +5.1; CROSS: YES bought on mkta at 0.70 and sold on mktb at 1 - 0.27 =
    // 0.73 leaves 0.73 - 0.70 - 0.01 - 0.01 = +0.01
    expect(lines[3]).toMatch(/^ {2}54-55°F +12-13°C +81\.1% +0\.680\/0\.700 +0\.730\/0\.750 +Y\+10\.1 +Y\+5\.1 CROSS$/);
    expect(lines[4]).toMatch(/^ {2}56-57°F +14°C +16\.2% +0\.090\/0\.100 +— +Y\+5\.2 +—$/);
    // 58°F or higher holds 15 °C (59.0) and over; mktb's YES at 0.01 and NO at 0.99 are its floor and ceiling: no
    // offer, so no edge (its +0.7 on the YES is none a trader can deal)
    expect(lines[5]).toMatch(/^ {2}58°F or higher +≥15°C +2\.7% +— +0\.010\/0\.010 +— +—$/);
    // a label the monitor cannot read: listed with its price, no lattice, no p, no edge
    expect(lines[6]).toMatch(/^ {2}Over 60 F +— +— +0\.010\/0\.010 +— +—$/);
    // a row that names no bucket and has no prices: dashes, not dropped
    expect(lines[7]).toMatch(/^ {2}— +— +— +— +— +—$/);
    expect(lines[8]).toBe('  CROSS 54-55°F: buy YES mkta 0.700, sell mktb 0.730: +1.0 pts net');
    expect(bucketTableNote(day)).toBe(
      'N(54.5, 1.80) °F · mkta snapshot 11-24 16:55Z · mktb snapshot 11-24 16:55Z · prices YES bid/ask (bid = 1 - NO) · edge Y/N points',
    );
  });

  it('a venue behind the model shows its prices and no edge; its CROSS, venue against venue, stands', () => {
    // mktb's snapshot of 16:56:30Z is newer than the 16:56Z up to which the METAR and the desk are held (DESIGN 4 'a
    // price against a model of the same instant'); 90 s from mkta's 16:55Z, within the cross's two minutes
    const behind = boardDay(
      marketDay({
        highC: 12,
        mkta: [quote('54-55°F', 0.7, 0.32)],
        mktb: [quote('54-55°F', 0.75, 0.27, '54-55°F', '2026-11-24T16:56:30Z')],
        modelKnownUntilMs: Date.parse('2026-11-24T16:56:00Z'),
      }),
    );
    const lines = bucketTableLines(behind, 90).map(text);
    // mkta's YES 0.811427 - 0.70 - 0.01 = +10.1; mktb none; CROSS 0.73 - 0.70 - 0.02 = +0.01
    expect(lines.find((l) => l.startsWith('  54-55°F'))).toMatch(
      /^ {2}54-55°F +12-13°C +81\.1% +0\.680\/0\.700 +0\.730\/0\.750 +Y\+10\.1 +— CROSS$/,
    );
    expect(bucketTableNote(behind)).toContain(
      'mktb snapshot 11-24 16:56Z (newer than the METAR or forecast held: no edge)',
    );
  });

  it('no venue edge at the floor: a YES at 0.01 is no offer; a cent above it is one', () => {
    // 56-57°F p 0.161533 (above); mkta's YES 0.01 with NO 0.98 (1 - 0.99 overround, cost 0.01): the YES at the floor
    // offers nothing, the NO 1 - 0.161533 - 0.98 - 0.01 = -0.151533 is the venue's only side: N-15.2
    const floor = boardDay(marketDay({ highC: 12, mkta: [quote('56-57°F', 0.01, 0.98)] }));
    expect(bucketTableLines(floor, 90).map(text)[2]).toMatch(
      /^ {2}56-57°F +14°C +16\.2% +0\.020\/0\.010 +— +N-15\.2 +—$/,
    );
    // YES 0.02, NO 0.97 (0.99: cost 0.01): YES 0.161533 - 0.02 - 0.01 = +0.131533, the day's best: Y+13.2
    const offer = boardDay(marketDay({ highC: 12, mkta: [quote('56-57°F', 0.02, 0.97)] }));
    expect(bucketTableLines(offer, 90).map(text)[2]).toMatch(
      /^ {2}56-57°F +14°C +16\.2% +0\.030\/0\.020 +— +Y\+13\.2 +—$/,
    );
  });

  it('a CHECK day and a day over show no venue edge: the board offers nothing on them', () => {
    // N(2, 0.5) °C against a running high of 12 °C: CHECK (no best edge), 54-55°F given p 1 (the bucket holding it);
    // mkta's YES 0.70 would read 1 - 0.70 - 0.01 = +0.29 were it offered
    const check = boardDay(marketDay({ highC: 12, forecast: primary(2, 0.5), mkta: [quote('54-55°F', 0.7, 0.32)] }));
    expect(check.check).toBe(true);
    expect(bucketTableLines(check, 90).map(text)[2]).toMatch(
      /^ {2}54-55°F +12-13°C +100\.0% +0\.680\/0\.700 +— +— +—$/,
    );
    // 05:00Z on the 25th is New York's midnight: settled at 12 °C = 53.6 -> 54 °F, in 54-55°F (p 1), its last
    // quotes kept; YES 1 - 0.70 - 0.01 = +0.29 and mktb's 1 - 0.75 - 0.01 = +0.24 were a day not over
    const over = boardDay({
      ...marketDay({ highC: 12, mkta: [quote('54-55°F', 0.7, 0.32)], mktb: [quote('54-55°F', 0.75, 0.27)] }),
      atMs: Date.parse('2026-11-25T05:00:00Z'),
    });
    expect(bucketTableLines(over, 90).map(text)[2]).toMatch(
      /^ {2}54-55°F +12-13°C +100\.0% +0\.680\/0\.700 +0\.730\/0\.750 +— +—$/,
    );
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
    expect(lines[2]).toMatch(/^ {2}19°C +— +0\.280\/0\.300 +— +— +—$/);
    expect(bucketTableNote(paris)).toBe(
      'no usable forecast: no p · mkta snapshot 11-24 16:55Z · prices YES bid/ask (bid = 1 - NO) · edge Y/N points',
    );
  });

  it('lays the buckets out around the forecast when no venue is cached, and says so', () => {
    const bare = boardDay(marketDay({ city: PARIS, forecast: primary(18, 1) }));
    expect(bucketTableLines(bare, 63).map(text)[0]).toMatch(/^ {2}bucket/);
    expect(bucketTableNote(bare)).toBe(
      'N(18.0, 1.00) °C · no mkta snapshot cached: buckets laid out around the forecast',
    );
  });
});
