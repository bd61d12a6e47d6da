import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

/** semver has no types of its own here: the two functions this test uses. */
const semver = createRequire(import.meta.url)('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

const ROOT = new URL('../../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as {
  engines: { node: string };
  allowScripts: Record<string, boolean>;
  overrides?: Record<string, string>;
};
const lock = JSON.parse(readFileSync(new URL('package-lock.json', ROOT), 'utf8')) as {
  packages: Record<string, { engines?: { node?: string }; hasInstallScript?: boolean; version?: string }>;
};

describe('the install promises what every package it installs promises', () => {
  it('the oldest Node that engines.node admits runs every locked package (no EBADENGINE on npm ci)', () => {
    // engines ">=20" admitted 20.0.0, which undici (>=20.18.1) and vite (^20.19.0) refuse; cookie 2 wanted >=22
    const oldest = semver.minVersion(pkg.engines.node)?.version;
    expect(oldest).toBe('20.19.0');
    const refusing = Object.entries(lock.packages)
      .filter(([path, p]) => path !== '' && p.engines?.node !== undefined)
      .filter(([, p]) => !semver.satisfies(oldest as string, p.engines?.node as string))
      .map(([path, p]) => `${path}@${p.version} wants node ${p.engines?.node}`);
    expect(refusing).toEqual([]);
  });

  it('cookie is the 1.x that declares Node 18+ wherever it is installed', () => {
    const cookies = Object.entries(lock.packages).filter(([path]) => /(^|\/)node_modules\/cookie$/.test(path));
    expect(cookies.length).toBeGreaterThan(0);
    for (const [path, p] of cookies) expect({ path, version: p.version }).toEqual({ path, version: '1.1.1' });
  });

  it('no overrides: they hold for this project’s own install and never for an installer’s (npm reads the root’s only)', () => {
    // the locked tree above would then promise what the package does not; versions are chosen instead (operating.md)
    expect(pkg.overrides).toBeUndefined();
  });

  it('every package with an install script is named in allowScripts: allowed or not, a choice made', () => {
    const scripted = Object.entries(lock.packages)
      .filter(([path, p]) => path !== '' && p.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    // esbuild's postinstall only checks its platform package (@esbuild/<platform>), which npm installs anyway
    expect(pkg.allowScripts.esbuild).toBe(false);
    expect(scripted.filter((name) => !(name in pkg.allowScripts))).toEqual([]);
  });
});
