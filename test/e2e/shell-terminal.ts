import xterm from '@xterm/headless';
import pty from 'node-pty';
import { CLI } from '../cli/run-cli.js';
import { PATIENCE_MS } from '../helpers/patience.js';

/** One chunk the program wrote, with when it came (ms, performance.now()). */
export interface Chunk {
  at: number;
  data: string;
}

export interface ShellTui {
  /** The visible screen as text, one line a row, trailing spaces trimmed. */
  screen(): string;
  /** Whether the terminal shows its alternate screen now. */
  onAlternateScreen(): boolean;
  chunks: Chunk[];
  output(): string;
  waitFor(check: () => boolean, what: string, ms?: number): Promise<void>;
  press(keys: string): void;
  signal(name: 'SIGINT' | 'SIGTERM' | 'SIGHUP'): void;
  resize(cols: number, rows: number): void;
  exited: Promise<{ exitCode: number; signal?: number }>;
  kill(): void;
}

/**
 * A shell's screen with `before` printed on it, then the built CLI started in the same pseudo-terminal (node-pty, its
 * output fed to a headless xterm): what a trader's terminal shows before, during and after the monitor.
 */
export function startAfterShellLines(
  before: readonly string[],
  args: string[],
  env: NodeJS.ProcessEnv,
  size: { cols: number; rows: number },
): ShellTui {
  const terminal = new xterm.Terminal({ cols: size.cols, rows: size.rows, allowProposedApi: true });
  const script = `printf '%s\\n' "$@" | head -n ${before.length}; shift ${before.length}; exec "$@"`;
  const child = pty.spawn('/bin/sh', ['-c', script, 'sh', ...before, process.execPath, CLI, ...args], {
    name: 'xterm-256color',
    cols: size.cols,
    rows: size.rows,
    env: { ...process.env, ...env } as Record<string, string>,
  });
  const chunks: Chunk[] = [];
  child.onData((data) => {
    chunks.push({ at: performance.now(), data });
    terminal.write(data);
  });
  const exited = new Promise<{ exitCode: number; signal?: number }>((resolve) => child.onExit(resolve));
  const screen = () => {
    const { active } = terminal.buffer;
    return Array.from({ length: terminal.rows }, (_, y) =>
      (active.getLine(active.viewportY + y)?.translateToString(true) ?? '').trimEnd(),
    ).join('\n');
  };
  return {
    screen,
    onAlternateScreen: () => terminal.buffer.active.type === 'alternate',
    chunks,
    output: () => chunks.map((c) => c.data).join(''),
    async waitFor(check, what, ms = PATIENCE_MS) {
      const deadline = Date.now() + ms;
      while (Date.now() < deadline) {
        // xterm parses written data asynchronously: a turn before each look
        await new Promise((r) => setTimeout(r, 20));
        if (check()) return;
      }
      throw new Error(`not ${what} after ${ms} ms\n--- screen ---\n${screen()}`);
    },
    press: (keys) => child.write(keys),
    signal: (name) => process.kill(child.pid, name),
    resize(cols, rows) {
      child.resize(cols, rows);
      terminal.resize(cols, rows);
    },
    exited,
    kill: () => child.kill('SIGKILL'),
  };
}
