import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildYear, type YearBuild } from './fixtures/year-cache.js';
import { distDir, offlineMonitor, paneKeys, pinClock, timedCli, timedRead } from './fixtures/year-measure.js';
import { warmSyncs } from './fixtures/year-sync.js';
import { yearCities } from './fixtures/year-weather.js';
import { ratio, writeResult } from './lib.js';
import { BENCH_START } from './prepare-world.js';
import { quantile } from './tui-render.js';

/** The caches end where the TUI bench's clock stands (tui-render.ts's NOW): the keys' run reads them at that instant. */
const END_MS = BENCH_START + 6 * 3_600_000;
const DAYS = Number(process.env.YEAR_DAYS ?? 365);
const CITIES = Number(process.env.YEAR_CITIES ?? 40);
const SHORT_DAYS = Number(process.env.YEAR_SHORT_DAYS ?? 30);
/** Starts of the offline monitor a cache (first frame and History's summaries: their median). */
const STARTS = Number(process.env.YEAR_STARTS ?? 3);
/** Rounds of every pane's keys a cache (tui-render.ts's KEYS). */
const ROUNDS = Number(process.env.YEAR_ROUNDS ?? 2);
/** `retention.detail_days`'s default (src/domain/retention.ts). */
const DETAIL_DAYS = 14;
/** Issue 43's goals. */
const GOAL = { ratio: 1.2, recordMs: 3_000, thinnedBytes: 1024 ** 3 } as const;

const size = (file: string) =>
  ['', '-wal'].reduce((n, s) => n + (existsSync(file + s) ? statSync(file + s).size : 0), 0);
const median = (values: number[]) => quantile(values, 0.5);

/** The reads of one cache timed once each: the record and the calibration first, then the commands. */
async function onceReads(file: string) {
  pinClock(file, END_MS);
  // the record and the calibration before anything else read them: the first is what a cache new to them costs
  const recordFirst = await timedRead(file, 'record');
  const recordAgain = await timedRead(file, 'record');
  const calibrationFirst = await timedRead(file, 'calibration');
  const calibrationAgain = await timedRead(file, 'calibration');
  const at = new Date(END_MS).toISOString();
  const board = await timedCli(['export', 'board', '--at', at, '--db', file]);
  const record = await timedCli(['export', 'board-record', '--db', file]);
  const status = existsSync(join(distDir(), 'cli/commands/status.js'))
    ? await timedCli(['status', '--offline', '--db', file])
    : null;
  return {
    bytes: size(file),
    record_first_ms: recordFirst.ms,
    record_ms: recordAgain.ms,
    record_positions: recordAgain.positions,
    calibration_first_ms: calibrationFirst.ms,
    calibration_ms: calibrationAgain.ms,
    export_board_at_ms: board.ms,
    export_board_record_ms: record.ms,
    status_ms: status?.ms ?? null,
  };
}

/**
 * Every read the issue names on each cache: those timed once, then the monitor's starts (first frame, History's
 * summaries) and the keys' rounds interleaved between the caches, so a shared machine's load meets them alike; a
 * pane's figure is the median of its rounds' p95.
 */
async function reads(files: Record<string, string>, logDir: string) {
  const once: Record<string, Awaited<ReturnType<typeof onceReads>>> = {};
  for (const [name, file] of Object.entries(files)) once[name] = await onceReads(file);
  const names = Object.keys(files);
  const starts = Object.fromEntries(names.map((n) => [n, [] as Awaited<ReturnType<typeof offlineMonitor>>[]]));
  const keys = Object.fromEntries(names.map((n) => [n, [] as Awaited<ReturnType<typeof paneKeys>>[]]));
  for (let i = 0; i < STARTS; i++)
    for (const [name, file] of Object.entries(files)) starts[name]?.push(await offlineMonitor(file, true));
  for (let r = 0; r < ROUNDS; r++)
    for (const [name, file] of Object.entries(files))
      keys[name]?.push(await paneKeys(file, join(logDir, `${name}-keys-${r}.json`)));
  const out: Record<string, Reads> = {};
  for (const name of Object.keys(files)) {
    const own = keys[name] ?? [];
    out[name] = {
      ...(once[name] as Awaited<ReturnType<typeof onceReads>>),
      first_frame_ms: median((starts[name] ?? []).map((s) => s.first_frame_ms)),
      summaries_ms: median((starts[name] ?? []).map((s) => s.summaries_ms ?? Number.NaN)),
      keys_p95_ms: Object.fromEntries(
        Object.keys(own[0] ?? {}).map((pane) => [
          pane,
          median(own.map((k) => (k as Record<string, number>)[pane] ?? 0)),
        ]),
      ),
    };
  }
  return out;
}
interface Reads extends Awaited<ReturnType<typeof onceReads>> {
  first_frame_ms: number;
  summaries_ms: number;
  keys_p95_ms: Record<string, number>;
}

