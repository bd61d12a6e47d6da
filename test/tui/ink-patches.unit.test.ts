import { readFileSync } from 'node:fs';
import xterm from '@xterm/headless';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { paintLine } from '../../src/tui/format/paint.js';
import { inkOutputForTests, PATCHED_INK, patchInk } from '../../src/tui/ink-patches.js';
import type { Line, Tone } from '../../src/tui/theme.js';

let ink: Awaited<ReturnType<typeof inkOutputForTests>>;
beforeAll(async () => {
  expect(await patchInk()).toBe(true);
  ink = await inkOutputForTests();
});

/** What a terminal shows of `output`: each cell's character, colour, bold and inverse. */
async function shown(output: string, cols: number, rows: number): Promise<string[]> {
  const terminal = new xterm.Terminal({ cols: cols + 4, rows: rows + 1, allowProposedApi: true });
  await new Promise<void>((done) => terminal.write(output.split('\n').join('\r\n'), done));
  const cells: string[] = [];
  const cell = terminal.buffer.active.getNullCell();
  for (let y = 0; y < rows; y++) {
    const line = terminal.buffer.active.getLine(y);
    for (let x = 0; x < cols + 4; x++) {
      line?.getCell(x, cell);
      cells.push(`${cell.getChars() || ' '}|${cell.getFgColor()}|${cell.isBold()}|${cell.isInverse()}`);
    }
  }
  terminal.dispose();
  return cells;
}

const TONES: (Tone | undefined)[] = [undefined, 'muted', 'accent', 'good', 'bad', 'warn', 'alarm'];
const segment = fc.record({
  text: fc.stringMatching(/^[a-z °·…›█▂┬漢]{0,12}$/),
  tone: fc.constantFrom(...TONES),
  bold: fc.boolean(),
  inverse: fc.boolean(),
});
/** A write: a painted line (as LineText hands it over, through a Transform) or plain text, at a place. */
const write = fc.record({
  x: fc.integer({ min: 0, max: 12 }),
  y: fc.integer({ min: -1, max: 6 }),
  line: fc.array(segment, { maxLength: 5 }),
  colour: fc.boolean(),
  transformed: fc.boolean(),
  twoLines: fc.boolean(),
});

describe('the Ink the patch was written for', () => {
  it('is the one package.json asks for, exactly (a range would let an install take another and drop the patch), and the one installed', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(pkg.dependencies.ink).toBe(PATCHED_INK);
    const installed = JSON.parse(
      readFileSync(new URL('../../node_modules/ink/package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    expect(installed.version).toBe(PATCHED_INK);
  });
});

describe("Ink 6.8's Output.get, patched (ink-patches.ts)", () => {
  it('shows on the terminal exactly what Ink would, frame after frame (rows kept from one frame to the next)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 10, max: 50 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(write),
        async (width, height, writes) => {
          const build = () => {
            const output = new ink.Output({ width, height });
            for (const w of writes) {
              const text = paintLine(w.line as Line, w.colour);
              const body = w.twoLines ? `${text}\n${text}` : text;
              if (!body) continue;
              // a Transform keeps the text's dimensions: a placeholder line of the same length for each line
              const lines = body.split('\n');
              const placeholder = lines.map((l) => ' '.repeat(l.length)).join('\n');
              const transform = (_: string, index: number) => lines[index] ?? '';
              if (w.transformed)
                output.operations.push({
                  type: 'write',
                  x: w.x,
                  y: w.y,
                  text: placeholder,
                  transformers: [transform],
                } as never);
              else output.operations.push({ type: 'write', x: w.x, y: w.y, text: body, transformers: [] } as never);
            }
            return output;
          };
          const patched = build().get();
          const original = ink.original.call(build());
          expect(patched.height).toBe(original.height);
          expect(await shown(patched.output, width, height)).toEqual(await shown(original.output, width, height));
          // the same frame again comes from the kept rows
          expect(build().get().output).toBe(patched.output);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('gives a plain row exactly as Ink does, trailing blanks trimmed', () => {
    const output = new ink.Output({ width: 12, height: 2 });
    output.operations.push({
      type: 'write',
      x: 0,
      y: 0,
      text: ' '.repeat(12),
      transformers: [() => 'ab 12°C     '],
    } as never);
    // 'ab 12°C' is 7 columns; the 5 blanks after it are trimmed; row 2 has nothing written: empty
    expect(output.get()).toEqual({ output: 'ab 12°C\n', height: 2 });
  });
});
