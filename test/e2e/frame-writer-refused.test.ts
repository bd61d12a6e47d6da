import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pty from 'node-pty';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'svc-e2e-frame-writer-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * The built package installed beside an Ink other than the one its screen writer patches (6.7.0 in its package.json):
 * its dist/ and package.json copied, every other package of node_modules linked, Ink copied with the other version.
 */
function installWithOtherInk(): string {
  const pkg = join(root, 'pkg');
  cpSync(join(REPO, 'dist'), join(pkg, 'dist'), { recursive: true });
  cpSync(join(REPO, 'package.json'), join(pkg, 'package.json'));
  const modules = join(pkg, 'node_modules');
  mkdirSync(modules, { recursive: true });
  for (const name of readdirSync(join(REPO, 'node_modules'))) {
    if (name === 'ink' || name.startsWith('.')) continue;
    symlinkSync(join(REPO, 'node_modules', name), join(modules, name));
  }
  cpSync(join(REPO, 'node_modules', 'ink'), join(modules, 'ink'), { recursive: true, dereference: true });
  const inkPackage = join(modules, 'ink', 'package.json');
  writeFileSync(inkPackage, readFileSync(inkPackage, 'utf8').replace(/"version": "[^"]+"/, '"version": "6.7.0"'));
  return pkg;
}

describe('the monitor on an Ink its screen writer does not fit', () => {
  it('refuses to start: one line on stderr, exit 1, the shell screen given back', async () => {
    const pkg = installWithOtherInk();
    const stderr = join(root, 'stderr.txt');
    // a terminal for stdin and stdout (the monitor needs one), stderr to a file: what it says there, alone
    const child = pty.spawn(
      '/bin/sh',
      [
        '-c',
        `exec "${process.execPath}" "${join(pkg, 'dist', 'cli.js')}" monitor --offline --db "${join(root, 'cache.db')}" 2>"${stderr}"`,
      ],
      {
        name: 'xterm-256color',
        cols: 120,
        rows: 30,
        env: { ...process.env, XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config') } as Record<
          string,
          string
        >,
      },
    );
    let output = '';
    child.onData((d) => {
      output += d;
    });
    const { exitCode } = await new Promise<{ exitCode: number }>((done) => child.onExit(done));
    expect(exitCode).toBe(1);
    expect(readFileSync(stderr, 'utf8')).toBe(
      'svc-monitor: the monitor cannot start: its screen writer is made for Ink 6.8.0 and Ink 6.7.0 is installed; reinstall svc-monitor (npm ci)\n',
    );
    // no frame drawn: the alternate screen, if entered, is left again, and no tab bar was written
    expect(output).not.toContain('Board');
    expect(output.lastIndexOf('\u001b[?1049l')).toBeGreaterThanOrEqual(output.lastIndexOf('\u001b[?1049h'));
  });
});
