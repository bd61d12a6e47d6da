import { withoutControls } from '../domain/without-controls.js';

/**
 * Tones, not colours: every tone is also carried by text (a marker, a word, a sign), so the screen means the same
 * under NO_COLOR or to someone who does not see red.
 */
export type Tone = 'normal' | 'muted' | 'accent' | 'good' | 'bad' | 'warn' | 'alarm';

export interface Segment {
  text: string;
  tone?: Tone;
  bold?: boolean;
  inverse?: boolean;
}

/** One screen line: segments of text, each with its own tone. */
export type Line = Segment[];

/** The NO_COLOR convention (no-color.org): set and not empty turns colour off. */
export function colourWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NO_COLOR === undefined || env.NO_COLOR === '';
}

export const line = (...segments: (Segment | string)[]): Line =>
  segments.map((s) => (typeof s === 'string' ? { text: s } : s));

export const seg = (text: string, tone?: Tone, bold?: boolean): Segment => ({ text, tone, bold });

/**
 * Cuts a line to `width` characters and pads it, so every row of a pane is exactly as wide as the terminal. A line
 * cut short of text it still had ends in `…`: a date or a price cut at the edge ("2026-11-2", "0.4") would otherwise
 * read as another one. Only blanks cut away leave no mark.
 */
export function fitLine(l: Line, width: number, pad = true): Line {
  const out: Line = [];
  let left = width;
  let cutText = false;
  for (const s of l) {
    // service and webhook text may carry escapes and line breaks: on screen they are spaces
    const clean = withoutControls(s.text);
    if (left <= 0) {
      cutText ||= clean.trim() !== '';
      continue;
    }
    const text = clean.length > left ? clean.slice(0, left) : clean;
    cutText ||= clean.slice(text.length).trim() !== '';
    out.push({ ...s, text });
    left -= text.length;
  }
  if (cutText) {
    const at = out.findLastIndex((s) => s.text !== '');
    const last = out[at];
    if (last !== undefined) out[at] = { ...last, text: `${last.text.slice(0, -1)}…` };
  }
  if (pad && left > 0) out.push({ text: ' '.repeat(left) });
  return out;
}

/** Marks a row as the selected one: a leading pointer (text) and inverse video (when styles are on). */
export function selectLine(l: Line, selected: boolean): Line {
  const pointer: Segment = { text: selected ? '› ' : '  ', bold: selected };
  return [pointer, ...l.map((s) => (selected ? { ...s, inverse: true } : s))];
}

/** Joins neighbouring segments of the same style: fewer Ink nodes to lay out for the same text. */
export function mergeRuns(l: Line): Line {
  const out: Segment[] = [];
  for (const s of l) {
    const last = out[out.length - 1];
    if (last && last.tone === s.tone && !!last.bold === !!s.bold && !!last.inverse === !!s.inverse) {
      out[out.length - 1] = { ...last, text: last.text + s.text };
    } else out.push(s);
  }
  return out;
}
