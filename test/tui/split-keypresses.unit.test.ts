import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { splitKeypresses } from '../../src/tui/state/split-keypresses.js';

/** Ink's Key with no flag set: a plain character. */
const NONE = Object.fromEntries(
  ['upArrow', 'downArrow', 'leftArrow', 'rightArrow', 'pageDown', 'pageUp', 'home', 'end', 'return', 'escape', 'ctrl']
    .concat(['shift', 'tab', 'backspace', 'delete', 'meta', 'super', 'hyper', 'capsLock', 'numLock'])
    .map((flag) => [flag, false]),
) as unknown as Key;

describe('keys that reach Ink in one read', () => {
  it('a run of characters is one key each, in order, upper case with shift', () => {
    expect(splitKeypresses('jjK', NONE)).toEqual([
      ['j', NONE],
      ['j', NONE],
      ['K', { ...NONE, shift: true }],
    ]);
  });

  it('Esc and a key at once (read by Ink as Alt and the key) is Esc, then the key', () => {
    expect(splitKeypresses('j', { ...NONE, meta: true })).toEqual([
      ['', { ...NONE, escape: true, meta: true }],
      ['j', NONE],
    ]);
  });

  it('one key, an arrow, Esc alone, Ctrl+C and a run with a control character pass as they came', () => {
    const cases: [string, Key][] = [
      ['j', NONE],
      ['', { ...NONE, downArrow: true }],
      ['', { ...NONE, escape: true, meta: true }],
      ['c', { ...NONE, ctrl: true }],
      ['j\r', NONE],
    ];
    for (const [input, key] of cases) expect(splitKeypresses(input, key)).toEqual([[input, key]]);
  });
});
