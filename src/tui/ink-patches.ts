import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ONE_COLUMN_ONLY } from './format/paint.js';
import { createScreenLog } from './screen-log.js';

/**
 * Two changes to Ink 6.8, applied when the TUI starts (renderMonitor): a faster `Output.get`, so a frame costs what
 * changed in it rather than the whole screen, and the monitor's own writer of frames in place of Ink's incremental
 * one (screen-log.ts), which is off by a line for a frame shorter than the terminal.
 *
 * Ink turns every frame into text anew: a grid of one object a cell (7,200 at 160x45), every line tokenized for its
 * escape sequences and every cell's styles encoded again, with caches that live for one frame. At 160x45 that is
 * 10-25 ms a frame on this project's 2-core machine whatever changed (the clock's second included), the floor of
 * key-to-frame. This keeps Ink's own algorithm and its output, line for line: each screen row is worked out from what
 * was written on it (position and text, transforms applied) and kept for the next frame, so an unchanged row costs a
 * string comparison; a row written once from column 0 with text whose characters are each one column wide (every
 * line of the monitor, see LineText) is its own text with trailing blank cells trimmed, as Ink would make it; any
 * other row is made by Ink's own `get` on a one-row output. A frame with a clipping box is left to Ink whole.
 *
 * Only Ink 6.8.0 is patched (its `Output` and `log-update` are private, so the patch checks the version it was written
 * against, and package.json asks for exactly that one); with another version, or one whose private parts are not
 * where 6.8.0 keeps them, the monitor refuses to start (render-monitor.tsx): Ink's own writer would scroll the screen.
 */

interface Operation {
  type: 'write' | 'clip' | 'unclip';
  x: number;
  y: number;
  text: string;
  transformers: ((line: string, index: number) => string)[];
}

interface InkOutput {
  width: number;
  height: number;
  operations: Operation[];
  get(): { output: string; height: number };
}

type OutputClass = new (options: { width: number; height: number }) => InkOutput;

/** Ink's version the patch was written against (package.json pins it), and how its `Output.get` was kept. */
export const PATCHED_INK = '6.8.0';
const ORIGINAL = Symbol('ink Output.get before the patch');

/** What was written on one screen row: position and text, in the order written. */
type Placement = { x: number; line: string };

/** Rows of the previous frame and of this one: a row not seen for a frame is dropped, so the cache stays small. */
class RowCache {
  private previous = new Map<string, string>();
  private current = new Map<string, string>();

  get(key: string): string | undefined {
    const hit = this.current.get(key) ?? this.previous.get(key);
    if (hit !== undefined) this.current.set(key, hit);
    return hit;
  }

  set(key: string, row: string): void {
    this.current.set(key, row);
  }

  endFrame(): void {
    this.previous = this.current;
    this.current = new Map();
  }

  get size(): number {
    return this.previous.size + this.current.size;
  }
}

