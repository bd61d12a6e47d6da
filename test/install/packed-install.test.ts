import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/** semver has no types of its own here: the two functions this test uses. */
const semver = createRequire(import.meta.url)('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const root = mkdtempSync(join(tmpdir(), 'svc-packed-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** npm, as a packager runs it; its output, both streams, and its exit code. */
function npm(args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  const child = spawn('npm', args, {
    cwd,
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

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
 * What someone who installs the package gets: `npm pack`, then a global install of the tarball, as a packager would.
 * The project's own `overrides` never reach them (npm reads only the root's), so the versions its dependencies ask
 * for must hold on the Node it promises: no EBADENGINE (cookie 2 wants Node 22; light-my-request 6.8, fastify's,
 * asks for it). Uses the registry (or npm's cache), as any install does.
 */
describe('the packed package, installed globally', () => {
  it('installs without an engine warning, every package it brings admits the oldest Node of engines, and it runs', async () => {
    const packed = await npm(['pack', '--ignore-scripts', '--pack-destination', root], ROOT);
    expect(packed.code, packed.output).toBe(0);
    const tarball = readdirSync(root).find((f) => f.endsWith('.tgz')) as string;
    const prefix = join(root, 'global');
    // --ignore-scripts: better-sqlite3's build from source (a minute) says nothing about the versions chosen
    const install = await npm(
      ['install', '--global', '--prefix', prefix, '--ignore-scripts', '--prefer-offline', join(root, tarball)],
      root,
    );
    expect(install.code, install.output).toBe(0);
    expect(install.output).not.toMatch(/EBADENGINE|Unsupported engine/);

    const oldest = semver.minVersion(pkg.engines.node)?.version as string;
    const app = join(prefix, 'lib', 'node_modules', 'svc-monitor');
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

    const version = await new Promise<string>((resolve) => {
      const child = spawn(process.execPath, [join(app, 'dist', 'cli.js'), '--version'], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
      });
      child.on('close', () => resolve(out));
    });
    expect(version).toBe('0.1.0\n');
  });
});
