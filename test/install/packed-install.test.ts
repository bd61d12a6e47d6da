import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openCache } from '../../src/cache/index.js';
import { City } from '../../src/contract/cities.js';
import { startTui, type TuiProcess } from '../e2e/terminal.js';
import { checked, HandCache } from '../helpers/cache-builder.js';
import { PATIENCE_MS } from '../helpers/patience.js';

/** semver has no types of its own here: the two functions this test uses. */
const semver = createRequire(import.meta.url)('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  engines: { node: string };
};
const root = mkdtempSync(join(tmpdir(), 'svc-packed-'));
const running: TuiProcess[] = [];
afterAll(() => {
  for (const tui of running) tui.kill();
  rmSync(root, { recursive: true, force: true });
});

/** npm's own script, run by this test's Node: under a second Node's pass the install builds for that Node. */
function npmCli(): string {
  const execpath = process.env.npm_execpath;
  if (execpath?.endsWith('npm-cli.js')) return execpath;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (existsSync(join(dir, 'npm'))) return realpathSync(join(dir, 'npm'));
  }
  throw new Error('no npm on PATH');
}

/** A fresh home: nothing of an earlier run of the monitor, nor of the machine's user, is in it. */
const home = join(root, 'home');
const FRESH_HOME = {
  HOME: home,
  XDG_CONFIG_HOME: join(home, '.config'),
  XDG_DATA_HOME: join(home, '.local', 'share'),
  XDG_CACHE_HOME: join(home, '.cache'),
};

/**
 * The environment with this test's Node first on PATH, a fresh home, and the monitor's own variables (SVC_*) empty,
 * which counts as unset (docs/operating.md): no key, so the monitor runs the demo.
 */
