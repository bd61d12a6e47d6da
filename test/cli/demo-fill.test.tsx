import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../src/alerts/alert-settings.js';
import type { Connection } from '../../src/cli/config.js';
import { openSession } from '../../src/cli/monitor-session.js';
import { HISTORICAL_TABLES } from '../../src/contract/historical.js';
import { PANES } from '../../src/tui/panes/pane-registry.js';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import type { MonitorStatus } from '../../src/tui/types.js';
import { PATIENCE_MS } from '../helpers/patience.js';
import { lines, renderTui } from '../tui/fixtures.js';

// The demo in-process, as `npm start` runs it, over a copy of the test template world (so the world's own 30-day
// fill is skipped; the monitor's history fill is what this file tests).
const root = mkdtempSync(join(tmpdir(), 'svc-demo-fill-'));
const saved = process.env.XDG_DATA_HOME;
const demoDir = join(root, 'data', 'svc-monitor', 'demo');
/** What `monitor --demo` resolves with no config: no key, no service, the defaults. */
const connection: Connection = {
  baseUrlFrom: 'the demo',
  apiKeyFrom: 'the demo',
  auth: 'x-api-key',
  webhookSecrets: [],
  dbPath: join(root, 'unused-live-cache.db'),
  intervals: {},
  historyHours: 48,
  detailDays: 14,
  alerts: DEFAULT_ALERT_SETTINGS,
};

beforeAll(() => {
  process.env.XDG_DATA_HOME = join(root, 'data');
  cpSync(inject('templateDir'), join(demoDir, 'server'), { recursive: true });
});
afterAll(() => {
  if (saved === undefined) delete process.env.XDG_DATA_HOME;
  else process.env.XDG_DATA_HOME = saved;
  rmSync(root, { recursive: true, force: true });
});

type Fill = NonNullable<MonitorStatus['fill']>;
/** Every fill state the session reported, in order, until it is done or failed (at most two minutes). */
async function fillStates(status: { getStatus(): MonitorStatus; subscribe(f: () => void): () => void }) {
  const seen: Fill[] = [];
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`the fill never ended: ${JSON.stringify(seen.at(-1))}`)),
      PATIENCE_MS,
    );
    const look = () => {
      const fill = status.getStatus().fill;
      if (fill && fill !== seen.at(-1)) seen.push(fill);
      if (fill?.state === 'done' || fill?.state === 'failed') {
        clearTimeout(timer);
        unsubscribe();
        done();
      }
    };
    const unsubscribe = status.subscribe(look);
    look();
  });
  return seen;
}

/** The cities the demo's world is built on. */
const CITY_COUNT = (
  JSON.parse(readFileSync(new URL('../../assets/cities.json', import.meta.url), 'utf8')) as { cities: unknown[] }
).cities.length;

const cacheCount = (sql: string): number => {
  const db = new Database(join(demoDir, 'cache.db'), { readonly: true });
  try {
    return db.prepare(sql).pluck().get() as number;
  } finally {
    db.close();
  }
};

describe('the demo’s history fill', () => {
  let firstRows = 0;
  /** Rows of the first start older than any live stream's window: only the month's fill brings those. */
  let monthOnly = 0;

  it('fills 30 days of every table on first start, its progress on the status bar, the panes usable meanwhile', async () => {
    const session = await openSession('demo', connection, { notify: false });
    const app = await renderTui(<MonitorApp cache={session.cache} source={session.status} now={session.now} />);
    try {
      const ended = fillStates(session.status);
      // while it fills: the progress on the status bar, and a pane key still answers at once
      await app.until((f) => /filling 30 days \d+\/11 [a-z_]+ [\d,]+ rows/.test(f), 'the fill on the status bar');
      const history = PANES.indexOf('history') + 1;
      await app.press(String(history));
      expect(app.frame()).toContain(`[${history} History]`);
      expect(app.frame()).toMatch(/filling 30 days/);
      const states = await ended;
      const last = states.at(-1) as Fill;
      expect(last.state, last.message).toBe('done');
      await app.until((f) => !f.includes('filling 30 days'), 'the status bar without the fill once it is done');
      expect(last.tablesDone).toBe(11);
      expect(last.tables).toBe(11);
      firstRows = last.rows;
      const before = new Date(session.now().getTime() - 3 * 86_400_000).toISOString().slice(0, 10);
      for (const table of HISTORICAL_TABLES)
        monthOnly += cacheCount(
          `SELECT count(*) FROM h_${table} WHERE json_extract(json, '$.local_date') < '${before}'`,
        );
      // the daily tables first, the largest intraday ones last: each state names the table drained after
      // `tablesDone` others (the fill runs on the session's thread from before openSession returns, so the first
      // states can come before this test listens: each one seen is checked against its place)
      const order = [
        'forecast_accuracy_daily',
        'market_brief_daily',
        'edge_resolved',
        'model_forecasts_daily',
        'metar_observations_history',
        'forecast_history',
        'mkta_buckets_history',
        'mktb_buckets_history',
        'wxa_history',
        'wxb_history',
        'pws_observations_history',
      ];
      const seen = states.filter((s) => s.table !== null);
      expect(seen.length).toBeGreaterThan(0);
      for (const s of seen) expect(s.table, `table number ${s.tablesDone + 1}`).toBe(order[s.tablesDone]);
      expect(seen.at(-1)?.table).toBe('pws_observations_history');

      // the 30 settled days of a first start (DESIGN 5) and today, every city of assets/cities.json, on both venues
      // and in METAR
      for (const table of ['mkta_buckets_history', 'mktb_buckets_history', 'metar_observations_history']) {
        const days = cacheCount(`SELECT count(DISTINCT json_extract(json, '$.local_date')) FROM h_${table}`);
        expect(days, table).toBeGreaterThanOrEqual(31);
        expect(cacheCount(`SELECT count(DISTINCT city_id) FROM h_${table}`), table).toBe(CITY_COUNT);
      }
      expect(cacheCount("SELECT count(*) FROM checkpoints WHERE stream LIKE 'fill/%' AND value = 'done'")).toBe(11);

      // the Forecasts pane of the demo: numeric mkta bid/ask and a venue's edge (`N-4.4`) on the buckets table
      await app.press(String(PANES.indexOf('forecasts') + 1));
      const priced = /°[FC] .* \d\.\d{3}\/\d\.\d{3} .* [YN][+-]\d+\.\d\b/;
      const frame = await app.until(
        (f) => lines(f).some((l) => priced.test(l)),
        'a bucket row with an mkta price and an edge',
      );
      const rows = lines(frame).filter((l) => priced.test(l));
      // a city's event lists 11 buckets; dead ones say so instead of an edge
      expect(rows.length).toBeGreaterThanOrEqual(1);
      expect(frame).toMatch(/bucket +model +mkta +mktb +edge/);
    } finally {
      app.unmount();
      await session.close();
    }
  });

  it('on a later start only catches up: from the newest row stored minus the lookback', async () => {
    const session = await openSession('demo', connection, { notify: false });
    try {
      const states = await fillStates(session.status);
      const last = states.at(-1) as Fill;
      expect(last.state, last.message).toBe('done');
      // the first start fetched the whole month (every row older than the live streams' window, and more); a
      // catch-up fetches the two hours of lookback of the intraday tables, a day of the daily ones and whatever the
      // world made since: a small fraction
      expect(monthOnly).toBeGreaterThan(0);
      expect(firstRows).toBeGreaterThanOrEqual(monthOnly);
      expect(last.rows).toBeLessThan(firstRows / 20);
    } finally {
      await session.close();
    }
  });
});
