import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportBoardRecord } from '../src/board/board-record.js';
import { type AlertRow, openCache } from '../src/cache/index.js';
import { STREAM_NAMES } from '../src/contract/config.js';
import { localDate } from '../src/domain/city-time.js';
import { spawnReady, writeResult } from './lib.js';
import { checkEdgeAlerts, mostAlertsACityDay } from './live-alerts.js';
import { BENCH_KEY, BENCH_START, prepareWorld } from './prepare-world.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const SPEED = 120;
const EDGE_MIN = 0.08;

/** Runs the built CLI to its end; its stdout. */
function cli(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.once('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${args.join(' ')}: exit ${code}: ${err}`)),
    );
  });
}

/**
 * `npm run bench -- live` (DESIGN 4 "a price against a model of the same instant", issue 30): the `sync` daemon, as a
 * trader runs it, against the reference service's world at x120 (the 30-day world of seed 1 from 2026-11-21 12:00Z),
 * every stream every 2 s, for LIVE_MINUTES minutes (default 5: ten world hours), the config's default edge_min.
 * Then each edge alert is held to the board as of its instant (`export board --at` its `created_at`), and set against
 * the board's record over the cache's settled days. Goals: at most one edge alert a city-day, every one reproduced,
 * none over 30 points.
 */
export async function benchLive(): Promise<object> {
  const minutes = Number(process.env.LIVE_MINUTES ?? 5);
  const root = mkdtempSync(join(tmpdir(), 'svc-bench-live-'));
  const service = await spawnReady('service-process.mjs', [
    prepareWorld(),
    BENCH_KEY,
    String(BENCH_START),
    String(SPEED),
  ]);
  const config = join(root, 'config');
  mkdirSync(join(config, 'svc-monitor'), { recursive: true });
  writeFileSync(
    join(config, 'svc-monitor', 'config.json'),
    JSON.stringify({ intervals: Object.fromEntries(STREAM_NAMES.map((s) => [s, 2])), alerts: { edge_min: EDGE_MIN } }),
    { mode: 0o600 },
  );
  const db = join(root, 'cache.db');
  const env = { SVC_BASE_URL: service.url, SVC_API_KEY: BENCH_KEY, XDG_CONFIG_HOME: config };
  let daemon: ChildProcess | undefined;
  try {
    daemon = spawn(process.execPath, [CLI, 'sync', '--db', db], { env: { ...process.env, ...env }, stdio: 'ignore' });
    const exited = new Promise<void>((done) => daemon?.once('close', () => done()));
    await new Promise((r) => setTimeout(r, minutes * 60_000));
    daemon.kill('SIGTERM');
    await exited;
    // the desk's hourly runs of the cache's window, which the board's record prices each settled hour with (the
    // polls keep only the newest run)
    await cli(
      [
        'sync',
        '--backfill',
        'forecast_history',
        '--since',
        new Date(BENCH_START - 48 * 3_600_000).toISOString(),
        '--db',
        db,
      ],
      env,
    );
  } finally {
    daemon?.kill('SIGKILL');
  }
  const cache = openCache(db, 'read');
  let alerts: AlertRow[];
  let record: ReturnType<typeof exportBoardRecord>;
  let cities: { city_id: string; tz: string }[];
  let runHours: { from: number; to: number };
  let settledDays: number;
  try {
    alerts = cache.export.rows('alerts').map((r) => JSON.parse(r) as AlertRow);
    record = exportBoardRecord(cache, { edgeMin: EDGE_MIN });
    // the settled city-days the cache can price: a desk's run and a venue's snapshot at some hour of 09:00-16:00
    settledDays = cache.history
      .boardRecordDays({})
      .filter((d) => d.hours.some((h) => h.desk !== null && h.quotes.mkta.length + h.quotes.mktb.length > 0)).length;
    cities = cache.resources.cities();
    runHours = { from: BENCH_START, to: Date.parse(cache.streams.newestTime('mktb_buckets_history') ?? '') };
  } finally {
    cache.close();
  }
  await service.stop();
  const checks = await checkEdgeAlerts(alerts, async (args) =>
    JSON.parse(await cli(['export', 'board', ...args, '--db', db], env)),
  );
  // the city-days the run covered: each city's local dates from the run's first instant to its last
  const covered = new Set<string>();
  for (const c of cities)
    for (let at = runHours.from; at <= runHours.to; at += 1_800_000) covered.add(`${c.city_id}|${localDate(at, c.tz)}`);
  const recordDays = new Set(record.map((t) => `${t.city_id}|${t.local_date}`));
  const reproduced = checks.filter((c) => c.reproduced).length;
  const result = {
    what: 'the sync daemon at x120, every stream every 2 s: edge alerts against the board as of their instant (goals: at most 1 a city-day, 100% reproduced, none over 30 points)',
    minutes,
    world_hours: Math.round(((runHours.to - runHours.from) / 3_600_000) * 10) / 10,
    edge_min: EDGE_MIN,
    city_days_covered: covered.size,
    edge_alerts: checks.length,
    city_days_alerted: new Set(checks.map((c) => `${c.city_id}|${c.date}`)).size,
    edge_alerts_per_city_day: Math.round((checks.length / covered.size) * 1000) / 1000,
    most_edge_alerts_a_city_day: mostAlertsACityDay(checks),
    reproduced,
    reproduced_share: checks.length === 0 ? null : Math.round((reproduced / checks.length) * 1000) / 1000,
    largest_edge_points: checks.length === 0 ? null : Math.max(...checks.map((c) => c.points)),
    // the board's record over the settled city-days the cache holds priced (the 48 h window before the run)
    record: {
      settled_city_days: settledDays,
      city_days_with_a_position: recordDays.size,
      positions: record.length,
      positions_per_settled_city_day:
        settledDays === 0 ? null : Math.round((record.length / settledDays) * 1000) / 1000,
    },
    alerts: checks,
  };
  writeResult('live', result);
  return result;
}
