import type { Key } from 'ink';

/** Printable characters only: no control character, no escape. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const PRINTABLE = /^[^\u0000-\u001f\u007f-\u009f]+$/;

/** `key` with every flag off: a plain character. */
const plainKey = (key: Key): Key =>
  Object.fromEntries(Object.entries(key).map(([name, v]) => [name, typeof v === 'boolean' ? false : v])) as Key;

/**
 * The one-byte control keys a run may carry, with the flag Ink sets when each comes alone (its input then empty):
 * `1` and Enter typed faster than a frame, or a filter typed and entered at once, reach Ink as one string.
 */
const LONE_CONTROL_KEYS: Readonly<Record<string, keyof Key>> = {
  '\r': 'return',
  '\t': 'tab',
  '\b': 'backspace',
  '\u007f': 'delete',
};

/** A character of a run: printable, or one of the control keys above. */
const splittable = (c: string): boolean => PRINTABLE.test(c) || c in LONE_CONTROL_KEYS;

/**
 * The keypresses in what Ink hands over as one input. Ink passes a run of characters that came in one read as one
 * string (meant for a paste): `jjjj` typed faster than a frame, or key repeat on a busy moment, would match no key
 * and be lost; here it is four `j`, and `1` with Enter is `1`, then Enter. And Esc followed at once by a key reaches
 * Ink as one sequence, read as Alt and the key: the monitor binds no Alt key, so it is Esc, then the key. Everything
 * else passes as it came.
 */
export function splitKeypresses(input: string, key: Key): [string, Key][] {
  const plain = plainKey(key);
  if (key.meta && !key.escape && !key.ctrl && input.length === 1 && PRINTABLE.test(input))
    return [
      ['', { ...plain, escape: true, meta: true }],
      [input, { ...plain, shift: /[A-Z]/.test(input) }],
    ];
  const chars = [...input];
  if (chars.length < 2 || key.ctrl || key.meta || !chars.every(splittable)) return [[input, key]];
  return chars.map((c) => {
    const control = LONE_CONTROL_KEYS[c];
    return control ? ['', { ...plain, [control]: true }] : [c, { ...plain, shift: /[A-Z]/.test(c) }];
  });
}
