import xterm from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { BACKGROUND, FOREGROUND, paletteColour, svgOfScreen } from '../../scripts/terminal-svg.js';

/** A headless xterm of `cols` x `rows` that has parsed `data` (xterm parses asynchronously: wait for its callback). */
async function screenOf(data: string, cols = 20, rows = 2) {
  const terminal = new xterm.Terminal({ cols, rows, allowProposedApi: true });
  await new Promise<void>((done) => terminal.write(data, done));
  return terminal;
}

describe('svgOfScreen: the README picture of a terminal frame', () => {
  it('places each word at its own cell, 8.4 px a cell from a 12 px margin, with its colour', async () => {
    // "ab" at cells 0-1, then red (SGR 31, palette 1) "cd" at cells 4-5: x = 12 + 4 * 8.4 = 45.6, length 2 * 8.4
    const svg = svgOfScreen(await screenOf('ab  \u001b[31mcd\u001b[39m'), 'a <frame>');
    expect(svg).toContain(`<text x="12.0" y="25" fill="${FOREGROUND}" textLength="16.8">ab</text>`);
    expect(svg).toContain('<text x="45.6" y="25" fill="#cc6666" textLength="16.8">cd</text>');
    // 20 cols: 168 + 24 wide; 2 rows of 17 px: 34 + 24 high
    expect(svg).toContain('width="192" height="58"');
    expect(svg).toContain('<title>a &lt;frame&gt;</title>');
  });

  it('draws inverse video as a background of the foreground colour, bold as bold, and escapes XML', async () => {
    // row 2 (y = 12 + 17 = 29): inverse "<a&b>" at cells 0-4, bold "x" at cell 6
    const svg = svgOfScreen(await screenOf('\r\n\u001b[7m<a&b>\u001b[27m \u001b[1mx\u001b[22m'), 'frame');
    expect(svg).toContain(`<rect x="12.0" y="29" width="42.0" height="17" fill="${FOREGROUND}"/>`);
    expect(svg).toContain(`<text x="12.0" y="42" fill="${BACKGROUND}" textLength="42.0">&lt;a&amp;b&gt;</text>`);
    expect(svg).toContain(`<text x="62.4" y="42" fill="${FOREGROUND}" font-weight="bold" textLength="8.4">x</text>`);
  });

  it('gives a wide character two cells', async () => {
    // 界 takes cells 0-1 and the space cell 2, so "z" starts at cell 3: 12 + 3 * 8.4 = 37.2; "界" is 2 * 8.4 long
    const svg = svgOfScreen(await screenOf('界 z'), 'frame');
    expect(svg).toContain('textLength="16.8">界</text>');
    expect(svg).toContain('<text x="37.2"');
  });

  it('knows the 256 colours: the cube and the greys', () => {
    // cube index 16 + 36 * 5 + 6 * 0 + 1 = 197: red level 5 (255), green 0, blue level 1 (95)
    expect(paletteColour(197)).toBe('#ff005f');
    // grey 232 is 8, grey 255 is 8 + 23 * 10 = 238
    expect(paletteColour(232)).toBe('#080808');
    expect(paletteColour(255)).toBe('#eeeeee');
  });
});