/** Each figure of `b` over the same of `a` (keys pane by pane). */
function ratios(a: Reads, b: Reads) {
  const of = (x: number | null, y: number | null) => (x === null || y === null || x === 0 ? null : ratio(y, x));
  return {
    first_frame: of(a.first_frame_ms, b.first_frame_ms),
    summaries: of(a.summaries_ms, b.summaries_ms),
    keys_p95: Object.fromEntries(
      Object.entries(a.keys_p95_ms).map(([pane, ms]) => [
        pane,
        of(ms, (b.keys_p95_ms as Record<string, number>)[pane] ?? null),
      ]),
    ),
    record: of(a.record_ms, b.record_ms),
    record_first: of(a.record_first_ms, b.record_first_ms),
    calibration: of(a.calibration_ms, b.calibration_ms),
    export_board_at: of(a.export_board_at_ms, b.export_board_at_ms),
    export_board_record: of(a.export_board_record_ms, b.export_board_record_ms),
    status: of(a.status_ms, b.status_ms),
  };
}

/** `cache prune` on the whole year with the default retention, if this build has it (the function src/cache exports). */
async function prune(file: string) {
  const cacheModule = (await import('../src/cache/index.js')) as Record<string, unknown>;
  const pruneCache = cacheModule.pruneCache as
    | ((
        cache: unknown,
        o: { nowMs: number; detailDays: number },
      ) => Promise<{ bytesBefore: number; bytesAfter: number }>)
    | undefined;
  if (!pruneCache) return null;
  const { openCache } = await import('../src/cache/index.js');
  const cache = openCache(file);
  const started = performance.now();
  const report = await pruneCache(cache, { nowMs: END_MS, detailDays: DETAIL_DAYS });
  const ms = Math.round(performance.now() - started);
  cache.close();
  return { ms, bytes_before: report.bytesBefore, bytes_after: size(file), report };
}

/**
 * `npm run bench -- year` (issue 43): a year of history for 40 cities at the service's cadence, written straight into
 * a cache through its repositories (fixtures/year-cache.ts), its last 30 days into another in the same pass; every
 * read the trader meets on both, the year's as a ratio of the 30 days'; a warm `sync` pass on each; `cache prune` on
 * the year and the same reads on the thinned file. YEAR_DAYS, YEAR_CITIES shrink it; YEAR_KEEP=1 keeps the files.
 */
