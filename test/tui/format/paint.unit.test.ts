import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { ONE_COLUMN_ONLY, oneColumnEach } from '../../../src/tui/format/paint.js';

/** Every code point of the set, read back out of the expression's own character class. */
function codePointsOfTheSet(): number[] {
  const ranges = [...ONE_COLUMN_ONLY.source.matchAll(/\\u([0-9a-f]{4})(?:-\\u([0-9a-f]{4}))?/g)];
  const out: number[] = [];
  for (const [, from = '', to] of ranges) {
    const low = Number.parseInt(from, 16);
    const high = to === undefined ? low : Number.parseInt(to, 16);
    for (let c = low; c <= high; c++) out.push(c);
  }
  return out;
}

describe('the characters taken as one column wide without measuring (LineText, the frame writer)', () => {
  it('are each one column wide by string-width, the measure Ink would have made', () => {
    const points = codePointsOfTheSet();
    // 95 printable ASCII + 13 (a0-ac) + 418 (ae-24f) + 25 + 25 Greek capitals and small letters + 24 + 48 + 368 +
    // 253 (2500-25fc) + 1 (25ff): the set is read, not empty
    expect(points.length).toBe(95 + 13 + 418 + 25 + 25 + 24 + 48 + 368 + 253 + 1);
    const wider = points.filter((c) => stringWidth(String.fromCodePoint(c)) !== 1).map((c) => c.toString(16));
    expect(wider).toEqual([]);
  });

  it("holds the desk's mu and sigma (the Forecasts chart's μ row and legend are not sent to be measured)", () => {
    expect(oneColumnEach(' μ┃ desk mu ± sigma · ░ every other bucket · ^ now (local, °C)')).toBe(true);
    expect(oneColumnEach('σ 1.2°C')).toBe(true);
  });

  it('leaves out a wide character, the soft hyphen and the bidirectional marks', () => {
    expect(oneColumnEach('Tokyo 東京')).toBe(false);
    expect(oneColumnEach('soft\u00adhyphen')).toBe(false);
    expect(oneColumnEach('\u200fMiami')).toBe(false);
  });
});
