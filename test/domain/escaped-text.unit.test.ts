import { describe, expect, it } from 'vitest';
import { escapedText } from '../../src/domain/escaped-text.js';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

describe('escapedText: bytes from outside as inert text', () => {
  it('shows printable UTF-8 as itself and escapes every control, format and line-break code point', () => {
    expect(escapedText(bytes('plain ASCII, € 東京 😀'))).toBe('plain ASCII, € 東京 😀');
    expect(escapedText(bytes('a\nb\r\tc\\d'))).toBe(String.raw`a\nb\r\tc\\d`);
    expect(escapedText(bytes('\u001b[2J\u001b]52;c;eA==\u0007\u007f'))).toBe(
      String.raw`\u{1b}[2J\u{1b}]52;c;eA==\u{7}\u{7f}`,
    );
    // the 8-bit CSI (C1), a right-to-left override, a zero-width space, a BOM and the Unicode line separator
    expect(escapedText(bytes('\u009b31m \u202eevil \u200b \ufeff \u2028'))).toBe(
      String.raw`\u{9b}31m \u{202e}evil \u{200b} \u{feff} \u{2028}`,
    );
  });

  it('shows each byte that is not well-formed UTF-8 as \\xNN and carries on after it', () => {
    expect(escapedText(bytes('a', [0xff], 'b'))).toBe(String.raw`a\xffb`);
    expect(escapedText(bytes([0xc0, 0x80]))).toBe(String.raw`\xc0\x80`); // overlong NUL
    expect(escapedText(bytes([0xed, 0xa0, 0x80]))).toBe(String.raw`\xed\xa0\x80`); // a surrogate
    expect(escapedText(bytes('ok', [0xe2, 0x82]))).toBe(String.raw`ok\xe2\x82`); // cut short at the end
    expect(escapedText(bytes([0xe2, 0x82], '€'))).toBe(String.raw`\xe2\x82€`); // cut short before a whole one
    expect(escapedText(bytes([0xf4, 0x90, 0x80, 0x80]))).toBe(String.raw`\xf4\x90\x80\x80`); // above U+10FFFF
    expect(escapedText(bytes([]))).toBe('');
  });
});
