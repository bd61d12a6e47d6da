import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ReplayChains, replayTraderAlerts } from '../src/alerts/trader-alert-replay.js';
import { recordSummary, recordTrades } from '../src/board/board-record.js';
import { readBoard } from '../src/board/read-board.js';
import { openCache, RECORD_QUOTE_WINDOW_MS, type RecordDay } from '../src/cache/index.js';
import { addDays } from '../src/domain/city-time.js';
import { ratio, writeResult } from './lib.js';
import { BENCH_START } from './prepare-world.js';
import { replayCache } from './replay-fixture.js';
import { replayFrameSteps } from './replay-frame.js';

const HALF_HOUR = 1_800_000;
/** Steps of time travel timed: a whole day, 10 days back, each against the live board read beside it. */
const STEPS = 48;
/** Rounds of the whole board's record and of the raw scan, interleaved; their medians are compared. */
const RECORD_ROUNDS = 9;
const EDGE_MIN = 0.08;

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round((sorted[Math.floor(sorted.length / 2)] ?? 0) * 1000) / 1000;
};

const p95 = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round((sorted[Math.ceil(sorted.length * 0.95) - 1] ?? 0) * 1000) / 1000;
};

function timed(work: () => void): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

/**
 * The bare read of the snapshot rows the board's record needs, what the record is measured against: of both venues,
 * the rows within the half hour before each whole hour 09:00-16:00 local of each settled city-day, one range of the
 * time index a distinct window, each row of a wanted city-day parsed from its JSON. No forecast, no running high, no
 * price, no edge: the rows alone. Returns how many it kept.
 */
function rawSnapshotScan(db: Database.Database, days: readonly RecordDay[]): number {
  // by window: the cities whose day has that hour, and their dates
  const wanted = new Map<number, Map<string, Set<string>>>();
  for (const d of days)
    for (const h of d.hours) {
      const cities = wanted.get(h.atMs) ?? new Map<string, Set<string>>();
      cities.set(d.city_id, (cities.get(d.city_id) ?? new Set()).add(d.local_date));
      wanted.set(h.atMs, cities);
    }
  let kept = 0;
  for (const venue of ['mkta', 'mktb']) {
    const table = `h_${venue}_buckets_history`;
    const rows = db.prepare(`SELECT city_id, json FROM ${table} INDEXED BY ${table}_t WHERE t > ? AND t <= ?`);
    for (const [at, cities] of wanted)
      for (const row of rows.iterate(at - RECORD_QUOTE_WINDOW_MS, at) as Iterable<{ city_id: string; json: string }>) {
        // another city's row is passed over unparsed: only the wanted rows' JSON is read
        const dates = cities.get(row.city_id);
        if (dates?.has((JSON.parse(row.json) as { local_date: string }).local_date)) kept++;
      }
  }
  return kept;
}

/**
 * `npm run bench -- replay`, on the 30-day cache (the reference world synced with every historical table backfilled,
 * replay-fixture.ts). (1) One step of time travel: the board's reads and computation as of an instant of a day 10 days
 * back (that day pinned, as time travel shows it), against the live board's at the world's now, read alternately in
 * the same run (goal: the median step at most 1.5x the live read; the frame is phase B's). (2) The whole board's
 * record, 30 days x 13 cities x 8 hours from nothing kept, against the raw scan of the snapshot rows it needs (goal:
 * under 2 s and within 3x of the scan).
 */
