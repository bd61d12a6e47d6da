import { wrap } from '../../format/text.js';
import { type Line, line, seg } from '../../theme.js';

/** A section's title in bold, with a muted note beside it. */
export const title = (text: string, note = ''): Line =>
  line(seg(text, 'accent', true), seg(note ? `  ${note}` : '', 'muted'));

/**
 * A section's title and note within `width`: the note's parts (split at ` · `) beside the title while they fit, the
 * rest on lines of their own below it, indented, a part longer than a line wrapped at its words. Nothing is cut: a
 * half of the two-column page is narrower than some notes (a venue's snapshot and why it offers no edge).
 */
export function titleLines(text: string, note: string, width: number): Line[] {
  if (text.length + 2 + note.length <= width) return [title(text, note)];
  // rows[0] stands beside the title, the others under it
  const rows: string[] = [];
  const roomOf = (row: number) => (row === 0 ? width - text.length - 2 : width - 2);
  for (const part of note.split(' · ')) {
    const last = rows.length - 1;
    const joined = last < 0 ? part : `${rows[last]} · ${part}`;
    if (joined.length <= roomOf(Math.max(0, last))) {
      if (last < 0) rows.push(joined);
      else rows[last] = joined;
      continue;
    }
    // the title's own row left empty when not even the first part fits beside it
    if (last < 0) rows.push('');
    rows.push(...wrap(part, width - 2));
  }
  const [head = '', ...rest] = rows;
  return [title(text, head), ...rest.map((r) => line(seg(`  ${r}`, 'muted')))];
}