function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const unset = Object.keys(process.env).filter((name) => name.startsWith('SVC_'));
  return {
    ...process.env,
    ...Object.fromEntries(unset.map((name) => [name, ''])),
    SVC_API_KEY: '',
    PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH}`,
    ...FRESH_HOME,
    ...extra,
  };
}

/** A program run to its end: its stdout, both streams together, and its exit code. */
function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv },
): Promise<{ code: number | null; stdout: string; output: string }> {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { stdout: '', output: '' };
  child.stdout.on('data', (d) => {
    out.stdout += d;
    out.output += d;
  });
  child.stderr.on('data', (d) => {
    out.output += d;
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, ...out })));
}

const QUIET = { npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
const npm = (args: string[], cwd: string, env: NodeJS.ProcessEnv = { ...process.env, ...QUIET }) =>
  run(process.execPath, [npmCli(), ...args], { cwd, env });

/** Every package.json under `dir`'s node_modules, nested ones too. */
function installed(dir: string): { path: string; name: string; version: string; engines?: { node?: string } }[] {
  const out: ReturnType<typeof installed> = [];
  const modules = join(dir, 'node_modules');
  if (!existsSync(modules)) return out;
  for (const entry of readdirSync(modules)) {
    const names = entry.startsWith('@') ? readdirSync(join(modules, entry)).map((n) => `${entry}/${n}`) : [entry];
    for (const name of names) {
      const path = join(modules, name);
      const manifest = join(path, 'package.json');
      if (!existsSync(manifest)) continue;
      out.push({ path, ...JSON.parse(readFileSync(manifest, 'utf8')) }, ...installed(path));
    }
  }
  return out;
}

/**
 * What the built CLI loads of its own files: the three entries (the CLI and the two workers it starts by path,
 * src/cli/worker-module.ts) and every module they import, statically or by a literal dynamic import, transitively.
 */
function modulesLoaded(): string[] {
  const seen = new Set<string>();
  const queue = ['dist/cli.js', 'dist/cli/session/worker.js', 'dist/cli/demo-world.js'];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(join(ROOT, file), 'utf8');
    for (const [, spec] of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.\.?\/[^"']+)["']/g))
      queue.push(posix.join(posix.dirname(file), spec as string));
  }
  return [...seen].sort();
}

let tarball = '';
let files: string[] = [];
/** npm's own settings stay the installer's (a user's npm config: registry, nodedir for native builds; its cache). */
let npmSettings: { userconfig: string; cache: string };

beforeAll(async () => {
  // the tarball a user gets: `dist` as `npm run build` left it (the test tiers build first), no `prepack` again
  const packed = await npm(['pack', '--json', '--ignore-scripts', '--pack-destination', root], ROOT);
  expect(packed.code, packed.output).toBe(0);
  const [manifest] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  tarball = join(root, manifest?.filename as string);
  files = (manifest?.files ?? []).map((f) => f.path).sort();
  const config = await npm(['config', 'get', 'userconfig', 'cache'], root);
  expect(config.code, config.output).toBe(0);
  // `userconfig=/home/u/.npmrc`, a line a key
  npmSettings = Object.fromEntries([...config.stdout.matchAll(/^(\w+)=(.*)$/gm)].map((m) => [m[1], m[2]]));
  expect(Object.keys(npmSettings).sort()).toEqual(['cache', 'userconfig']);
  mkdirSync(join(FRESH_HOME.XDG_DATA_HOME, 'svc-monitor'), { recursive: true, mode: 0o700 });
});

describe('the packed package', () => {
  it('holds what a user runs and reads, and no tests, benchmarks, scripts or sources', () => {
    for (const file of [
      'LICENSE',
      'README.md',
      'package.json',
      'dist/cli.js',
      'dist/cli/session/worker.js',
      'dist/cli/demo-world.js',
      'assets/board.svg',
      'assets/cities.json',
      'docs/operating.md',
      'docs/systemd/svc-monitor-listen.service',
      'docs/systemd/svc-monitor-sync.service',
    ])
      expect(files).toContain(file);
    for (const doc of readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')))
      expect(files).toContain(`docs/${doc}`);
    // CONTRIBUTING.md too: the README links it
    expect(files.filter((f) => !f.includes('/'))).toEqual(['CONTRIBUTING.md', 'LICENSE', 'README.md', 'package.json']);
    expect(files.filter((f) => /^(test|bench|scripts|src|\.ci|lint)\//.test(f))).toEqual([]);
    // of dist only what runs: the bundle's entries and chunks (scripts/bundle-cli.mjs), not tsc's per-module output
    // the benches import, nor source maps
    const chunk = /^dist\/cli\/chunk-\w+\.js$/;
    expect(files.filter((f) => f.startsWith('dist/') && !chunk.test(f))).toEqual([
      'dist/cli.js',
      'dist/cli/demo-world.js',
      'dist/cli/session/worker.js',
    ]);
    expect(files.filter((f) => chunk.test(f)).length).toBeGreaterThan(0);
    // and everything the entries load is in it, for the commands the install below does not run too
    const loaded = modulesLoaded();
    expect(loaded.length).toBeGreaterThan(3);
    expect(loaded.filter((f) => !files.includes(f))).toEqual([]);
  });

  /**
   * What someone who installs the package gets: a global install of the tarball, as the README says, into a fresh
   * prefix and home, better-sqlite3 built by its install script as theirs is. The project's own `overrides` never
   * reach them (npm reads only the root's), so the versions its dependencies ask for must hold on the Node it
   * promises: no EBADENGINE (cookie 2 wants Node 22; light-my-request 6.8, fastify's, asks for it). Uses the registry
   * (or npm's cache), as any install does. Then the installed bin, not this repository's dist/: `--version`, an
   * export of a cache made by hand, and the demo's first board in a pseudo-terminal.
   */
  it('installs globally without an engine warning, builds SQLite, and runs --version, an export and the demo', async () => {
    const prefix = join(root, 'global');
    // a user's global prefix has its lib/ (the first global install made it); npm 11.19 under --strict-allow-scripts
    // reads PREFIX/lib before it would make it, and a prefix without one fails with ENOENT (tried: is-number too)
    mkdirSync(join(prefix, 'lib'), { recursive: true });
    const install = await npm(
      // --loglevel: npm's warnings (an engine refused, a script not approved) whatever the user's config says
      [
        'install',
        '--global',
        '--prefix',
        prefix,
        '--prefer-offline',
        '--loglevel=warn',
        '--allow-scripts=better-sqlite3',
        // npm's coming default: an install script nobody approved fails the install
        '--strict-allow-scripts',
        tarball,
      ],
      root,
      userEnv({ ...QUIET, npm_config_userconfig: npmSettings.userconfig, npm_config_cache: npmSettings.cache }),
    );
    expect(install.code, install.output).toBe(0);
    expect(install.output).not.toMatch(/EBADENGINE|Unsupported engine/);
    // better-sqlite3 is the one dependency with an install script, so the README's flag covers every one, and the
    // package has none of its own (it builds on `prepack`, not `prepare`, which npm lists for a tarball)
    const unreviewed = [...install.output.matchAll(/^npm warn install-scripts\s+(\S+@\S+) \(/gm)].map((m) => m[1]);
    expect(unreviewed).toEqual([]);

    const app = join(prefix, 'lib', 'node_modules', 'svc-monitor');
    expect(existsSync(join(app, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'))).toBe(
      true,
    );
    const oldest = semver.minVersion(pkg.engines.node)?.version as string;
    const packages = installed(app);
    expect(packages.length).toBeGreaterThan(50);
    const refusing = packages
      .filter((p) => p.engines?.node !== undefined && !semver.satisfies(oldest, p.engines.node))
      .map((p) => `${p.name}@${p.version} wants node ${p.engines?.node}`);
    expect(refusing).toEqual([]);
    // cookie, wherever it is: a 1.x (2.x wants Node 22), and there is one (the account pages' sessions use it)
    const cookies = packages.filter((p) => p.name === 'cookie').map((p) => p.version);
    expect(cookies.length).toBeGreaterThan(0);
    expect(cookies.filter((v) => !semver.satisfies(v, '1'))).toEqual([]);

    // the bin as a shell runs it: its `#!/usr/bin/env node` finds this test's Node first on PATH
    const bin = join(prefix, 'bin', 'svc-monitor');
    const version = await run(bin, ['--version'], { env: userEnv() });
    expect([version.code, version.output]).toEqual([0, `${pkg.version}\n`]);

    // the default cache of the fresh home (<XDG_DATA_HOME>/svc-monitor/cache.db), two cities written by hand
    const cache = openCache(join(FRESH_HOME.XDG_DATA_HOME, 'svc-monitor', 'cache.db'));
    new HandCache(cache).cities(
      checked(
        City,
        {
          city_id: 'wellington',
          city_name: 'Wellington',
          country: 'NZ',
          lat: -41.3272,
          lon: 174.8053,
          tz: 'Pacific/Auckland',
          icao: 'NZWN',
          station_name: 'Wellington International Airport',
        },
        'city',
      ),
      checked(
        City,
        {
          city_id: 'dc',
          city_name: 'Washington, D.C.',
          country: 'US',
          lat: 38.8512,
          lon: -77.0377,
          tz: 'America/New_York',
          icao: 'KDCA',
          station_name: 'Reagan National Airport',
        },
        'city',
      ),
    );
    cache.close();
    const exported = await run(process.execPath, [bin, 'export', 'cities'], { env: userEnv() });
    // a JSON array, a row a line, by city id: dc before wellington
    expect([exported.code, exported.output]).toEqual([
      0,
      [
        '[',
        '{"city_id":"dc","city_name":"Washington, D.C.","country":"US","lat":38.8512,"lon":-77.0377,"tz":"America/New_York","icao":"KDCA","station_name":"Reagan National Airport"},',
        '{"city_id":"wellington","city_name":"Wellington","country":"NZ","lat":-41.3272,"lon":174.8053,"tz":"Pacific/Auckland","icao":"NZWN","station_name":"Wellington International Airport"}',
        ']',
        '',
      ].join('\n'),
    ]);

    // the demo (no key configured), its world from the test template so the first start does not fill 30 days
    cpSync(inject('templateDir'), join(FRESH_HOME.XDG_DATA_HOME, 'svc-monitor', 'demo', 'server'), { recursive: true });
    const tui = startTui([], userEnv(), { cols: 150, rows: 45 }, bin);
    running.push(tui);
    // the tab bar, the board's header over every city the package's world has (assets/cities.json) and a city's row
    const cities = (JSON.parse(readFileSync(join(app, 'assets', 'cities.json'), 'utf8')) as { cities: unknown[] })
      .cities.length;
    await tui.waitFor('[1 Board]');
    await tui.waitFor(`Board · ${cities} cities`);
    await tui.waitFor(/New York City\s+\d\d:\d\d /);
    tui.press('q');
    expect((await tui.exited).exitCode).toBe(0);
    // the terminal as it was: the alternate screen left and the cursor shown again, after the last frame
    const deadline = Date.now() + PATIENCE_MS;
    while (tui.terminal.buffer.active.type !== 'normal' && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(tui.terminal.buffer.active.type).toBe('normal');
    const out = tui.output();
    expect(out.lastIndexOf('\u001b[?1049l')).toBeGreaterThan(out.lastIndexOf('[1 Board]'));
    expect(out.lastIndexOf('\u001b[?25h')).toBeGreaterThan(out.lastIndexOf('[1 Board]'));
  });
});