export async function benchReplay(): Promise<object> {
  const dir = mkdtempSync(join(tmpdir(), 'replay-bench-'));
  const path = join(dir, 'world.db');
  const { built } = await replayCache(path);
  const cache = openCache(path, 'read');
  const raw = new Database(path, { readonly: true });
  try {
    const cities = cache.resources.cities();
    const day = addDays(new Date(BENCH_START).toISOString().slice(0, 10), -10);
    const dayStart = Date.parse(`${day}T00:00:00Z`);
    const step = (i: number) => {
      const at = dayStart + i * HALF_HOUR;
      return readBoard(cache, cities, at, {}, new Map(), { date: day, asOf: at });
    };
    const live = () => readBoard(cache, cities, BENCH_START, {}, new Map());
    // warm: the statements prepared, the pages the reads touch in the page cache
    for (let i = 0; i < 4; i++) {
      step(i);
      live();
    }
    const steps: number[] = [];
    const lives: number[] = [];
    for (let i = 0; i < STEPS; i++) {
      steps.push(timed(() => step(i)));
      lives.push(timed(() => live()));
    }

    // the same step with its frame: the monitor drawn by Ink, `→` against the live board's re-read a minute on
    const frames = await replayFrameSteps(cache, {
      startMs: dayStart,
      liveMs: BENCH_START,
      city: 'london',
      steps: STEPS,
    });

    // the Alerts pane while replaying: the trader rules run at each half hour of the pinned day up to the instant
    // (alerts/trader-alert-replay.ts), in slices in the background; opening it at 16:00 runs them all, each step after
    // runs one more a city. Its longest step is the longest the pane's read holds the event loop beyond a slice
    const chains = new ReplayChains();
    let longestStep = 0;
    const upTo = (hhmm: string) => () => {
      const at = { atMs: Date.parse(`${day}T${hhmm}:00Z`), date: day };
      const read = replayTraderAlerts(cache, cities, at, EDGE_MIN, {}, chains);
      for (;;) {
        const started = performance.now();
        const next = read.next();
        longestStep = Math.max(longestStep, performance.now() - started);
        if (next.done) return;
      }
    };
    const firstView = timed(upTo('16:00'));
    const ruleSteps = ['16:30', '17:00', '17:30', '18:00', '18:30'].map((hhmm) => timed(upTo(hhmm)));

    const days = cache.history.boardRecordDays({});
    let trades = 0;
    let rows = 0;
    const records: number[] = [];
    const scans: number[] = [];
    for (let r = 0; r < RECORD_ROUNDS; r++) {
      records.push(
        timed(() => {
          // from nothing kept: the days read and priced each round (readBoardRecord keeps them since issue 43)
          const priced = recordTrades(cache.history.boardRecordDays({}), { edgeMin: EDGE_MIN });
          trades = recordSummary(priced).all.n;
        }),
      );
      scans.push(
        timed(() => {
          rows = rawSnapshotScan(raw, days);
        }),
      );
    }
    const result = {
      what: 'time travel: one step of the board (reads and computation) as of a past instant vs the live board, and the same with the frame drawn by Ink (the key to the frame vs the live board re-read a minute on, to its frame; goal <= 1.5); the whole board record vs a raw scan of its snapshot rows (goal < 2 s and <= 3)',
      fixture_built_now: built,
      cities: cities.length,
      step: {
        day,
        steps: STEPS,
        step_median_ms: median(steps),
        live_median_ms: median(lives),
        ratio: ratio(median(steps), median(lives)),
      },
      step_with_frame: {
        terminal: '160x45',
        steps: STEPS,
        last_banner: frames.banner,
        step_median_ms: median(frames.step_frame_ms),
        live_median_ms: median(frames.live_frame_ms),
        step_p95_ms: p95(frames.step_frame_ms),
        live_p95_ms: p95(frames.live_frame_ms),
        ratio: ratio(median(frames.step_frame_ms), median(frames.live_frame_ms)),
      },
      trader_alerts: {
        what: 'the rules at every half hour of the pinned day, all cities: opening Alerts at 16:00 UTC (in slices in the background: the whole read, and its longest step, the longest it holds the event loop), then a step; vs the live board read',
        first_view_ms: Math.round(firstView),
        longest_block_ms: Math.round(longestStep * 10) / 10,
        step_median_ms: median(ruleSteps),
        step_ratio_to_live_board: ratio(median(ruleSteps), median(lives)),
      },
      record: {
        settled_days: days.length,
        // the daily scores reach back further than the snapshots: the days the venues quoted
        quoted_days: days.filter((d) => d.hours.some((h) => h.quotes.mkta.length + h.quotes.mktb.length > 0)).length,
        hours: days.reduce((n, d) => n + d.hours.length, 0),
        trades,
        snapshot_rows: rows,
        rounds_ms: records.map((ms) => Math.round(ms)),
        scan_rounds_ms: scans.map((ms) => Math.round(ms)),
        record_median_ms: median(records),
        scan_median_ms: median(scans),
        ratio: ratio(median(records), median(scans)),
      },
    };
    writeResult('replay', result);
    return result;
  } finally {
    raw.close();
    cache.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
