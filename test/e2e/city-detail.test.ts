import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache } from '../../src/cache/index.js';
import { DETAIL_DAY, DETAIL_LINES, detailDay } from '../board/city-detail-fixture.js';
import { HandCache } from '../helpers/cache-builder.js';
import { startTui, type TuiProcess } from './terminal.js';

/**
 * The selected city's detail under the board (issue 45 item 2) in a real pseudo-terminal: the built CLI on the
 * hand-built New York day of test/board/city-detail-fixture.ts (every figure below is worked out there and in
 * test/tui/panes/board/city-detail.unit.test.ts), offline, the CLI's clock at 20:00Z (15:00 in New York) by
 * world-clock.mjs, preloaded. The clock runs on from there: the hours to the peak and the lock read the same for the
 * three minutes a tenth of an hour lasts.
 */
const WORLD_CLOCK = fileURLToPath(new URL('../helpers/world-clock.mjs', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'svc-e2e-detail-'));
const db = join(root, 'cache.db');
const env = {
  XDG_DATA_HOME: join(root, 'data'),
  XDG_CONFIG_HOME: join(root, 'config'),
  NODE_OPTIONS: `--import ${WORLD_CLOCK}`,
  WORLD_CLOCK_START: '2026-11-24T20:00:00Z',
};
const running: TuiProcess[] = [];
beforeAll(() => {
  detailDay(new HandCache(openCache(db))).cache.close();
});
afterAll(() => {
  for (const tui of running) tui.kill();
  rmSync(root, { recursive: true, force: true });
});

const monitor = (cols: number, rows: number) => {
  const tui = startTui(['monitor', '--offline', '--db', db], env, { cols, rows });
  running.push(tui);
  return tui;
};

const TITLE = `── New York City · ${DETAIL_DAY} ──`;
/** The detail's lines as test/tui/panes/board/city-detail.unit.test.ts works them out, in their order. */
const DETAIL = DETAIL_LINES;

/** The screen's lines from the detail's title on, trailing spaces trimmed. */
async function detailLines(tui: TuiProcess): Promise<string[]> {
  const screen = await tui.waitFor(DETAIL[8] as string);
  const lines = screen.split('\n');
  const at = lines.findIndex((l) => l.startsWith(TITLE));
  expect(at).toBeGreaterThan(0);
  return lines.slice(at + 1, at + 1 + DETAIL.length);
}

describe("the selected city's detail in a pseudo-terminal", () => {
  it('at 160x45 sits under the board with every field', async () => {
    const tui = monitor(160, 45);
    expect(await detailLines(tui)).toEqual(DETAIL);
    // under New York's row: the board's own row still says the same best edge and P&L
    expect(tui.screen()).toMatch(/› New York City .*\+4\.0 YES 70-71°F 0\.36 mkta +24\.00 +\+4\.80/);
    tui.kill();
  });

  it('at 120x35 the same lines', async () => {
    const tui = monitor(120, 35);
    expect(await detailLines(tui)).toEqual(DETAIL);
    tui.kill();
  });

  it('is gone at 80x24, the board alone', async () => {
    const tui = monitor(80, 24);
    await tui.waitFor(/› New York City/);
    // the board has drawn its row, priced: the strip would be on the same frame
    await tui.waitFor('+4.0 YES');
    expect(tui.screen()).not.toContain('New York City · 2026-11-24');
    expect(tui.screen()).not.toContain('METAR 68.0°F');
    expect(tui.screen()).not.toContain('record: n < 10');
    tui.kill();
  });
});
