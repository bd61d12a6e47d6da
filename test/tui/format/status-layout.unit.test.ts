import { describe, expect, it } from 'vitest';
import { layoutStatus, type StatusGroup } from '../../../src/tui/format/status-layout.js';
import { seg } from '../../../src/tui/theme.js';

/** Groups of known widths, in screen order, each a word of its own so a cut one would show. */
const group = (text: string, rank: number): StatusGroup => ({ line: [seg(text)], rank });
const GROUPS = [
  group(' LIVE  svc.test:443', 9), // 19
  group('ok 12:00:00Z', 8), // 12
  group(`sync${' cur 12s'.repeat(7)}`, 2), // 4 + 7 * 8 = 60
  group('hook 127.0.0.1:8788 ok 12 dup 3 rej 1', 4), // 37
  group('12:00:05Z paris Thu 13:00', 6), // 25
  group(`hist${' mka 12s'.repeat(4)}`, 1), // 4 + 4 * 8 = 36
];
// all on one line: 19 + 12 + 60 + 37 + 25 + 36 = 189, plus 5 separators of 3 = 204 columns
const text = (lines: ReturnType<typeof layoutStatus>) => lines.map((l) => l.map((s) => s.text).join(''));
const whole = GROUPS.map((g) => g.line[0]?.text as string);

describe('the status bar at every width from 80 to 250 columns', () => {
  it('fits every group on one line from 204 columns', () => {
    for (const width of [204, 250]) expect(text(layoutStatus(GROUPS, width))).toEqual([whole.join(' · ')]);
  });

  it('takes a second line below that, every group whole', () => {
    // 200 and 160: first line 19 + 12 + 60 + 37 + 25 + 4 * 3 = 165 > 160, so at 160 the clock goes down too:
    // 19 + 12 + 60 + 37 + 3 * 3 = 137 <= 160, second line 25 + 3 + 36 = 64
    expect(text(layoutStatus(GROUPS, 200))).toEqual([whole.slice(0, 5).join(' · '), whole[5]]);
    expect(text(layoutStatus(GROUPS, 160))).toEqual([whole.slice(0, 4).join(' · '), whole.slice(4).join(' · ')]);
    // 140: the same two lines (137 and 64 columns)
    expect(text(layoutStatus(GROUPS, 140))).toEqual([whole.slice(0, 4).join(' · '), whole.slice(4).join(' · ')]);
    // 120: 19 + 12 + 60 + 2 * 3 = 97; then 37 + 25 + 36 + 2 * 3 = 104
    expect(text(layoutStatus(GROUPS, 120))).toEqual([whole.slice(0, 3).join(' · '), whole.slice(3).join(' · ')]);
  });

  it('drops the least important groups first, with a marker, when two lines are not enough', () => {
    // 80: 19 + 12 + 60 won't fit (97 > 80); two lines cannot hold 204 - 6 columns of groups. hist (rank 1) goes:
    // line 1: 19 + 12 + 3 = 34, + 60 = 97 > 80 so sync starts line 2: 60 + 3 + 37 = 100 > 80: a third line. Then
    // sync (rank 2) goes too: line 1: 19 + 12 + 37 + 2 * 3 = 74; line 2: 25 + 3 + '+2 more' 7 = 35
    expect(text(layoutStatus(GROUPS, 80))).toEqual([
      [whole[0], whole[1], whole[3]].join(' · '),
      `${whole[4]} · +2 more`,
    ]);
  });

  it('never cuts a group: every piece of every line is a whole group or the marker', () => {
    for (let width = 80; width <= 250; width++) {
      const lines = text(layoutStatus(GROUPS, width));
      expect(lines.length).toBeLessThanOrEqual(2);
      for (const l of lines) {
        expect(l.length).toBeLessThanOrEqual(width);
        for (const piece of l.split(' · ')) expect(whole.includes(piece) || /^\+\d more$/.test(piece)).toBe(true);
      }
    }
  });

  it('a lone group wider than the bar is cut after its last whole word, with …', () => {
    const long = group('!! SERVICE UNREACHABLE: connect ECONNREFUSED 127.0.0.1:8787 after 6 attempts', 8);
    // 40 columns: the first 39 are '!! SERVICE UNREACHABLE: connect ECONNRE', cut back to the last space (31)
    expect(text(layoutStatus([long], 40))).toEqual(['!! SERVICE UNREACHABLE: connect…']);
  });
});
