/**
 * How Ink writes each frame to the terminal, on the monitor's alternate screen: a line-by-line diff of our own,
 * in Ink's log-update interface (ink-patches.ts puts it in place of Ink's incremental writer).
 *
 * Ink 6.8's own incremental writer moves the cursor up one line too few when the frame ends with a newline, as it
 * does whenever the frame is shorter than the terminal: each frame lands a line lower and the screen scrolls (its
 * fullscreen alternative clears the whole screen and the scrollback every frame). The monitor owns the alternate
 * screen and starts its frame top-left, so here each changed line is written at its own row by absolute position:
 * no relative cursor arithmetic to get wrong, and a tick of the clock writes the clock's line and nothing else. A
 * change of the terminal's size redraws the whole screen once (a terminal may have reflowed or cut what it showed).
 */

const HIDE_CURSOR = '\u001b[?25l';
const SHOW_CURSOR = '\u001b[?25h';
const ERASE_SCREEN = '\u001b[H\u001b[2J';
const ERASE_LINE = '\u001b[2K';
const at = (row: number) => `\u001b[${row + 1};1H`;

/** The frame's rows: Ink ends a frame shorter than the terminal with a newline, which is no row. */
const rowsOf = (frame: string): string[] => {
  const rows = frame.split('\n');
  if (frame.endsWith('\n')) rows.pop();
  return rows;
};

export interface ScreenLog {
  (frame: string): boolean;
  clear(): void;
  done(): void;
  sync(frame: string): void;
  setCursorPosition(position: unknown): void;
  isCursorDirty(): boolean;
  willRender(frame: string): boolean;
}

export function createScreenLog(stream: NodeJS.WriteStream): ScreenLog {
  let previous: string[] = [];
  let previousFrame = '';
  let size = '';
  let cursorHidden = false;

  const render = ((frame: string): boolean => {
    let out = '';
    if (!cursorHidden) {
      out += HIDE_CURSOR;
      cursorHidden = true;
    }
    const nowSize = `${stream.columns}x${stream.rows}`;
    if (nowSize !== size) {
      // a new size: the whole screen once, from a blank one
      out += ERASE_SCREEN;
      previous = [];
      size = nowSize;
    } else if (frame === previousFrame) return false;
    const rows = rowsOf(frame);
    for (let i = 0; i < rows.length; i++) {
      // the line is erased before it is written: an erase after a line that reaches the last column would take
      // that column with it on terminals that keep the cursor there
      if (rows[i] !== previous[i]) out += `${at(i)}${ERASE_LINE}${rows[i]}`;
    }
    for (let i = rows.length; i < previous.length; i++) out += `${at(i)}${ERASE_LINE}`;
    // the cursor below the frame, where Ink's own writer leaves it
    out += at(rows.length);
    stream.write(out);
    previous = rows;
    previousFrame = frame;
    return true;
  }) as ScreenLog;

  render.clear = () => {
    let out = '';
    for (let i = 0; i < previous.length; i++) out += `${at(i)}${ERASE_LINE}`;
    if (out) stream.write(`${out}${at(0)}`);
    previous = [];
    previousFrame = '';
  };
  render.done = () => {
    previous = [];
    previousFrame = '';
    if (cursorHidden) stream.write(SHOW_CURSOR);
    cursorHidden = false;
  };
  render.sync = (frame: string) => {
    previous = rowsOf(frame);
    previousFrame = frame;
  };
  // the monitor places no cursor (no text field draws one): there is none to track
  render.setCursorPosition = () => {};
  render.isCursorDirty = () => false;
  render.willRender = (frame: string) => frame !== previousFrame || `${stream.columns}x${stream.rows}` !== size;
  return render;
}
