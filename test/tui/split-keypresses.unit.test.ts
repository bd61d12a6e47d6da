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

  it('Enter, Tab, Backspace and Delete in a run are each the key Ink reads when it comes alone', () => {
    // `1` then Enter faster than a frame: the board, then its city opened (was one unmatched key, both lost)
    expect(splitKeypresses('1\r', NONE)).toEqual([
      ['1', NONE],
      ['', { ...NONE, return: true }],
    ]);
    // a filter typed and entered at once, a slip corrected on the way
    expect(splitKeypresses('nx\u007fy\t\b\r', NONE)).toEqual([
      ['n', NONE],
      ['x', NONE],
      ['', { ...NONE, delete: true }],
      ['y', NONE],
      ['', { ...NONE, tab: true }],
      ['', { ...NONE, backspace: true }],
      ['', { ...NONE, return: true }],
    ]);
  });

  it('one key, an arrow, Esc alone, Ctrl+C and a run with any other control character pass as they came', () => {
    const cases: [string, Key][] = [
      ['j', NONE],
      ['', { ...NONE, downArrow: true }],
      ['', { ...NONE, escape: true, meta: true }],
      ['c', { ...NONE, ctrl: true }],
      ['j\u0001', NONE],
      ['j\n', NONE],
    ];
    for (const [input, key] of cases) expect(splitKeypresses(input, key)).toEqual([[input, key]]);
  });
});
