import { type ChildProcess, spawn } from 'node:child_process';
import { CLI } from './run-cli.js';

export interface ServerChild {
  child: ChildProcess;
  output: { stdout: string; stderr: string };
  /** The exit code, or the signal's name when a signal ended it. */
  exited: Promise<number | string | null>;
  /** Resolves with the base URL once the server prints `listening on`; rejects if it exits first. */
  listening: Promise<string>;
}

/**
 * `svc-monitor server ...` as a child, started under `umask 000` so every mode the files get is the one the program
 * asks for, not one the test's umask happens to narrow.
 */
export function spawnServer(args: string[], env: NodeJS.ProcessEnv = {}): ServerChild {
  const child = spawn('/bin/sh', ['-c', 'umask 000 && exec "$0" "$@"', process.execPath, CLI, 'server', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  const exited = new Promise<number | string | null>((done) =>
    child.on('close', (code, signal) => done(code ?? signal)),
  );
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (d) => {
      output.stdout += d;
      const match = output.stdout.match(/^listening on (\S+)$/m);
      if (match) resolve(match[1] as string);
    });
    void exited.then((code) => reject(new Error(`server exited ${code} before listening; stderr: ${output.stderr}`)));
  });
  listening.catch(() => undefined);
  child.stderr?.on('data', (d) => {
    output.stderr += d;
  });
  return { child, output, exited, listening };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
