import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache } from '../../src/cache/index.js';
import { HandCache } from '../helpers/cache-builder.js';
import { REPLAY_SPAN, replayDay } from '../helpers/replay-day.js';
import { startTui, type TuiProcess } from './terminal.js';

/**
 * Time travel (DESIGN 3 `t`, `--at`) in a real pseudo-terminal, on the hand-built Paris day of helpers/replay-day.ts
 * (its comment gives every row), the CLI's clock at 2026-11-25T12:00:00Z (world-clock.mjs, preloaded).
 */
const WORLD_CLOCK = fileURLToPath(new URL('../helpers/world-clock.mjs', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'svc-e2e-travel-'));
const db = join(root, 'cache.db');
const env = {
  XDG_DATA_HOME: join(root, 'data'),
  XDG_CONFIG_HOME: join(root, 'config'),
  NODE_OPTIONS: `--import ${WORLD_CLOCK}`,
  WORLD_CLOCK_START: '2026-11-25T12:00:00Z',
};
const running: TuiProcess[] = [];
beforeAll(() => {
  replayDay(new HandCache(openCache(db))).close();
});
afterAll(() => {
  for (const tui of running) tui.kill();
  rmSync(root, { recursive: true, force: true });
});

const RIGHT = '\u001b[C';
const ESC = '\u001b';

const monitor = (...args: string[]) => {
  const tui = startTui(['monitor', '--offline', '--db', db, '--city', 'paris', ...args], env, { cols: 140, rows: 30 });
  running.push(tui);
  return tui;
};

/** The board's Paris row, once it matches `row`; its screen. */
const parisRow = (tui: TuiProcess, row: RegExp) => tui.waitFor(new RegExp(`Paris +${row.source}`));

describe('time travel in a pseudo-terminal', () => {
  it('--at that is no instant, before the cache or after now: exit 2 naming the option and the span, no frame', async () => {
    const cases: [string, string][] = [
      ['yesterday', '--at must be an ISO 8601 instant with its offset, e.g. 2026-11-20T15:00:00Z; '],
      // a minute before the desk's fetch at 06:00Z, the cache's first row
      ['2026-11-20T05:59:00Z', "--at is before the cache's first row; "],
      // half an hour after the CLI's clock
      ['2026-11-25T12:30:00Z', '--at is after now; '],
    ];
    for (const [value, says] of cases) {
      const tui = monitor('--at', value);
      expect((await tui.exited).exitCode).toBe(2);
      expect(tui.output()).toContain(`svc-monitor: ${says}${REPLAY_SPAN}`);
      expect(tui.output()).not.toContain('Board');
    }
  });

  it('--at starts there: the banner, stepping moves the local time and the running high, a kill at its receipt, the day pinned to settled, Esc back to now', async () => {
    // 08:30Z is 09:30 in Paris: the 07:00Z reading of 8 °C so far, before 10:00: early
    const tui = monitor('--at', '2026-11-20T08:30:00Z');
    await tui.waitFor('REPLAY 2026-11-20 09:30  Paris UTC+1 · paused x60');
    await parisRow(tui, /09:30 early .* 8\.0 \+/);
    // 09:00Z: 10 °C read then, and 10:00 local: peak
    tui.press(RIGHT);
    await tui.waitFor('REPLAY 2026-11-20 10:00');
    await parisRow(tui, /10:00 peak .* 10\.0 \+/);
    const steps: [local: string, high: RegExp][] = [
      ['10:30', /10\.0/],
      ['11:00', /11\.0/],
      ['11:30', /11\.0/],
      ['12:00', /12\.0/],
    ];
    for (const [time, high] of steps) {
      tui.press(RIGHT);
      await tui.waitFor(`REPLAY 2026-11-20 ${time}`);
      await parisRow(tui, new RegExp(`${time} peak .* ${high.source} \\+`));
    }
    // the kill was received at 11:10Z (12:10 local): not on the board at 12:00, on it at 12:30
    expect(tui.screen()).not.toContain('KILL');
    tui.press(RIGHT);
    await parisRow(tui, /12:30 peak .* KILL/);
    expect(tui.screen()).toContain('!! KILL x1');

    // Space plays at a minute a second; Space again pauses
    tui.press(' ');
    await tui.waitFor(/REPLAY 2026-11-20 12:(3[1-9]|[45]\d) .* playing x60/);
    tui.press(' ');
    await tui.waitFor(/REPLAY 2026-11-20 12:[345]\d .* paused x60/);

    // t: a local time in Paris; 23:30 is after the peak (the lock's peak hour 14, + 2 h): passed
    tui.press('t');
    await tui.waitFor('Europe/Paris local>');
    tui.press('2026-11-20 23:30');
    await tui.waitFor('Europe/Paris local> 2026-11-20 23:30');
    tui.press('\r');
    await parisRow(tui, /23:30 passed /);
    // past its midnight the day stays pinned; its lock resolved: settled
    tui.press(RIGHT);
    await tui.waitFor('REPLAY 2026-11-21 00:00');
    tui.press(RIGHT);
    await tui.waitFor('REPLAY 2026-11-21 00:30  Paris UTC+1 · market day 2026-11-20');
    // 00:30 the day after: the local time says +1d
    await parisRow(tui, /\+1d 00:30 settled /);

    // Esc: now again (12:00Z and a little on the CLI's clock: 13:0x in Paris), a day the cache holds nothing of
    tui.press(ESC);
    await tui.waitForGone('REPLAY');
    await parisRow(tui, /13:0\d peak +— /);
    tui.press('q');
    expect((await tui.exited).exitCode).toBe(0);
  });
});
