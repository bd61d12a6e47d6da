import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { type ServerChild, sleep, spawnServer } from './server-children.js';

const root = mkdtempSync(join(tmpdir(), 'svc-resume-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const KEY = 'resume-test-key-0123456789';
/** The first start's 30 days of history run from 2026-10-22T12:00Z (1,792,670,400,000) to this instant. */
const START = '2026-11-21T12:00:00Z';
const HISTORY_START_MS = 1_792_670_400_000;
const START_MS = 1_795_262_400_000;

/** How far the world in `server.db` has been applied, read beside the running server (WAL readers never block it). */
function processedUntil(file: string): number | undefined {
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const value = db.prepare("SELECT value FROM meta WHERE key = 'world_processed_until'").pluck().get();
      return value === undefined ? undefined : Number(value);
    } finally {
      db.close();
    }
  } catch {
    return undefined; // not created, or its tables not yet
  }
}

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

/**
 * Starts a first server on an empty data dir and kills it (SIGKILL) once its fill is a few days in. Resolves with
 * how far the store got: short of START_MS when the kill landed inside the fill; at START_MS when the fill ended
 * first (a starved test process can read the progress too late), which the caller takes as "try again".
 */
async function killDuringFill(dataDir: string): Promise<number> {
  const file = join(dataDir, 'server.db');
  const first = spawnServer(['--port', '0', '--data-dir', dataDir, '--seed', '1', '--start', START]);
  let listening = false;
  first.listening.then(
    () => {
      listening = true;
    },
    () => undefined, // killed before it listened: the usual end here
  );
  for (;;) {
    const processed = processedUntil(file);
    // a few days in: the history start is committed and the fill is under way; or it is over already
    if ((processed !== undefined && processed >= HISTORY_START_MS + 2 * 86_400_000) || listening) break;
    if (first.child.exitCode !== null) throw new Error(`the first server exited: ${first.output.stderr}`);
    await sleep(10);
  }
  first.child.kill('SIGKILL');
  expect(await first.exited).toBe('SIGKILL');
  return processedUntil(file) as number;
}

it('resumes a first 30-day fill killed half way to the instant it aimed at, in a private data dir', async () => {
  const dataDir = join(root, 'data', 'server');
  let reached = START_MS;
  for (let tries = 0; tries < 5 && reached >= START_MS; tries++) {
    rmSync(join(root, 'data'), { recursive: true, force: true });
    reached = await killDuringFill(dataDir);
  }
  expect(reached, 'the kill landed inside the fill in one of five tries').toBeLessThan(START_MS);
  expect(reached).toBeGreaterThanOrEqual(HISTORY_START_MS);

  // the operator starts it again as usual, without --start
  let second: ServerChild | undefined;
  try {
    second = spawnServer(['--port', '0', '--data-dir', dataDir, '--seed', '1', '--api-key', KEY]);
    const base = await second.listening;
    // printed just after the listening line
    while (!second.output.stderr.includes('world clock')) await sleep(20);
    expect(second.output.stderr).toMatch(/world clock 2026-11-21T12:00:0\dZ, x1, seed 1/);
    const get = async (path: string) =>
      (await (await fetch(`${base}${path}`, { headers: { 'x-api-key': KEY } })).json()) as { data: any[] };
    const newest = await get('/historical/metar_observations_history?limit=1');
    // the fill ran up to 12:00 (its 11:30 report the last), then the world runs on at x1 from 12:00:00: its 12:00
    // report is due at once, and whether its tick came before this request is the machine's load, not the resume
    expect(['2026-11-21T11:30:00Z', '2026-11-21T12:00:00Z']).toContain(newest.data[0].observed_at);
    const oldest = await get('/historical/metar_observations_history?until=2026-10-22T12:00:00Z&limit=100');
    expect(oldest.data.map((r) => r.observed_at)).toEqual(Array(13).fill('2026-10-22T12:00:00Z'));
    const brief = await get('/historical/market_brief_daily?limit=1');
    expect(brief.data[0].local_date).toBe('2026-11-21');

    // the data dir, the store and its WAL files are the operator's alone (the store holds webhook secrets)
    expect(mode(join(root, 'data'))).toBe('700');
    expect(mode(dataDir)).toBe('700');
    for (const name of ['server.db', 'server.db-wal', 'server.db-shm'])
      expect(mode(join(dataDir, name)), name).toBe('600');

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  } finally {
    if (second?.child.exitCode === null) second.child.kill('SIGKILL');
  }
});
