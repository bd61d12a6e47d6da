import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI to completion with no terminal attached. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts a long-running CLI command and resolves once a stdout line matches. */
export function startCli(
  args: string[],
  ready: RegExp,
  env: NodeJS.ProcessEnv = {},
): Promise<{
  child: ChildProcess;
  match: RegExpMatchArray;
  output: () => { stdout: string; stderr: string };
  exited: Promise<number | null>;
}> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    const timer = setTimeout(() => reject(new Error(`not ready in 60 s; stderr: ${stderr}`)), 60_000);
    child.stdout.on('data', (d) => {
      stdout += d;
      const match = stdout.match(ready);
      if (match) {
        clearTimeout(timer);
        resolve({ child, match, output: () => ({ stdout, stderr }), exited });
      }
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code} before ready; stderr: ${stderr}`));
    });
  });
}
