import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StrategyRecord } from '../../src/contract/strategies.js';
import { boardCache } from '../tui/board-fixture.js';
import { offlineMonitors } from './offline-monitor.js';

/**
 * The board's columns at 120 and 80 columns (issue 45 item 6), the built CLI in a pseudo-terminal over the
 * hand-built cache of test/tui/board-fixture.ts (its comment and test/tui/board.test.tsx work out every figure), the
 * CLI's clock at its now, 17:00Z on 2026-11-24 (world-clock.mjs, preloaded): 12:00 in New York, 18:00 in Paris.
 * Paris holds one more position here, a YES on 12°C, which its 13 °C high killed: DEAD beside BREAKTHROUGH and KILL,
 * three flags, `BREAKTHROUGH DEAD KILL` in 22 characters or `BRK DEAD KILL` in 13. Its P&L: the YES, with no venue
 * quote, marked at its record's current price, 10 x 0.40 - 3.00 = +1.00; the lock, unquoted, has none and is left out.
 */
const WORLD_CLOCK = fileURLToPath(new URL('../helpers/world-clock.mjs', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'svc-e2e-widths-'));
const env = {
  XDG_DATA_HOME: join(root, 'data'),
  XDG_CONFIG_HOME: join(root, 'config'),
  NODE_OPTIONS: `--import ${WORLD_CLOCK}`,
  WORLD_CLOCK_START: '2026-11-24T17:00:00Z',
};
let db = '';
const monitors = offlineMonitors(env);
beforeAll(() => {
  const dir = join(root, 'cache');
  const cache = boardCache(mkdtempSync(`${dir}-`));
  cache.resources.upsertStrategy('yescore', [
    {
      id: 21,
      strategy: 'yescore',
      city_id: 'paris',
      local_date: '2026-11-24',
      outcome: null,
      model: 'gfs',
      model_exact_pct: 0.3,
      predicted_max_c: 12,
      predicted_max_f: 53.6,
      side: 'YES',
      bucket_slug: '12c',
      bucket_label: '12°C',
      shares: 10,
      stake: 3,
      yes_ask: 0.3,
      current_yes_price: 0.4,
    } as unknown as StrategyRecord,
  ]);
  cache.close();
  const folder = readdirSync(root).find((f) => f.startsWith('cache-')) as string;
  db = join(root, folder, readdirSync(join(root, folder)).find((f) => f.endsWith('.db')) as string);
});
afterAll(() => {
  monitors.killAll();
  rmSync(root, { recursive: true, force: true });
});

const monitor = (cols: number, rows: number) => monitors.start(db, { cols, rows });
// the selected row is drawn to the screen's edge (its highlight): its trailing blanks go too
const rowOf = (screen: string, city: string) =>
  (screen.split('\n').find((l) => l.slice(2).startsWith(city)) ?? '').trimEnd();

describe('the board at 120 and 80 columns', () => {
  it('at 120 keeps the local time, the forecast and P&L, the flags short', async () => {
    const tui = monitor(120, 40);
    // the first priced frame: New York's best edge on its row
    const screen = await tui.waitFor(/New York City .*\+12\.0 YES 70-71°F 0\.28 mktb/);
    // 118 columns (120 less the cursor's 2) by priority (board-columns.ts): city 14, best edge 23, flags `BRK DEAD
    // KILL` 14, forecast 11, P&L 9, ladder 8, high next 10, phase 8 (97); the ladder whole (15: `xxxxx[x][*]····`,
    // +8) 105, the best edge in words (+5) 110, local 6: 116; the words (+9) and staked (8) do not fit in the 2 left
    expect(rowOf(screen, 'Paris')).toMatch(
      /^ {2}Paris {9}18:0\d passed {2}12\.0±0\.5°C 13\.0 \+1\.0 xxxxx\[x\]\[\*\]···· — {27} {3}\+1\.00 BRK DEAD KILL$/,
    );
    expect(rowOf(screen, 'New York City')).toMatch(
      /^. New York City 12:0\d peak {4}69\.8±1\.8°F 68\.0 \+1\.8 x\[x\]-\[\*\]\[-\] {5}\+12\.0 YES 70-71°F 0\.28 mktb {4}-0\.10 DEAD$/,
    );
    expect(screen).not.toContain('BREAKTHROUGH');
    tui.press('q');
    expect((await tui.exited).exitCode).toBe(0);
  });

  it('at 80 keeps the forecast and P&L, the flags short', async () => {
    const tui = monitor(80, 24);
    const screen = await tui.waitFor(/New York City .*\+12\.0 YES 70-71°F/);
    // 78: city 14, best edge 23, flags 14, forecast 11, P&L 9 (71); the ladder (8) does not fit in the 7 left, nor
    // high next (10) or phase (8); the best edge in words (+5) does: 76; local (6) does not
    expect(rowOf(screen, 'New York City')).toBe('› New York City 69.8±1.8°F +12.0 YES 70-71°F 0.28 mktb    -0.10 DEAD');
    expect(rowOf(screen, 'Paris')).toBe(
      `  Paris         12.0±0.5°C —${' '.repeat(26)}${' '.repeat(4)}+1.00 BRK DEAD KILL`,
    );
    tui.press('q');
    expect((await tui.exited).exitCode).toBe(0);
  });
});
