import type { Line, Segment, Tone } from '../theme.js';

/** SGR colour codes of each tone (the 16 basic colours, as Ink's chalk writes them), closed by 39. */
const TONE_SGR: Record<Tone, number | undefined> = {
  normal: undefined,
  muted: 90,
  accent: 36,
  good: 32,
  bad: 31,
  warn: 33,
  alarm: 91,
};

const sgr = (code: number) => `\u001b[${code}m`;

/** One segment with its tone, bold and inverse as escape sequences, each closed after it. */
function paintSegment(s: Segment): string {
  let open = '';
  let close = '';
  const colour = s.tone ? TONE_SGR[s.tone] : undefined;
  if (s.bold) [open, close] = [open + sgr(1), sgr(22) + close];
  if (s.inverse) [open, close] = [open + sgr(7), sgr(27) + close];
  if (colour !== undefined) [open, close] = [open + sgr(colour), sgr(39) + close];
  return open === '' ? s.text : `${open}${s.text}${close}`;
}

/** A line as the terminal shows it: plain text without colour (NO_COLOR), escape sequences with it. */
export const paintLine = (l: Line, colour: boolean): string =>
  l.map((s) => (colour ? paintSegment(s) : s.text)).join('');

/**
 * Characters one column wide whatever the font (string-width agrees on each): printable ASCII, Latin letters with
 * their accents, the Greek letters (μ, σ: the desk's mu and sigma on the Forecasts chart), punctuation (· … ‹ ›),
 * arrows, mathematical signs (± ≤ ≥), box drawing, blocks and shapes (the charts, ◂ ▸ ●). The soft hyphen and the
 * bidirectional controls are not among them (no width). Ink's patched frame writer uses the same set (ink-patches.ts).
 */
export const ONE_COLUMN_ONLY =
  /^[\u0020-\u007e\u00a0-\u00ac\u00ae-\u024f\u0391-\u03a9\u03b1-\u03c9\u2010-\u2027\u202f-\u205e\u2190-\u22ff\u2500-\u25fc\u25ff]*$/;

/** Whether every character of `text` takes one column: then its width is its length, with no measuring. */
export const oneColumnEach = (text: string): boolean => ONE_COLUMN_ONLY.test(text);
