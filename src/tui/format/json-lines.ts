import { type Line, line } from '../theme.js';

/** A value as pretty-printed JSON, a screen line per text line: what Enter shows of a stored row. */
export const jsonLines = (value: unknown): Line[] =>
  JSON.stringify(value, null, 2)
    .split('\n')
    .map((text) => line(text));

/** Text that is JSON, pretty-printed for reading; text that is not is shown as it is. */
export function prettyJson(text: string): string[] {
  try {
    return JSON.stringify(JSON.parse(text), null, 2).split('\n');
  } catch {
    return text.split('\n');
  }
}
