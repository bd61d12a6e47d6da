import type { IBufferCell, Terminal } from '@xterm/headless';

/**
 * A terminal's screen as an SVG picture: one `<text>` a run of cells that share a style, placed at its cell, so the
 * columns line up whatever the font's own widths. Colours as a dark terminal theme draws the 16 ANSI colours (the
 * monitor writes only those, src/tui/format/paint.ts); the 256-colour cube and true colour are drawn too.
 */

// the 16 ANSI colours, as a dark terminal theme draws them
const PALETTE = [
  '#1d1f21',
  '#cc6666',
  '#b5bd68',
  '#f0c674',
  '#81a2be',
  '#b294bb',
  '#8abeb7',
  '#c5c8c6',
  '#969896',
  '#ff7b72',
  '#c3e88d',
  '#ffcb6b',
  '#82aaff',
  '#c792ea',
  '#89ddff',
  '#ffffff',
];
export const FOREGROUND = '#d0d0d0';
export const BACKGROUND = '#16181a';
const CELL_W = 8.4;
const CELL_H = 17;
const MARGIN = 12;

const hex = (n: number) => n.toString(16).padStart(2, '0');

/** xterm's 256 colours: the 16 above, a 6x6x6 cube, then 24 greys. */
export function paletteColour(index: number): string {
  if (index < 16) return PALETTE[index] ?? FOREGROUND;
  if (index < 232) {
    const level = (v: number) => (v === 0 ? 0 : 55 + v * 40);
    const i = index - 16;
    return `#${hex(level(Math.floor(i / 36)))}${hex(level(Math.floor(i / 6) % 6))}${hex(level(i % 6))}`;
  }
  const grey = 8 + (index - 232) * 10;
  return `#${hex(grey)}${hex(grey)}${hex(grey)}`;
}

function colourOf(cell: IBufferCell, part: 'fg' | 'bg'): string | null {
  const [isDefault, isPalette, value] =
    part === 'fg'
      ? [cell.isFgDefault(), cell.isFgPalette(), cell.getFgColor()]
      : [cell.isBgDefault(), cell.isBgPalette(), cell.getBgColor()];
  if (isDefault) return null;
  if (isPalette) return paletteColour(value);
  return `#${value.toString(16).padStart(6, '0')}`;
}

/** Text between spaces, placed at the cell it starts at. */
interface Word {
  x: number;
  /** Cells the word covers: a wide character takes two. */
  cells: number;
  text: string;
}

/** Cells side by side that share a style: one background, and its words. */
interface Run {
  x: number;
  cells: number;
  words: Word[];
  fg: string;
  bg: string | null;
  bold: boolean;
  dim: boolean;
}

/** One screen row as runs of cells that share a style. */
function runsOf(terminal: Terminal, y: number): Run[] {
  const buffer = terminal.buffer.active;
  const line = buffer.getLine(buffer.viewportY + y);
  const runs: Run[] = [];
  if (!line) return runs;
  for (let x = 0; x < terminal.cols; x++) {
    const cell = line.getCell(x);
    // the second cell of a wide character has no width of its own
    if (!cell || cell.getWidth() === 0) continue;
    let fg = colourOf(cell, 'fg') ?? FOREGROUND;
    let bg = colourOf(cell, 'bg');
    if (cell.isInverse()) [fg, bg] = [bg ?? BACKGROUND, fg];
    const bold = cell.isBold() !== 0;
    const dim = cell.isDim() !== 0;
    let run = runs[runs.length - 1];
    if (!run || run.fg !== fg || run.bg !== bg || run.bold !== bold || run.dim !== dim) {
      run = { x, cells: 0, words: [], fg, bg, bold, dim };
      runs.push(run);
    }
    const text = cell.getChars();
    const width = cell.getWidth();
    if (text.trim() !== '') {
      const word = run.words[run.words.length - 1];
      if (word && word.x + word.cells === x) {
        word.text += text;
        word.cells += width;
      } else run.words.push({ x, cells: width, text });
    }
    run.cells += width;
  }
  return runs;
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The visible screen of `terminal` as an SVG document; `title` names it for a screen reader. */
export function svgOfScreen(terminal: Terminal, title: string): string {
  const width = Math.ceil(terminal.cols * CELL_W) + 2 * MARGIN;
  const height = terminal.rows * CELL_H + 2 * MARGIN;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="100%" height="100%" rx="6" fill="${BACKGROUND}"/>`,
    `<g font-family="'DejaVu Sans Mono', Menlo, Consolas, ui-monospace, monospace" font-size="14">`,
  ];
  for (let y = 0; y < terminal.rows; y++) {
    const top = MARGIN + y * CELL_H;
    for (const run of runsOf(terminal, y)) {
      if (run.bg) {
        const left = (MARGIN + run.x * CELL_W).toFixed(1);
        parts.push(
          `<rect x="${left}" y="${top}" width="${(run.cells * CELL_W).toFixed(1)}" height="${CELL_H}" fill="${run.bg}"/>`,
        );
      }
      const style = `${run.bold ? ' font-weight="bold"' : ''}${run.dim ? ' opacity="0.6"' : ''}`;
      // each word at its own cell: no viewer's whitespace rules (collapsed spaces) can shift a column
      for (const word of run.words) {
        const x = (MARGIN + word.x * CELL_W).toFixed(1);
        const length = (word.cells * CELL_W).toFixed(1);
        parts.push(
          `<text x="${x}" y="${top + 13}" fill="${run.fg}"${style} textLength="${length}">${escapeXml(word.text)}</text>`,
        );
      }
    }
  }
  parts.push('</g>', '</svg>', '');
  return parts.join('\n');
}
