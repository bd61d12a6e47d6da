import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { helpLines } from '../../src/tui/components/help-overlay.js';
import { hintOf, KEYS, listMove } from '../../src/tui/keys.js';
import { HELP_SECTIONS, paneOfKey } from '../../src/tui/panes/pane-registry.js';

const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};
const press = (input: string, key: Partial<Key> = {}): [string, Key] => [input, { ...NO_KEY, ...key }];

describe('key bindings', () => {
  it('move through lists with arrows and j/k, page with PgUp/PgDn and space, go home with g or Home', () => {
    expect(listMove(...press('', { downArrow: true }))).toBe('down');
    expect(listMove(...press('j'))).toBe('down');
    expect(listMove(...press('k'))).toBe('up');
    expect(listMove(...press(' '))).toBe('pageDown');
    expect(listMove(...press('', { pageUp: true }))).toBe('pageUp');
    expect(listMove(...press('g'))).toBe('home');
    expect(listMove(...press('', { home: true }))).toBe('home');
    expect(listMove(...press('x'))).toBeNull();
  });

  it('tell Tab from Shift-Tab, and a pane digit from any other', () => {
    expect(KEYS.everywhere.nextPane.match(...press('', { tab: true }))).toBe(true);
    expect(KEYS.everywhere.nextPane.match(...press('', { tab: true, shift: true }))).toBe(false);
    expect(KEYS.everywhere.previousPane.match(...press('', { tab: true, shift: true }))).toBe(true);
    expect(['1', '2', '4', '6', '7', '0', '12'].map(paneOfKey)).toEqual([
      'board',
      'signals',
      'alerts',
      'history',
      null,
      null,
      null,
    ]);
  });

  it('close the city chooser with Esc or the c that opened it', () => {
    expect(KEYS.chooser.close.match(...press('', { escape: true }))).toBe(true);
    expect(KEYS.chooser.close.match(...press('c'))).toBe(true);
    expect(KEYS.chooser.close.match(...press('q'))).toBe(false);
  });

  it('write hints from the same table: label then what it does', () => {
    expect(hintOf(KEYS.alerts.acknowledge)).toBe('a acknowledge');
    expect(hintOf(KEYS.lists.detail, 'row')).toBe('Enter row');
  });

  it('list every binding that has a help row in the help, under its section', () => {
    const text = helpLines().map((l) => l.map((s) => s.text).join(''));
    for (const [title, bindings] of HELP_SECTIONS) {
      expect(text).toContain(title);
      for (const b of Object.values(bindings))
        if (b.help) expect(text).toContain(`  ${b.help[0].padEnd(20)}${b.help[1]}`);
    }
  });
});
