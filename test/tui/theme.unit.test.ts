import { describe, expect, it } from 'vitest';
import { fitLine, line, seg } from '../../src/tui/theme.js';

const text = (l: ReturnType<typeof fitLine>) => l.map((s) => s.text).join('');

describe('fitLine', () => {
  it('ends a line cut short of its text in …, so a cut date or price never reads as another', () => {
    expect(text(fitLine(line('forecast for 2026-11-21'), 22))).toBe('forecast for 2026-11-…');
    // cut at a segment's end, the text after it still marks the cut
    expect(text(fitLine(line(seg('0.450', 'muted'), '/0.470'), 5))).toBe('0.45…');
    // the mark keeps the style of the character it stands on
    expect(fitLine(line(seg('0.450', 'muted'), '/0.470'), 5)[0]).toEqual({ text: '0.45…', tone: 'muted' });
  });

  it('leaves no mark where only blanks were cut, and pads a short line to the width', () => {
    expect(text(fitLine(line('bucket', '      '), 8))).toBe('bucket  ');
    expect(text(fitLine(line('edge', seg('   ')), 4))).toBe('edge');
    expect(text(fitLine(line('edge'), 7))).toBe('edge   ');
    expect(text(fitLine(line('edge'), 7, false))).toBe('edge');
    expect(text(fitLine(line('edge'), 4))).toBe('edge');
  });

  it('turns control characters of service text into spaces before it counts the width', () => {
    expect(text(fitLine(line('a\nb\u001b[31mc'), 12))).toBe('a b [31mc   ');
  });
});
