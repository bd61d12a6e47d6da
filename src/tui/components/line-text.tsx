import { Text, Transform } from 'ink';
import { memo } from 'react';
import { oneColumnEach, paintLine } from '../format/paint.js';
import { useDeps } from '../state/monitor-context.js';
import { fitLine, type Line, mergeRuns } from '../theme.js';

/** A row of spaces a width: what Ink lays out and measures in place of the line (one text a width, ever). */
const blanks = new Map<number, string>();
const blankOf = (width: number): string => {
  let blank = blanks.get(width);
  if (blank === undefined) {
    blank = ' '.repeat(Math.max(1, width));
    if (blanks.size > 64) blanks.clear();
    blanks.set(width, blank);
  }
  return blank;
};

/**
 * One screen line, cut and padded to `width`, drawn as a single text with its colours applied (plain text with
 * colour off: no escape sequences at all).
 *
 * Ink lays out and measures a text by its content: string-width for every text of the screen on every frame (through
 * Intl.Segmenter as soon as a character is beyond ASCII, about 70 µs a 160-column line), and it keeps the measure
 * of every distinct text it ever saw, for good (ink #986). A line whose characters are each one column wide is as
 * wide as it is long, so Ink is given a row of spaces of that width to lay out and measure, and the line itself
 * through a Transform, applied when the frame is written: Ink's measure cache then holds one entry a width, and a
 * changing line (the clock, a scrolled table) costs no measuring. A line with any other character (a wide one from
 * the service's text) is left to Ink to measure and cut.
 */
export const LineText = memo(function LineText({ line, width }: { line: Line; width: number }) {
  const { colour } = useDeps();
  const fitted = mergeRuns(fitLine(line, width));
  const painted = paintLine(fitted, colour);
  if (!oneColumnEach(paintLine(fitted, false))) return <Text wrap="truncate">{painted}</Text>;
  return <Transform transform={() => painted}>{blankOf(width)}</Transform>;
}, sameLine);

/** Panes build their lines anew on each render: an unchanged line is not drawn again. */
function sameLine(a: { line: Line; width: number }, b: { line: Line; width: number }): boolean {
  if (a.width !== b.width || a.line.length !== b.line.length) return false;
  return a.line.every((s, i) => {
    const t = b.line[i];
    return (
      t !== undefined && s.text === t.text && s.tone === t.tone && !s.bold === !t.bold && !s.inverse === !t.inverse
    );
  });
}