// SGR sequences (colour, bold, inverse); any other escape sends the row to Ink's own path
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching escape sequences is the point
const SGR = /\u001b\[[\d;]*m/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const TRAILING_SPACES = / +$/;
/** The styles LineText paints (format/paint.ts), each with the code that ends it. */
const CLOSES: Record<string, string> = {
  '1': '22',
  '7': '27',
  '31': '39',
  '32': '39',
  '33': '39',
  '36': '39',
  '90': '39',
  '91': '39',
};
const CLOSING = new Set(Object.values(CLOSES));

/** Whether every style the line opens is one LineText paints and is closed by its end (nothing bleeds on). */
function closedStyles(line: string): boolean {
  const open = new Map<string, number>();
  for (const sequence of line.match(SGR) ?? []) {
    for (const code of sequence.slice(2, -1).split(';')) {
      const closes = CLOSES[code];
      if (closes) open.set(closes, (open.get(closes) ?? 0) + 1);
      else if (CLOSING.has(code)) open.set(code, 0);
      else return false;
    }
  }
  return [...open.values()].every((n) => n === 0);
}

/**
 * The row as Ink makes it when one text starting at column 0 is all that was written on it: its cells, trailing
 * unstyled blanks trimmed. Null when Ink's own path is needed (another escape, a character of another width, wider
 * than the row).
 */
function simpleRow(p: Placement, width: number): string | null {
  if (p.x !== 0) return null;
  const plain = p.line.replace(SGR, '');
  if (plain.length > width || CONTROL.test(plain) || !ONE_COLUMN_ONLY.test(plain)) return null;
  if (plain.length !== p.line.length && !closedStyles(p.line)) return null;
  return p.line.replace(TRAILING_SPACES, '');
}

/** The patched `get`: Ink's layout of writes into rows, each row from the cache, the simple path, or Ink. */
function makeGet(Output: OutputClass, original: InkOutput['get'], cache: RowCache) {
  const inkRow = (width: number, placements: Placement[]): string => {
    const one = new Output({ width, height: 1 });
    for (const p of placements) one.operations.push({ type: 'write', x: p.x, y: 0, text: p.line, transformers: [] });
    return original.call(one).output;
  };
  return function get(this: InkOutput): { output: string; height: number } {
    if (this.operations.some((op) => op.type !== 'write')) return original.call(this);
    const rows: Placement[][] = Array.from({ length: this.height }, () => []);
    for (const { x, y, text, transformers } of this.operations) {
      if (!text) continue;
      // as Ink does: a line below the last row is dropped, and so are those after it
      let offsetY = 0;
      for (const [index, raw] of text.split('\n').entries()) {
        const row = rows[y + offsetY];
        if (!row) continue;
        let line = raw;
        for (const transform of transformers) line = transform(line, index);
        row.push({ x, line });
        offsetY++;
      }
    }
    const out: string[] = [];
    for (const placements of rows) {
      if (placements.length === 0) {
        out.push('');
        continue;
      }
      const key = `${this.width}\u0000${placements.map((p) => `${p.x}\u0001${p.line}`).join('\u0002')}`;
      let row = cache.get(key);
      if (row === undefined) {
        row =
          (placements.length === 1 ? simpleRow(placements[0] as Placement, this.width) : null) ??
          inkRow(this.width, placements);
        cache.set(key, row);
      }
      out.push(row);
    }
    cache.endFrame();
    return { output: out.join('\n'), height: out.length };
  };
}

/** Ink's install directory (its package's `build/`), found the way the monitor's own import of 'ink' finds it. */
function inkBuildDir(): string {
  return dirname(createRequire(import.meta.url).resolve('ink'));
}

type LogUpdate = { create(stream: NodeJS.WriteStream, options?: { incremental?: boolean }): unknown };

/** Ink's private modules, by path from the one the monitor's `import 'ink'` loads (the same module instances). */
const inkModule = async <T>(file: string): Promise<T> =>
  ((await import(pathToFileURL(join(inkBuildDir(), file)).href)) as { default: T }).default;

let patched: Promise<boolean> | undefined;

/**
 * Puts both changes in place (once; later calls return the same answer): Ink 6.8's `Output.prototype.get` becomes
 * the cached one, and an Ink asked for `incrementalRendering` writes its frames with createScreenLog. Resolves to
 * false with another Ink version, which then runs unchanged; rejects when Ink's private parts are not as expected.
 */
export function patchInk(): Promise<boolean> {
  patched ??= (async () => {
    if (inkVersion(inkBuildDir()) !== PATCHED_INK) return false;
    const Output = await inkModule<OutputClass>('output.js');
    const proto = Output.prototype as InkOutput & { [ORIGINAL]?: InkOutput['get'] };
    const original = proto.get;
    proto[ORIGINAL] = original;
    proto.get = makeGet(Output, original, new RowCache());
    const logUpdate = await inkModule<LogUpdate>('log-update.js');
    const create = logUpdate.create;
    logUpdate.create = (stream, options) => (options?.incremental ? createScreenLog(stream) : create(stream, options));
    return true;
  })();
  return patched;
}

/** The version of the Ink installed at `build` (its `build/` directory), from its package.json. */
function inkVersion(build: string): string {
  return (JSON.parse(readFileSync(join(build, '..', 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * Puts the patch in place, or says in one line why the monitor cannot start: without it Ink writes each frame with
 * its own incremental writer, which scrolls the screen (off by a line for a frame shorter than the terminal).
 */
export async function frameWriterRefusal(): Promise<string | null> {
  const why = (detail: string) =>
    `the monitor cannot start: its screen writer is made for Ink ${PATCHED_INK} and ${detail}; reinstall svc-monitor (npm ci)`;
  try {
    if (await patchInk()) return null;
    return why(`Ink ${inkVersion(inkBuildDir())} is installed`);
  } catch (error) {
    return why(`the Ink installed is not as it expects (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** Ink's `Output` class and its `get` before the patch: for the tests, which compare the two on the same writes. */
export async function inkOutputForTests(): Promise<{ Output: OutputClass; original: InkOutput['get'] }> {
  const Output = await inkModule<OutputClass>('output.js');
  const proto = Output.prototype as InkOutput & { [ORIGINAL]?: InkOutput['get'] };
  return { Output, original: proto[ORIGINAL] ?? proto.get };
}
