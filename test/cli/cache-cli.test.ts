import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache } from '../../src/cache/index.js';
import { fillTwentyDays } from '../cache/twenty-days.js';
import { PATIENCE_MS } from '../helpers/patience.js';
import { CLI, runCli } from './run-cli.js';

/**
 * `svc-monitor cache prune|backup|check` (DESIGN 3) on caches built by hand: twenty days (cache/twenty-days.ts) whose
 * service clock is 2026-11-25T12:12Z, so the cutoff of 14 days is 2026-11-11T12:12Z (retention-prune.test.ts works
 * out the rows by hand: 156 hours thinned).
 */
const root = mkdtempSync(join(tmpdir(), 'svc-cache-cli-'));
const env = { XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config'), HOME: root, SVC_DB: '' };
const NOW = Date.parse('2026-11-25T12:12:00Z');
const twenty = join(root, 'twenty.db');

beforeAll(() => {
  const cache = openCache(twenty);
  fillTwentyDays(cache);
  // the service's clock kept by the last sync: now is 2026-11-25T12:12Z (give or take the test's seconds)
  cache.streams.recordClockOffset(NOW - Date.now());
  cache.checkpoint();
  cache.close();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const cli = (...args: string[]) => runCli(args, env);

describe('cache prune', () => {
  it('thins the old days, says what per table and the space returned; the record and the board at whole hours stay', async () => {
    const at = ['2026-11-06T15:00:00Z', '2026-11-08T19:00:00Z', '2026-11-11T12:00:00Z'];
    const boards = () => Promise.all(at.map((t) => cli('export', 'board', '--at', t, '--db', twenty)));
    const boardsBefore = await boards();
    const recordBefore = await cli('export', 'board-record', '--db', twenty);
    expect(recordBefore.code, recordBefore.stderr).toBe(0);
    for (const b of boardsBefore) expect(b.code, b.stderr).toBe(0);
    const before = statSync(twenty).size;
    const pruned = await cli('cache', 'prune', '--db', twenty);
    expect(pruned.code, pruned.stderr).toBe(0);
    const lines = pruned.stdout.split('\n');
    expect(lines.slice(0, 11)).toEqual([
      // the service's clock, give or take the test's seconds
      expect.stringMatching(
        /^thinned to the hour: rows older than 2026-11-11T12:1\d:\d\dZ \(retention\.detail_days 14\)$/,
      ),
      '  mkta_buckets_history      936 rows', // 156 hours x 2 cities x 3 buckets
      '  mktb_buckets_history      936 rows',
      '  wxa_history               0 rows', // its :45 rows have no temperature: a series of their own
      '  wxb_history               312 rows', // 156 x 2 cities
      '  pws_observations_history  312 rows',
      '  forecast_history          312 rows', // 156 x 2 cities
      '  current                   936 rows', // 156 x 2 cities x 3 sources (METAR whole)
      '  forecasts                 624 rows', // 156 x 2 cities x 2 layers (model_tmax_range whole)
      '  total                     4,368 rows',
      expect.stringMatching(/^file \d+\.\d MB -> \d+\.\d MB \(\d+\.\d MB returned\)$/),
    ]);
    expect(statSync(twenty).size).toBeLessThan(before);
    const recordAfter = await cli('export', 'board-record', '--db', twenty);
    expect(recordAfter.stdout).toBe(recordBefore.stdout);
    expect(JSON.parse(recordAfter.stdout).length).toBeGreaterThan(20);
    expect((await boards()).map((b) => b.stdout)).toEqual(boardsBefore.map((b) => b.stdout));
    // a thinned cache keeps every invariant
    expect((await cli('cache', 'check', '--db', twenty)).stdout).toBe('ok\n');
    const again = await cli('cache', 'prune', '--db', twenty);
    expect(again.stdout).toContain('  total                     0 rows\n');
  });

  it('with retention.detail_days null keeps everything; a wrong value is exit 2 naming it', async () => {
    const home = join(root, 'keep');
    const config = join(home, 'config', 'svc-monitor');
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(config, { recursive: true });
    const homeEnv = { ...env, XDG_CONFIG_HOME: join(home, 'config') };
    writeFileSync(join(config, 'config.json'), '{"retention": {"detail_days": null}}', { mode: 0o600 });
    const kept = await runCli(['cache', 'prune', '--db', twenty], homeEnv);
    expect([kept.code, kept.stdout]).toEqual([
      0,
      'retention.detail_days is null: every row is kept, nothing thinned\n',
    ]);
    writeFileSync(join(config, 'config.json'), '{"retention": {"detail_days": 0}}', { mode: 0o600 });
    const wrong = await runCli(['cache', 'prune', '--db', twenty], homeEnv);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toBe(
      `svc-monitor: ${join(config, 'config.json')}: retention.detail_days must be a whole number of days from 1 to 3650, or null to keep everything\n`,
    );
  });
});

describe('cache check', () => {
  it('says ok of a sound cache, and names each broken invariant (exit 1)', async () => {
    const file = join(root, 'check.db');
    const cache = openCache(file);
    fillTwentyDays(cache);
    cache.close();
    const good = await cli('cache', 'check', '--db', file);
    expect([good.code, good.stdout, good.stderr]).toEqual([0, 'ok\n', '']);
    const raw = new Database(file);
    raw.exec(
      "INSERT INTO alerts (severity, kind, message, created_at, created_ms) VALUES ('info', 'bogus', 'x', 'x', 0)",
    );
    raw.exec('UPDATE h_mkta_buckets_history SET t = t + 1 WHERE rid = (SELECT max(rid) FROM h_mkta_buckets_history)');
    raw.close();
    const bad = await cli('cache', 'check', '--db', file);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
    const line = bad.stderr.trim();
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toContain(`svc-monitor: ${file} fails its check: `);
    expect(line).toContain('mkta_buckets_history: 1 row whose time is not its snapshot_at (row ');
    expect(line).toContain("alerts: 1 alert of an unknown kind 'bogus'");
  });
});

const DIST_CACHE = fileURLToPath(new URL('../../dist/cache/index.js', import.meta.url));

/**
 * A writer in another process: METAR rows of ids 1, 2, 3... each committed alone, its id printed once committed,
 * until it is stopped.
 */
const WRITER = `
const { openCache } = await import(${JSON.stringify(DIST_CACHE)});
const cache = openCache(process.argv[1]);
for (let id = 1; ; id++) {
  const at = new Date(Date.UTC(2026, 10, 1) + id * 60000).toISOString().slice(0, 19) + 'Z';
  cache.resources.upsertHistorical('metar_observations_history', [{ id, city_id: 'nyc', local_date: '2026-11-01',
    station_code: 'KLGA', observed_at: at, fetched_at: at, temp_c: 5, temp_f: 41, raw: 'METAR' }]);
  process.stdout.write(id + '\\n');
  await new Promise((r) => setImmediate(r));
}`;

describe('cache backup', () => {
  it('copies the cache while another process writes: the copy passes check and holds every row committed before', async () => {
    const file = join(root, 'busy.db');
    openCache(file).close();
    const writer = spawn(process.execPath, ['--input-type=module', '-e', WRITER, file], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    writer.stdout.on('data', (d) => {
      out += d;
    });
    const committed = () => Number(out.trim().split('\n').at(-1) ?? 0);
    const until = async (ok: () => boolean) => {
      const end = Date.now() + PATIENCE_MS;
      while (!ok()) {
        if (Date.now() > end) throw new Error(`writer at ${committed()}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    try {
      await until(() => committed() >= 50);
      const before = committed();
      const copy = join(root, 'copy.db');
      const backup = await cli('cache', 'backup', copy, '--db', file);
      expect(backup.code, backup.stderr).toBe(0);
      expect(backup.stdout).toMatch(new RegExp(`^backed up ${file} to ${copy} \\(\\d+\\.\\d MB\\)\\n$`));
      // the writer went on meanwhile: the copy was made beside it
      await until(() => committed() > before + 20);
      expect(statSync(copy).mode & 0o777).toBe(0o600);
      const check = await cli('cache', 'check', '--db', copy);
      expect([check.code, check.stdout, check.stderr]).toEqual([0, 'ok\n', '']);
      const raw = new Database(copy, { readonly: true });
      const held = raw.prepare('SELECT count(*) FROM h_metar_observations_history WHERE rid < 0 AND -rid <= ?');
      expect(held.pluck().get(before)).toBe(before);
      raw.close();
      const refused = await cli('cache', 'backup', copy, '--db', file);
      expect([refused.code, refused.stderr]).toEqual([
        2,
        'svc-monitor: FILE exists: a backup is made into a new file, never over one\n',
      ]);
    } finally {
      writer.kill('SIGTERM');
    }
  });

  it('a copy that cannot be written is named, not the cache: exit 1, nothing kept', async () => {
    // a file size limit of 1 to 2 MiB (ulimit -f 2048: blocks of 512 or 1,024 bytes) stands for a full disk: the twenty
    // days' cache is several MB, its -shm 32 KiB
    const copy = join(root, 'too-big.db');
    const child = spawn(
      'sh',
      ['-c', 'ulimit -f 2048 && exec "$@"', 'sh', process.execPath, CLI, 'cache', 'backup', copy, '--db', twenty],
      {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(code, stderr).toBe(1);
    // FILE as the usage names it (typed-values.ts), SQLite's word for the write refused, and never the cache's path
    expect(stderr).toMatch(
      /^svc-monitor: FILE could not be written \(.+\): nothing was kept, the cache is unchanged\n$/,
    );
    expect(existsSync(copy)).toBe(false);
    // the cache itself is sound
    const check = await cli('cache', 'check', '--db', twenty);
    expect([check.code, check.stdout]).toEqual([0, 'ok\n']);
  });
});
