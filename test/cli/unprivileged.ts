import { spawn } from 'node:child_process';
import { chownSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, type CliResult } from './run-cli.js';

/**
 * Read-only files only stop a process that the permission bits apply to, and root (as these tests and CI run)
 * writes through them. So as root the CLI under test runs as `nobody` (spawn's uid/gid, which root may set), in a
 * folder `nobody` owns; as anyone else it runs as that user, and the bits apply as they are.
 */
const NOBODY = 65_534;
const asRoot = process.getuid?.() === 0;
const identity = asRoot ? { uid: NOBODY, gid: NOBODY } : {};

/** A temp folder the CLI's user owns (mode 0755, so that user can also reach into it). */
export function ownedTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  giveToCliUser(dir);
  return dir;
}

/** Hands a file or folder the test made to the user the CLI runs as. */
export function giveToCliUser(path: string): void {
  if (asRoot) chownSync(path, NOBODY, NOBODY);
}

export interface Outcome extends CliResult {
  /** The line a long-running command prints once it serves, if it got that far (it is then stopped). */
  served: boolean;
}

/**
 * Runs the built CLI as the unprivileged user until it exits, or until its stdout matches `serving` (a listener
 * that started: it is then stopped with SIGTERM and `served` is true).
 */
export function runCliAsUser(args: string[], env: NodeJS.ProcessEnv, serving?: RegExp): Promise<Outcome> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...identity,
  });
  const out = { stdout: '', stderr: '', served: false };
  child.stdout.on('data', (d) => {
    out.stdout += d;
    if (serving?.test(out.stdout) && !out.served) {
      out.served = true;
      child.kill('SIGTERM');
    }
  });
  child.stderr.on('data', (d) => {
    out.stderr += d;
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, ...out })));
}
