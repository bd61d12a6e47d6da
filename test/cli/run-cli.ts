import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PATIENCE_MS } from '../helpers/patience.js';

export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The built CLI as a child with no terminal, its output collected as it comes. */
function spawnCli(args: string[], env: NodeJS.ProcessEnv, onStdout: (all: string) => void = () => undefined) {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (d) => {
    output.stdout += d;
    onStdout(output.stdout);
  });
  child.stderr.on('data', (d) => {
    output.stderr += d;
  });
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  return { child, output, exited };
}

/** Runs the built CLI to completion. */
export async function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const { output, exited } = spawnCli(args, env);
  const code = await exited;
  return { code, ...output };
}

/** Starts a long-running CLI command and resolves once its stdout matches `ready`. */
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
    const timer = setTimeout(
      () => reject(new Error(`not ready in ${PATIENCE_MS / 1000} s; stderr: ${started.output.stderr}`)),
      PATIENCE_MS,
    );
    const started = spawnCli(args, env, (stdout) => {
      const match = stdout.match(ready);
      if (match) {
        clearTimeout(timer);
        resolve({ child: started.child, match, output: () => started.output, exited: started.exited });
      }
    });
    void started.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code} before ready; stderr: ${started.output.stderr}`));
    });
  });
}
