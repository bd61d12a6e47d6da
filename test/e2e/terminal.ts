import type { Terminal } from '@xterm/headless';
import xterm from '@xterm/headless';
import pty from 'node-pty';
import { CLI } from '../cli/run-cli.js';
import { PATIENCE_MS } from '../helpers/patience.js';

export interface TuiProcess {
  /** The visible screen as text, one line a row, trailing spaces trimmed. */
  screen(): string;
  /** Everything the program wrote, escape sequences included. */
  output(): string;
  /** Resolves with the screen once `what` is on it; rejects with the screen after `ms`. */
  waitFor(what: string | RegExp, ms?: number): Promise<string>;
  /** Resolves once `what` is no longer on the screen. */
  waitForGone(what: string, ms?: number): Promise<string>;
  press(keys: string): void;
  resize(cols: number, rows: number): void;
  exited: Promise<{ exitCode: number; signal?: number }>;
  kill(): void;
  /** The headless xterm the output is fed to: its buffer holds every cell's colours (scripts/screenshot.ts). */
  terminal: Terminal;
}

export const KEY = { tab: '\t', enter: '\r', escape: '\u001b', up: '\u001b[A', down: '\u001b[B' } as const;

/**
 * The built CLI (or `cli`, another copy of it: the installed package's bin) in a real pseudo-terminal (node-pty), its
 * output fed to a headless xterm so tests read the screen a trader would see rather than the raw byte stream.
 */
export function startTui(
  args: string[],
  env: NodeJS.ProcessEnv,
  size: { cols: number; rows: number } = { cols: 120, rows: 40 },
  cli = CLI,
): TuiProcess {
  const terminal = new xterm.Terminal({ cols: size.cols, rows: size.rows, allowProposedApi: true });
  const child = pty.spawn(process.execPath, [cli, ...args], {
    name: 'xterm-256color',
    cols: size.cols,
    rows: size.rows,
    env: { ...process.env, ...env } as Record<string, string>,
  });
  let raw = '';
  child.onData((data) => {
    raw += data;
    terminal.write(data);
  });
  const exited = new Promise<{ exitCode: number; signal?: number }>((resolve) => child.onExit(resolve));
  const screen = () => {
    const buffer = terminal.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < terminal.rows; y++)
      lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
    return lines.join('\n');
  };
  const until = async (done: () => boolean, ms: number, what: string) => {
    const deadline = Date.now() + ms;
    // xterm parses written data asynchronously: give it a turn before each look
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      if (done()) return screen();
    }
    throw new Error(`not ${what} after ${ms} ms\n--- screen ---\n${screen()}`);
  };
  return {
    screen,
    output: () => raw,
    waitFor: (what, ms = PATIENCE_MS) =>
      until(() => (typeof what === 'string' ? screen().includes(what) : what.test(screen())), ms, `on screen: ${what}`),
    waitForGone: (what, ms = PATIENCE_MS) => until(() => !screen().includes(what), ms, `gone from the screen: ${what}`),
    press: (keys) => child.write(keys),
    resize(cols, rows) {
      child.resize(cols, rows);
      terminal.resize(cols, rows);
    },
    exited,
    kill: () => child.kill('SIGKILL'),
    terminal,
  };
}
