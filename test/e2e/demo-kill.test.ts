import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, inject, it } from 'vitest';
import { storePath } from '../../src/server/store/open-store.js';
import { loadCities } from '../../src/server/world/cities.js';
import { fakeNotifySend, waitUntil } from '../helpers/listener-harness.js';
import { PATIENCE_MS } from '../helpers/patience.js';
import { TEMPLATE_START } from '../helpers/world-template.js';
import { startTui, type TuiProcess } from './terminal.js';

/**
 * DESIGN 5: the demo shows a kill within its first 10 minutes, 20 simulated hours at x120. The demo here runs ten
 * times faster (SVC_DEMO_SPEED=1200 s a second: 20 simulated hours in 60 s), so what is checked is the world's kill
 * rate, not the wall clock: the first kill the demo's world makes comes within 20 simulated hours of its start, and
 * the monitor shows it as a trader meets it, on the desktop (a fake notify-send first on PATH), in Alerts, and as the
 * KILL flag of its city's row on the board.
 */
const SPEED = 1200;
const HOUR = 3_600_000;
const root = mkdtempSync(join(tmpdir(), 'svc-e2e-kill-'));
const running: TuiProcess[] = [];
afterAll(() => {
  for (const tui of running) tui.kill();
  rmSync(root, { recursive: true, force: true });
});

interface QueuedKill {
  created_at: string;
  city: string;
  date: string;
}

/** The first kill the demo's world queued after it started, read from its store (the service writes, we only read). */
function firstKill(serverDir: string): QueuedKill | undefined {
  if (!existsSync(storePath(serverDir))) return undefined;
  const db = new Database(storePath(serverDir), { readonly: true, fileMustExist: true });
  try {
    const row = db
      .prepare(
        `SELECT created_at, json FROM world_events WHERE event_type = 'insurance.pick.killed' AND created_at >= ?
         ORDER BY created_at, id LIMIT 1`,
      )
      .get(new Date(TEMPLATE_START).toISOString().replace('.000', '')) as
      | { created_at: string; json: string }
      | undefined;
    if (!row) return undefined;
    const { market } = JSON.parse(row.json);
    return { created_at: row.created_at, city: market.city, date: market.market_date };
  } finally {
    db.close();
  }
}

it('the demo world kills a pick within its first 20 simulated hours, and the monitor shows it: desktop, Alerts, board', async () => {
  const dir = join(root, 'demo');
  const env = { XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') };
  // the demo's world from the test template (30 days to 12:00Z on 21 November, seed 1): no 30-day fill first
  const serverDir = join(env.XDG_DATA_HOME, 'svc-monitor', 'demo', 'server');
  cpSync(inject('templateDir'), serverDir, { recursive: true });
  const notify = fakeNotifySend(dir);
  const tui = startTui(
    [],
    { ...env, PATH: `${notify.bin}:${process.env.PATH}`, SVC_API_KEY: '', SVC_DEMO_SPEED: String(SPEED) },
    { cols: 150, rows: 45 },
  );
  running.push(tui);
  await tui.waitFor('DEMO');

  // the world's clock runs from the template's instant; its first kill is due within 20 simulated hours
  const kill = await waitUntil(
    'a kill from the demo world',
    () => firstKill(serverDir),
    (20 * HOUR) / SPEED + PATIENCE_MS,
  );
  expect(Date.parse(kill.created_at) - TEMPLATE_START).toBeLessThanOrEqual(20 * HOUR);

  // on the desktop: what happened and the city's name in the title, what to do first and the day below, critical
  const name = loadCities().find((c) => c.city_id === kill.city)?.city_name as string;
  const call = await waitUntil('the kill on the desktop', () => notify.calls().find((c) => c[0] === `Kill · ${name}`));
  expect(call?.[1]).toMatch(
    new RegExp(`^SELL AT MARKET: legs A .+, B .+\\. .*: every leg loses, sell at market \\(${kill.date}\\)$`),
  );
  expect(call).toContain('critical');

  // in Alerts: counted on the tab bar and in the pane's header, listed with its city by name
  tui.press('4');
  await tui.waitFor(/!! KILL x\d+/);
  await tui.waitFor(/!! \d+ KILLS? to act on/);
  await tui.waitFor(new RegExp(`!! KILL .*KILL ${name}`));

  // on the board: the killed pick's city-day flagged in words
  tui.press('1');
  await tui.waitFor('[1 Board]');
  await tui.waitFor(new RegExp(`${name} .* KILL`));

  tui.press('q');
  expect((await tui.exited).exitCode).toBe(0);

  // the trader alerts of those hours are ones a trader would believe (DESIGN 4): an edge alert at most once a
  // city-day, none of tens of points (a price against a reading the monitor had not fetched yet)
  const cache = new Database(join(env.XDG_DATA_HOME, 'svc-monitor', 'demo', 'cache.db'), { readonly: true });
  try {
    const edges = cache.prepare("SELECT ref, message FROM alerts WHERE kind = 'edge'").all() as {
      ref: string;
      message: string;
    }[];
    const days = edges.map((e) => e.ref.split('|').slice(0, 2).join('|'));
    expect(days).toEqual([...new Set(days)]);
    for (const e of edges)
      expect(Number(e.message.match(/edge ([+-][\d.]+) points/)?.[1]), e.message).toBeLessThanOrEqual(30);
  } finally {
    cache.close();
  }
});
