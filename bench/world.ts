import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { startService } from '../src/server/service.js';
import { type Db, openStore, storePath } from '../src/server/store/open-store.js';
import { ratio, writeResult } from './lib.js';
import { BENCH_KEY, BENCH_START } from './prepare-world.js';
import { type WorldEvent, type WorldFigures, worldFigures } from './world-figures.js';
import { recordFigure, syncedBoardRecord } from './world-record.js';
import { figuresTables } from './world-tables.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..');
const SEEDS = [1, 7] as const;
/** The fill commits in 6-hour slices: 120 over 30 days, and one for the 30 days of scores before them. */
const FILL_TRANSACTIONS = 121;

interface Fill {
  fill_ms: number;
  data_dir: string;
}

/** Fills a world with the code of a checkout (`root`) in a process of its own; see fixtures/fill-world.ts. */
function fill(root: string, seed: number): Promise<Fill> {
  const script = join(HERE, 'fixtures', 'fill-world.ts');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', script, root, String(seed), new Date(BENCH_START).toISOString()],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('close', (code) => {
      const line = out.match(/^ready (.*)$/m)?.[1];
      if (code !== 0 || !line) reject(new Error(`filling the world of ${root} exited ${code}`));
      else resolve(JSON.parse(line) as Fill);
    });
  });
}

/**
 * The limit: every row the fill wrote, read back, then inserted with prepared statements into an empty store of the
 * same schema and pragmas, in as many transactions as the fill commits. What the world adds on top of it is the
 * simulation itself.
 */
function rawInsert(dataDir: string): { rows: number; insert_ms: number } {
  const source = new Database(storePath(dataDir), { readonly: true });
  const tables = (
    source
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'meta'")
      .pluck()
      .all() as string[]
  ).map((name) => ({ name, rows: source.prepare(`SELECT * FROM ${name}`).raw().all() as unknown[][] }));
  source.close();
  const rows = tables.reduce((n, t) => n + t.rows.length, 0);
  const root = mkdtempSync(join(tmpdir(), 'svc-bench-raw-'));
  const target: Db = openStore(join(root, 'server'));
  const batch = Math.ceil(rows / FILL_TRANSACTIONS);
  const started = performance.now();
  for (const table of tables) {
    if (table.rows.length === 0) continue;
    const marks = (table.rows[0] as unknown[]).map(() => '?').join(', ');
    const insert = target.prepare(`INSERT INTO ${table.name} VALUES (${marks})`);
    const commit = target.transaction((chunk: unknown[][]) => {
      for (const row of chunk) insert.run(...row);
    });
    for (let i = 0; i < table.rows.length; i += batch) commit(table.rows.slice(i, i + batch));
  }
  const insertMs = performance.now() - started;
  target.close();
  rmSync(root, { recursive: true, force: true });
  return { rows, insert_ms: Math.round(insertMs) };
}

/** DESIGN 5's figures of a filled world, read through the API of a service over it (the record by a synced monitor). */
async function figuresOf(dataDir: string, seed: number): Promise<WorldFigures> {
  const service = await startService({
    dataDir,
    port: 0,
    seed,
    start: BENCH_START,
    speed: 1,
    apiKey: BENCH_KEY,
    rateLimitPerMinute: 1_000_000,
    tickMs: 3_600_000,
    logLevel: 'silent',
  });
  try {
    const get = async (path: string) => {
      const response = await fetch(`${service.baseUrl}${path}`, { headers: { 'x-api-key': BENCH_KEY } });
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
      return response.json();
    };
    const events = service.db
      .prepare("SELECT event_type, created_at FROM world_events WHERE event_type LIKE 'insurance.%'")
      .all() as WorldEvent[];
    return await worldFigures(get, events, recordFigure(await syncedBoardRecord(service.baseUrl, BENCH_KEY)));
  } finally {
    await service.close();
  }
}

/**
 * The first start's 30-day fill (seed 1) against inserting the same rows raw into SQLite, as a ratio in one run; with
 * `BENCH_WORLD_BASELINE=<a checkout of another commit>`, that commit's fill too, timed the same way in the same run
 * (DESIGN 6: a new world must not make the first start slower than 1.5 times the one before). Then DESIGN 5's figures
 * of seeds 1 and 7 and the board's best-edge distribution, as docs/world.md's tables.
 */
export async function benchWorld() {
  const baselineRoot = process.env.BENCH_WORLD_BASELINE;
  const baseline = baselineRoot ? await fill(baselineRoot, 1) : undefined;
  const first = await fill(ROOT, 1);
  const raw = rawInsert(first.data_dir);
  const baselineRaw = baseline ? rawInsert(baseline.data_dir) : undefined;
  const seeds: { seed: number; figures: WorldFigures }[] = [];
  for (const seed of SEEDS) {
    const dir = seed === 1 ? first : await fill(ROOT, seed);
    seeds.push({ seed, figures: await figuresOf(dir.data_dir, seed) });
    rmSync(dirname(dir.data_dir), { recursive: true, force: true });
  }
  if (baseline) rmSync(dirname(baseline.data_dir), { recursive: true, force: true });
  const table = figuresTables(seeds);
  console.log(table);
  const result = {
    seed: 1,
    rows: raw.rows,
    fill_ms: first.fill_ms,
    raw_insert_ms: raw.insert_ms,
    ratio: ratio(first.fill_ms, raw.insert_ms),
    baseline: baseline
      ? {
          root: baselineRoot,
          rows: baselineRaw?.rows,
          fill_ms: baseline.fill_ms,
          raw_insert_ms: baselineRaw?.insert_ms,
          fill_ratio_to_baseline: ratio(first.fill_ms, baseline.fill_ms),
        }
      : null,
    figures: seeds,
    table,
  };
  writeResult('world', result);
  return result;
}
