import xterm from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { createScreenLog } from '../../src/tui/screen-log.js';

/** A terminal of `cols` x `rows` and a stream writing to it, as the monitor's stdout does. */
function terminal(cols: number, rows: number) {
  const term = new xterm.Terminal({ cols, rows, allowProposedApi: true });
  const written: string[] = [];
  const stream = {
    columns: cols,
    rows,
    write(data: string) {
      written.push(data);
      term.write(data);
      return true;
    },
  } as unknown as NodeJS.WriteStream & { columns: number; rows: number };
  const screen = () =>
    new Promise<string[]>((done) =>
      term.write('', () =>
        done(Array.from({ length: term.rows }, (_, y) => term.buffer.active.getLine(y)?.translateToString(true) ?? '')),
      ),
    );
  return { term, stream, written, screen };
}

describe('the frame writer of the alternate screen (screen-log.ts)', () => {
  it('draws a frame shorter than the terminal top-left and never scrolls, frame after frame', async () => {
    const t = terminal(20, 4);
    const log = createScreenLog(t.stream);
    // Ink's frames of a terminal 4 rows tall: 3 rows and a newline
    for (const clock of ['10:00:01', '10:00:02', '10:00:03']) log(`tabs\nbody\n${clock}\n`);
    expect(await t.screen()).toEqual(['tabs', 'body', '10:00:03', '']);
  });

  it('writes only the lines that changed', () => {
    const t = terminal(20, 4);
    const log = createScreenLog(t.stream);
    log('tabs\nbody\n10:00:01\n');
    t.written.length = 0;
    log('tabs\nbody\n10:00:02\n');
    const out = t.written.join('');
    expect(out).toContain('10:00:02');
    expect(out).not.toContain('tabs');
    expect(out).not.toContain('body');
    // the same frame again writes nothing
    t.written.length = 0;
    expect(log('tabs\nbody\n10:00:02\n')).toBe(false);
    expect(t.written).toEqual([]);
  });

  it('erases what a shorter frame no longer covers, and a line that got shorter', async () => {
    const t = terminal(20, 5);
    const log = createScreenLog(t.stream);
    log('one one one\ntwo\nthree\n');
    log('one\ntwo\n');
    expect(await t.screen()).toEqual(['one', 'two', '', '', '']);
  });

  it('a new terminal size redraws the whole screen once, nothing left of the old frame', async () => {
    const t = terminal(20, 4);
    const log = createScreenLog(t.stream);
    log('left over 123456789\nbody\n10:00:01\n');
    t.term.resize(10, 4);
    Object.assign(t.stream, { columns: 10 });
    log('tabs\nbody\n10:00:01\n');
    expect(await t.screen()).toEqual(['tabs', 'body', '10:00:01', '']);
    expect(t.written.at(-1)).toContain('\u001b[2J');
  });
});
