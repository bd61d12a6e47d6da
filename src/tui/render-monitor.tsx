import { render } from 'ink';
import { enterAlternateScreen } from './alternate-screen.js';
import { MonitorApp } from './app.js';
import { frameWriterRefusal } from './ink-patches.js';
import type { MonitorOptions } from './types.js';

export { MonitorApp } from './app.js';
export type { MonitorAppProps, MonitorOptions, MonitorSource, MonitorStatus, RenderInfo } from './types.js';

// before Ink draws anything: a frame costs what changed in it, written line by line (ink-patches.ts). If the patch
// cannot apply, the monitor does not start (the CLI writes the one line and exits 1): Ink's own writer scrolls
const refused = await frameWriterRefusal();
if (refused !== null) throw new Error(refused);

/**
 * Ink draws at most this many frames a second. Its default, 30, holds a frame back up to 34 ms after the one before
 * (a key right after a clock tick waited for it); at 60 a key's frame is never more than one 60 Hz frame late.
 */
export const MAX_FPS = 60;

/**
 * Starts the terminal UI on the alternate screen (entered here unless the CLI already did). `q` ends it (Ink's
 * `exit()`): `waitUntilExit` then resolves, the shell's screen is back, and the CLI can exit 0. Ctrl+C ends it the
 * same way; a failure rejects `waitUntilExit` once the screen is back, so its message lands on the shell's screen.
 *
 * Ink writes only the lines that changed (`incrementalRendering`, with the monitor's writer: screen-log.ts), and the
 * frame is kept one row shorter than the terminal (Shell): Ink clears the whole screen and the scrollback before
 * every frame as tall as the terminal.
 */
export function renderMonitor(options: MonitorOptions): { waitUntilExit(): Promise<void>; unmount(): void } {
  const { stdout = process.stdout, stdin = process.stdin, onRender, patchConsole, ...props } = options;
  const screen = enterAlternateScreen(stdout, stdin);
  // what was written before the first frame (the demo's "starting" line) goes: the frame starts top-left
  screen.clear();
  const instance = render(<MonitorApp {...props} />, {
    stdout,
    stdin,
    exitOnCtrlC: true,
    patchConsole: patchConsole ?? true,
    maxFps: MAX_FPS,
    // only the lines that changed, at their rows of the alternate screen (screen-log.ts)
    incrementalRendering: screen.active,
    // Ink measures each render (layout and output) and reports it here
    onRender: onRender ? (metrics) => onRender({ renderTime: metrics.renderTime }) : undefined,
  });
  return {
    waitUntilExit: async () => {
      try {
        await instance.waitUntilExit();
      } finally {
        screen.leave();
      }
    },
    unmount: () => instance.unmount(),
  };
}
