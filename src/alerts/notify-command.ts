import { spawn } from 'node:child_process';
import { withoutControls } from '../domain/without-controls.js';

/**
 * What `alerts.notify_command` receives on its standard input: the stored alert, one JSON object. Only these fields
 * of the alert row, none of which can hold a key or a secret.
 */
export interface AlertMessage {
  id: number;
  kind: string;
  severity: string;
  city_id: string | null;
  ref: string | null;
  created_at: string;
  message: string;
}

/** DESIGN 3: a notify command that has not exited after this long is killed. */
export const COMMAND_TIMEOUT_MS = 10_000;
/** Commands running at once; the rest wait their turn. */
const MAX_RUNNING = 4;
/** Alerts waiting for a command; past this a burst drops the oldest (each drop is reported as a failure). */
const MAX_WAITING = 100;
/** The most of a failing command's stderr kept for its failure alert. */
const STDERR_KEPT = 300;

/**
 * Environment variables the command never inherits: the monitor's own key, webhook secrets and the service's admin
 * token. The trader's command gets the alert, not the credentials of the process that ran it.
 */
const SECRET_VARIABLES = /^SVC_(API_KEY|WEBHOOK_SECRET|ADMIN_TOKEN)$/;

export function withoutSecrets(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !SECRET_VARIABLES.test(name)));
}

export interface NotifyCommandOptions {
  argv: readonly string[];
  /** Called once for each alert the command failed on, with why (spawn error, exit code, timeout, dropped). */
  onFailure: (alert: AlertMessage, reason: string) => void;
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

/**
 * `alerts.notify_command`: the program run without a shell for each alert, the alert as one JSON object on its
 * stdin, killed after 10 s. Fire and forget: `send` returns at once; at most four run at a time, the others wait in
 * a bounded queue, so neither the intake nor the sync ever waits on a trader's script. A failure is reported to
 * `onFailure` (which stores it as an alert), never thrown.
 */
export class NotifyCommand {
  private readonly waiting: AlertMessage[] = [];
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly options: NotifyCommandOptions) {}

  send(alert: AlertMessage): void {
    this.waiting.push(alert);
    if (this.waiting.length > MAX_WAITING) {
      const dropped = this.waiting.shift() as AlertMessage;
      this.options.onFailure(dropped, `not run: more than ${MAX_WAITING} alerts were waiting for the command`);
    }
    this.pump();
  }

  /** Resolves once nothing runs or waits. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  private pump(): void {
    while (this.running.size < MAX_RUNNING && this.waiting.length > 0) {
      const alert = this.waiting.shift() as AlertMessage;
      const run: Promise<void> = this.run(alert).then((reason) => {
        this.running.delete(run);
        if (reason !== null) this.options.onFailure(alert, reason);
        this.pump();
      });
      this.running.add(run);
    }
  }

  /** One run; resolves with why it failed, or null. */
  private run(alert: AlertMessage): Promise<string | null> {
    const [program, ...args] = this.options.argv as [string, ...string[]];
    const timeoutMs = this.options.timeoutMs ?? COMMAND_TIMEOUT_MS;
    return new Promise((resolve) => {
      let settled = false;
      const done = (reason: string | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(reason);
      };
      let stderr = '';
      let timedOut = false;
      const child = spawn(program, args, {
        shell: false,
        stdio: ['pipe', 'ignore', 'pipe'],
        env: withoutSecrets(this.options.env ?? process.env),
        // its own process group, so the kill reaches what a script started too (a `sleep` under `sh` would
        // otherwise outlive it and hold the pipe open)
        detached: true,
      });
      const timer = setTimeout(() => {
        timedOut = true;
        try {
          if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
        child.stderr?.destroy();
        done(`${program} was killed after ${timeoutMs / 1000} s`);
      }, timeoutMs);
      child.on('error', (error) => done(`could not run ${program}: ${error.message}`));
      child.stderr?.on('data', (chunk: Buffer) => {
        if (stderr.length < STDERR_KEPT) stderr += chunk.toString('utf8');
      });
      // a command that exits without reading its stdin closes the pipe: not a failure of its own
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(`${JSON.stringify(alert)}\n`);
      child.on('close', (code, signal) => {
        const said = withoutControls(stderr.trim()).slice(0, STDERR_KEPT);
        const tail = said ? `: ${said}` : '';
        if (timedOut) return;
        if (signal) done(`${program} was ended by ${signal}${tail}`);
        else if (code !== 0) done(`${program} exited with code ${code}${tail}`);
        else done(null);
      });
    });
  }
}
