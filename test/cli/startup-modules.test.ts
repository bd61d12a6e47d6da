import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache } from '../../src/cache/index.js';
import { startTui } from '../e2e/terminal.js';
import { HandCache, LONDON, NYC } from '../helpers/cache-builder.js';
import { configHomes } from '../helpers/config-home.js';
import { CLI, type CliResult } from './run-cli.js';

/**
 * Each command loads what it uses, and no more: the command line's own answers (`--version`, `--help`, every usage
 * error), `export` and the store's administration never load the reference service (Fastify), the TUI (Ink, React)
 * or, where no config file is checked, TypeBox. Each run records the modules its process loaded
 * (fixtures/record-modules.mjs).
 */
const RECORDER = fileURLToPath(new URL('./fixtures/record-modules.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'svc-startup-'));
const env = { XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config'), HOME: root };
const db = join(root, 'cache.db');
let runs = 0;

beforeAll(() => {
  const cache = openCache(db);
  new HandCache(cache).cities(NYC, LONDON);
  cache.close();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Runs `node --import RECORDER ...args` in the repository; its result and the packages and files it loaded. */
function recorded(args: string[], home: NodeJS.ProcessEnv = env): Promise<CliResult & { loaded: string[] }> {
  const file = join(root, `modules-${++runs}.txt`);
  const child = spawn(process.execPath, ['--import', RECORDER, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...home, RECORD_MODULES: file },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d) => {
    out.stdout += d;
  });
  child.stderr.on('data', (d) => {
    out.stderr += d;
  });
  return new Promise((resolve) =>
    child.on('close', (code) => {
      const loaded = readFileSync(file, 'utf8').split('\n').filter(Boolean);
      resolve({ code, ...out, loaded });
    }),
  );
}

/**
 * The packages among `loaded`, by name (`node_modules/@fastify/cors/index.js` is `@fastify/cors`), those the build
 * bundled into a chunk of ours included (`dist/cli/bundled-packages.json`, written by scripts/bundle-cli.mjs). TypeBox's
 * guard (seven small modules, what the config file's check written ahead of time calls) is `typebox/guard`: `typebox`
 * is the rest of it, the schemas, the compiler and the values (hundreds of modules).
 */
const BUNDLED: Record<string, string[]> = JSON.parse(
  readFileSync(join(ROOT, 'dist/cli/bundled-packages.json'), 'utf8'),
);
function packages(loaded: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const path of loaded) {
    const match = path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
    if (match?.[1]) names.add(path.includes('node_modules/typebox/build/guard/') ? 'typebox/guard' : match[1]);
    const ours = path.match(/\/dist\/(cli\/chunk-[^/]+\.js)$/);
    for (const name of (ours?.[1] && BUNDLED[ours[1]]) || []) names.add(name);
  }
  return names;
}

const SERVICE_AND_SCREEN = ['fastify', '@fastify/cors', 'ink', 'react', 'yoga-layout'];
const WITH_TYPEBOX = [...SERVICE_AND_SCREEN, 'typebox'];

describe('the recorder', () => {
  it('sees Fastify, Ink and React when a process loads them (what the tests below find absent)', async () => {
    const run = await recorded([
      '--input-type=module',
      '-e',
      "await import('fastify'); await import('@fastify/cors'); await import('ink'); await import('typebox')",
    ]);
    expect(run.code, run.stderr).toBe(0);
    const loaded = packages(run.loaded);
    for (const name of WITH_TYPEBOX) expect(loaded.has(name), name).toBe(true);
  });
});

describe('what a command loads', () => {
  it('--version, --help and a command’s --help: commander and the declarations, nothing of the service, the screen or TypeBox', async () => {
    for (const args of [['--version'], ['--help'], ['export', '--help'], ['server', 'webhooks', 'add', '--help']]) {
      const run = await recorded([CLI, ...args]);
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.stdout, args.join(' ')).toMatch(args[0] === '--version' ? /^0\.1\.0\n$/ : /^Usage: svc-monitor/);
      const loaded = packages(run.loaded);
      expect(loaded.has('commander')).toBe(true);
      expect(
        WITH_TYPEBOX.filter((name) => loaded.has(name)),
        args.join(' '),
      ).toEqual([]);
      expect(loaded.has('better-sqlite3'), args.join(' ')).toBe(false);
    }
  });

  it('every usage error: one line, exit 2, and none of the service, the screen or TypeBox', async () => {
    const usage: [string[], RegExp][] = [
      [['synx'], /unknown command 'synx'/],
      [['sync', '--bogus'], /unknown option '--bogus'/],
      [['listen', '--port', 'x'], /option '--port <n>' is invalid/],
      [['monitor', '--listen', 'x'], /option '--listen <port>' is invalid/],
      [['monitor', '--demo', '--offline'], /--demo and --offline exclude each other/],
      [['monitor'], /the monitor needs a terminal/],
      [['server', '--port', '70000'], /option '--port <n>' is invalid/],
      [['server', 'keys', 'revoke'], /missing required argument 'id'/],
      [['export'], /missing required argument 'name'/],
      [['export', 'cities', '--format', 'xml', '--db', db], /--format must be one of json, ndjson, csv/],
      [['export', 'cities', '--since', 'yesterday', '--db', db], /option '--since <date>' is invalid/],
      [['export', 'alerts', '--at', '2026-11-20T10:00Z', '--db', db], /--at applies to board only/],
    ];
    for (const [args, message] of usage) {
      const run = await recorded([CLI, ...args]);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(run.stderr, args.join(' ')).toMatch(message);
      const loaded = packages(run.loaded);
      expect(
        WITH_TYPEBOX.filter((name) => loaded.has(name)),
        args.join(' '),
      ).toEqual([]);
    }
  });

  it('export on a filled cache, and a name it does not know: the cache, without the service, the screen or TypeBox', async () => {
    const run = await recorded([CLI, 'export', 'cities', '--db', db, '--format', 'ndjson']);
    expect(run.code, run.stderr).toBe(0);
    expect(
      run.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).city_id),
    ).toEqual(['london', 'nyc']);
    const loaded = packages(run.loaded);
    expect(loaded.has('better-sqlite3')).toBe(true);
    expect(WITH_TYPEBOX.filter((name) => loaded.has(name))).toEqual([]);

    const unknown = await recorded([CLI, 'export', 'nonsense', '--db', db]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^svc-monitor: unknown export name 'nonsense'; valid names: cities, /);
    expect(WITH_TYPEBOX.filter((name) => packages(unknown.loaded).has(name))).toEqual([]);
  });

  it('export with a config file: checked by the check written ahead of time, TypeBox only to say what is wrong', async () => {
    const home = configHomes(root);
    const good = home({ base_url: 'https://svc.example/api/public/v1', api_key: 'k'.repeat(24), history_hours: 48 });
    const run = await recorded([CLI, 'export', 'cities', '--db', db, '--format', 'ndjson'], good.env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(2);
    expect(WITH_TYPEBOX.filter((name) => packages(run.loaded).has(name))).toEqual([]);
    // the guard's modules are bundled into a chunk of ours: seen through dist/cli/bundled-packages.json
    expect(packages(run.loaded).has('typebox/guard')).toBe(true);

    const wrong = home({ history_hours: 0 });
    const refused = await recorded([CLI, 'export', 'cities', '--db', db], wrong.env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `svc-monitor: ${wrong.file}: history_hours must be a whole number of hours from 1 to 720\n`,
    );
    expect(packages(refused.loaded).has('typebox')).toBe(true);
  });

  it('sync and listen refuse a config file before loading what they run: no HTTP client, no cache, no listener', async () => {
    const home = configHomes(root);
    const wrong = home({ history_hours: 0 });
    const key = ['--base-url', 'http://127.0.0.1:9/api/public/v1', '--api-key', 'k'.repeat(24)];
    for (const args of [
      [CLI, 'sync', '--once', ...key],
      [CLI, 'listen', '--secret', 's'.repeat(24)],
    ]) {
      const refused = await recorded(args, wrong.env);
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toBe(
        `svc-monitor: ${wrong.file}: history_hours must be a whole number of hours from 1 to 720\n`,
      );
      const loaded = packages(refused.loaded);
      expect(
        ['undici', 'better-sqlite3', 'node-notifier', ...SERVICE_AND_SCREEN].filter((name) => loaded.has(name)),
        args[1],
      ).toEqual([]);
    }
  });

  it('status --offline: the cache, never the HTTP client, TypeBox, the service or the screen; status asks through undici', async () => {
    // nothing listens on port 9 (discard): asked, the service is unreachable (exit 4); offline, the streams of this
    // cache never synced (exit 1)
    const service = { ...env, SVC_BASE_URL: 'http://127.0.0.1:9', SVC_API_KEY: 'k'.repeat(24) };
    const offline = await recorded([CLI, 'status', '--offline', '--db', db], service);
    expect(offline.code, offline.stderr).toBe(1);
    const loaded = packages(offline.loaded);
    expect(loaded.has('better-sqlite3')).toBe(true);
    expect(['undici', ...WITH_TYPEBOX].filter((name) => loaded.has(name))).toEqual([]);
    const asked = await recorded([CLI, 'status', '--db', db], service);
    expect(asked.code, asked.stderr).toBe(4);
    expect(packages(asked.loaded).has('undici')).toBe(true);
  });

  it('server keys and server webhooks: the store, never the service or the screen', async () => {
    const dir = join(root, 'server');
    const runs = [
      [CLI, 'server', 'keys', 'create', '--label', 'startup', '--data-dir', dir],
      [CLI, 'server', 'keys', 'list', '--data-dir', dir],
      [CLI, 'server', 'webhooks', 'add', 'http://127.0.0.1:9/in', '--allow-private', '--data-dir', dir],
      [CLI, 'server', 'webhooks', 'list', '--data-dir', dir],
    ];
    for (const args of runs) {
      const run = await recorded(args);
      expect(run.code, `${args.slice(1).join(' ')}: ${run.stderr}`).toBe(0);
      const loaded = packages(run.loaded);
      expect(loaded.has('better-sqlite3')).toBe(true);
      expect(
        SERVICE_AND_SCREEN.filter((name) => loaded.has(name)),
        args.slice(1).join(' '),
      ).toEqual([]);
    }
  });
});

describe("the monitor's screen", () => {
  it('offline: Ink and React, but not TypeBox, undici or Fastify (what checks and fetches is the session thread’s)', async () => {
    const file = join(root, 'modules-monitor.txt');
    const tui = startTui(['monitor', '--offline', '--db', db, '--no-notify'], {
      ...env,
      NODE_OPTIONS: `--import ${RECORDER}`,
      RECORD_MODULES: file,
    });
    await tui.waitFor('[1 Board]');
    await tui.waitFor('OFFLINE');
    tui.press('q');
    expect((await tui.exited).exitCode).toBe(0);
    const loaded = packages(readFileSync(file, 'utf8').split('\n').filter(Boolean));
    expect(['ink', 'react', 'better-sqlite3'].filter((name) => loaded.has(name))).toEqual([
      'ink',
      'react',
      'better-sqlite3',
    ]);
    expect(['typebox', 'undici', 'fastify'].filter((name) => loaded.has(name))).toEqual([]);
  });
});
