import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTui } from '../test/e2e/terminal.js';
import { svgOfScreen } from './terminal-svg.js';

/**
 * `npm run screenshot`: the README's picture of the board, made from a real frame. Runs what `npm start` runs (the
 * built CLI's `monitor --demo`) on a fresh home in a pseudo-terminal of 150x45, waits until the board has priced its
 * cities, and writes the screen as it is, colours included, to assets/board.svg. Run it again whenever the board
 * changes.
 */
const SIZE = { cols: 150, rows: 45 };
const OUT = fileURLToPath(new URL('../assets/board.svg', import.meta.url));
/** The demo's first start makes its world and fills 30 days of history into its cache before the board settles. */
const READY_MS = 600_000;
/** A row whose best edge names a side, a bucket and a price: `+1.4 YES 70-71°F 0.28 mkta`. */
const PRICED = /(YES|NO) \S+°[FC] +0?\.\d+/;
const CITY_COUNT = /Board · (\d+) cities/;

/**
 * The board worth a picture: every city listed, the history fill over, the status bar's streams synced (no `-?`
 * left), and most rows priced (a row may honestly say `stale prices` or `—` for a moment).
 */
function ready(screen: string): boolean {
  const cities = Number(CITY_COUNT.exec(screen)?.[1] ?? 0);
  if (cities === 0 || screen.includes('filling') || screen.includes('-?')) return false;
  const priced = screen.split('\n').filter((row) => PRICED.test(row)).length;
  return priced >= Math.ceil(cities / 2);
}

// the picture is of `npm start` as a newcomer runs it: no service, key, cache or speed of this shell's
for (const name of ['SVC_BASE_URL', 'SVC_API_KEY', 'SVC_WEBHOOK_SECRET', 'SVC_DB', 'SVC_DEMO_SPEED', 'NO_COLOR'])
  delete process.env[name];
const home = mkdtempSync(join(tmpdir(), 'svc-screenshot-'));
const tui = startTui(
  ['monitor', '--demo'],
  {
    HOME: home,
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_CACHE_HOME: join(home, 'cache'),
  },
  SIZE,
);
try {
  const deadline = Date.now() + READY_MS;
  // a state, not a time: look again after each of the terminal's turns until the board is ready
  for (;;) {
    const screen = await tui.waitFor(CITY_COUNT, Math.max(1, deadline - Date.now()));
    if (ready(screen)) break;
    if (Date.now() > deadline) throw new Error(`the board was not ready after ${READY_MS} ms\n${screen}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  writeFileSync(OUT, svgOfScreen(tui.terminal, 'svc-monitor: the board of the demo world'));
  process.stderr.write(`wrote ${OUT}\n${tui.screen()}\n`);
} finally {
  tui.kill();
  await tui.exited;
  rmSync(home, { recursive: true, force: true });
}
