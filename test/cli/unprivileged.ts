import { type SpawnOptions, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, type CliResult } from './run-cli.js';

/**
 * Read-only files only stop a process that the permission bits apply to, and root (as these tests and CI run) writes
 * through them by its capabilities: CAP_DAC_OVERRIDE (write and read anything), CAP_DAC_READ_SEARCH (read anything)
 * and CAP_FOWNER (act as any file's owner). As root the CLI under test runs without those three, through util-linux's
 * setpriv, dropped from its bounding and inheritable sets (so the exec that starts node cannot get them back): still
 * root, still the owner of every file these tests make, and of the checkout, however private its folder (a clone
 * under `mktemp -d` is 0700); another user (`nobody`) could not even reach dist/cli.js there. As anyone else the CLI
 * runs as that user, and the bits apply as they are.
 */
const asRoot = process.getuid?.() === 0;
const DROPPED = '-dac_override,-dac_read_search,-fowner';
const withoutOverride = asRoot ? ['setpriv', `--bounding-set=${DROPPED}`, `--inh-caps=${DROPPED}`] : [];

/** `node ...args` held to the permission bits. */
function spawnHeld(args: string[], options: SpawnOptions) {
  const argv = [...withoutOverride, process.execPath, ...args];
  return spawn(argv[0] as string, argv.slice(1), options);
}

/** A temp folder for the CLI under test (its user owns it, as the tests' user does). */
export function ownedTempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface Outcome extends CliResult {
  /** The line a long-running command prints once it serves, if it got that far (it is then stopped). */
  served: boolean;
}

/**
 * Runs the built CLI held to the permission bits until it exits, or until its stdout matches `serving` (a listener
 * that started: it is then stopped with SIGTERM and `served` is true).
 */
export function runCliAsUser(args: string[], env: NodeJS.ProcessEnv, serving?: RegExp): Promise<Outcome> {
  const child = spawnHeld([CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { stdout: '', stderr: '', served: false };
  child.stdout?.on('data', (d) => {
    out.stdout += d;
    if (serving?.test(out.stdout) && !out.served) {
      out.served = true;
      child.kill('SIGTERM');
    }
  });
  child.stderr?.on('data', (d) => {
    out.stderr += d;
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, ...out })));
}

/** Whether a process started as runCliAsUser starts them is held to the permission bits: it cannot write `file`. */
export async function heldToPermissionBits(file: string): Promise<boolean> {
  const write = `try { require('node:fs').appendFileSync(${JSON.stringify(file)}, 'x'); process.exit(1) } catch (e) { process.exit(e.code === 'EACCES' ? 0 : 2) }`;
  const child = spawnHeld(['-e', write], { stdio: 'ignore' });
  return new Promise((resolve) => child.on('close', (code) => resolve(code === 0)));
}