export async function benchYear(): Promise<object> {
  const dir = process.env.YEAR_DIR ?? mkdtempSync(join(tmpdir(), 'svc-year-'));
  const files = { short: join(dir, 'short.db'), year: join(dir, 'year.db') };
  const log = (line: string) => process.stderr.write(`year: ${new Date().toISOString().slice(11, 19)} ${line}\n`);
  // the build measured, copied now: a long run outlives other builds of this checkout (git and biome ignore dist/)
  if (!process.env.YEAR_DIST) {
    const copy = fileURLToPath(new URL('./.year/dist/', import.meta.url));
    rmSync(copy, { recursive: true, force: true });
    cpSync(fileURLToPath(new URL('../dist/', import.meta.url)), copy, { recursive: true });
    process.env.YEAR_DIST = copy;
  }
  process.env.TUI_BENCH_DIST = process.env.YEAR_DIST;
  try {
    const built = join(dir, 'build.json');
    let build: YearBuild;
    if (existsSync(built)) {
      // YEAR_DIR=a kept run's folder: its caches as they were left (a run cut short keeps them)
      build = JSON.parse(readFileSync(built, 'utf8')) as YearBuild;
      log(`reusing the caches of ${dir}`);
    } else {
      log(`building ${DAYS} days of ${CITIES} cities in ${dir}`);
      build = buildYear(files.year, files.short, yearCities(CITIES), {
        endMs: END_MS,
        days: DAYS,
        shortDays: SHORT_DAYS,
        onDay: (d) => d % 30 === 0 && log(`day ${d}`),
      });
      writeFileSync(built, JSON.stringify(build));
    }
    log(`built in ${build.build_ms} ms; reading both`);
    const both = await reads(files, dir);
    const short = both.short as Reads;
    const year = both.year as Reads;
    log(`30 days: ${JSON.stringify(short)}`);
    log(`year: ${JSON.stringify(year)}`);
    log('pruning the year');
    const pruned = await prune(files.year);
    log(`prune: ${JSON.stringify(pruned)}`);
    const thinned = pruned ? ((await reads({ thinned: files.year }, dir)).thinned as Reads) : null;
    log(`thinned: ${JSON.stringify(thinned)}`);
    // last, as it writes the service's cities into both: the year as it is now (thinned when prune ran)
    log('warm sync passes');
    const sync = await warmSyncs(files);
    log(`sync: ${JSON.stringify(sync)}`);
    const passMs = (s: { pass_ms: number[] } | undefined) => (s ? Math.min(...s.pass_ms) : null);
    const yearRatios = ratios(short, year);
    const keysWithin = Object.values(yearRatios.keys_p95).every((r) => r !== null && r <= GOAL.ratio);
    const result = {
      what: `${DAYS} days of ${CITIES} cities at the service's cadence (every half hour: both venues' 11 buckets, METAR and three observation tables, the desk's history, /current, /forecasts; each settled day its daily tables, records, a lock, a pick), against its last ${SHORT_DAYS} days, in one run`,
      build: { ...build, bytes: { year: year.bytes, short: short.bytes } },
      bytes_a_day: {
        unthinned: Math.round(year.bytes / DAYS),
        thinned: pruned ? Math.round(pruned.bytes_after / DAYS) : null,
      },
      short,
      year,
      year_over_short: yearRatios,
      sync: { ...sync, ratio: ratio(passMs(sync.year) ?? 0, passMs(sync.short) ?? 1) },
      prune: pruned,
      thinned,
      thinned_over_year: thinned ? ratios(year, thinned) : null,
      goals: {
        first_frame_within_1_2x: (yearRatios.first_frame ?? Number.POSITIVE_INFINITY) <= GOAL.ratio,
        keys_p95_within_1_2x: keysWithin,
        record_under_3_s: year.record_ms < GOAL.recordMs,
        calibration_under_3_s: year.calibration_ms < GOAL.recordMs,
        thinned_under_1_gb: pruned ? pruned.bytes_after < GOAL.thinnedBytes : null,
        no_read_slower_thinned: thinned ? slowerReads(year, thinned).length === 0 : null,
        slower_thinned: thinned ? slowerReads(year, thinned) : null,
      },
    };
    writeResult('year', result);
    process.stdout.write(`${table(result)}\n`);
    if (process.env.YEAR_KEEP === '1') log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
    return result;
  } catch (error) {
    // a run cut short keeps its caches: YEAR_DIR=that folder reads them again without building
    log(`failed; kept ${dir}`);
    throw error;
  }
}

/** The reads slower on the thinned year than on the unthinned one, beyond a tenth (the noise of a shared machine). */
function slowerReads(year: Reads, thinned: Reads): string[] {
  const r = ratios(year, thinned);
  const flat: [string, number | null][] = [
    ...Object.entries(r).filter((e): e is [string, number | null] => typeof e[1] !== 'object' || e[1] === null),
    ...Object.entries(r.keys_p95).map(([pane, v]): [string, number | null] => [`keys ${pane}`, v]),
  ];
  return flat.filter(([, v]) => v !== null && v > 1.1).map(([k, v]) => `${k} ${v}`);
}

/** The markdown table of docs/benchmarks.md. */
function table(r: { short: Reads; year: Reads; thinned: Reads | null }): string {
  const rows: [string, (x: Reads) => number | null][] = [
    ['first board frame, offline (median of starts)', (x) => x.first_frame_ms],
    ...Object.keys(r.short.keys_p95_ms).map((pane): [string, (x: Reads) => number | null] => [
      `key p95, ${pane}`,
      (x) => (x.keys_p95_ms as Record<string, number>)[pane] ?? null,
    ]),
    ["History's summaries (`s`)", (x) => x.summaries_ms],
    ["the board's record, first read", (x) => x.record_first_ms],
    ["the board's record", (x) => x.record_ms],
    ['calibration', (x) => x.calibration_ms],
    ['`export board --at`', (x) => x.export_board_at_ms],
    ['`export board-record`', (x) => x.export_board_record_ms],
    ['`status --offline`', (x) => x.status_ms],
  ];
  const cell = (v: number | null) => (v === null || Number.isNaN(v) ? '-' : String(Math.round(v * 10) / 10));
  const rel = (a: number | null, b: number | null) => (a && b !== null ? `${ratio(b, a)}x` : '-');
  const lines = [
    `| ms | ${SHORT_DAYS} days | year | year / ${SHORT_DAYS} days | thinned year | thinned / year |`,
    '|---|---|---|---|---|---|',
  ];
  for (const [label, of] of rows) {
    const [a, b, c] = [of(r.short), of(r.year), r.thinned ? of(r.thinned) : null];
    lines.push(`| ${label} | ${cell(a)} | ${cell(b)} | ${rel(a, b)} | ${cell(c)} | ${rel(b, c)} |`);
  }
  return lines.join('\n');
}
