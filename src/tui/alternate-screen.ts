/**
 * The terminal's alternate screen, as full-screen programs use it (less, htop, k9s): the monitor draws on a screen
 * of its own and, however it ends, the shell's screen and scrollback come back exactly as they were, with the cursor
 * shown and raw mode off. No Ink here: the CLI enters the screen before it loads the TUI.
 */

/** Save the cursor, switch to the alternate screen and clear it (xterm's mode 1049). */
export const ENTER_ALTERNATE_SCREEN = '\u001b[?1049h';
/** Back to the normal screen and the saved cursor. */
export const LEAVE_ALTERNATE_SCREEN = '\u001b[?1049l';
const SHOW_CURSOR = '\u001b[?25h';
/** Cursor to the top-left, then erase the screen: once, before the first frame. */
const HOME_AND_ERASE = '\u001b[H\u001b[2J';

export interface AlternateScreen {
  /** Whether the terminal is on the alternate screen now (never, when stdout is not a terminal). */
  readonly active: boolean;
  /** Erases what was written on it (a progress line) and puts the cursor top-left, where the first frame starts. */
  clear(): void;
  /** Back to the shell's screen; safe to call more than once. */
  leave(): void;
}

let current: { stdout: NodeJS.WriteStream; screen: AlternateScreen } | undefined;

/**
 * Switches `stdout` to the alternate screen when it is a terminal, and makes sure it is left on every way out: the
 * caller's `leave()` (q, Ctrl+C, a signal it handles, a failure it reports), the process's exit, and an uncaught
 * error, before Node prints it (so its message lands on the shell's screen, not on the screen about to vanish).
 * Entering again while it is active returns the same screen.
 */
export function enterAlternateScreen(
  stdout: NodeJS.WriteStream,
  stdin: NodeJS.ReadStream | undefined = process.stdin,
): AlternateScreen {
  if (current?.stdout === stdout && current.screen.active) return current.screen;
  if (!stdout.isTTY) return { active: false, clear: () => {}, leave: () => {} };
  let active = true;
  const leave = () => {
    if (!active) return;
    active = false;
    process.off('exit', leave);
    process.off('uncaughtExceptionMonitor', leave);
    if (stdin?.isTTY && stdin.isRaw) stdin.setRawMode(false);
    write(stdout, SHOW_CURSOR + LEAVE_ALTERNATE_SCREEN);
  };
  const screen: AlternateScreen = {
    get active() {
      return active;
    },
    clear: () => {
      if (active) write(stdout, HOME_AND_ERASE);
    },
    leave,
  };
  process.on('exit', leave);
  process.on('uncaughtExceptionMonitor', leave);
  write(stdout, ENTER_ALTERNATE_SCREEN + HOME_AND_ERASE);
  current = { stdout, screen };
  return screen;
}

/** A terminal that went away (SIGHUP) cannot be written to; leaving is then nothing to do. */
function write(stdout: NodeJS.WriteStream, text: string): void {
  if (stdout.destroyed || stdout.writableEnded) return;
  try {
    stdout.write(text);
  } catch {
    // the terminal is gone
  }
}
