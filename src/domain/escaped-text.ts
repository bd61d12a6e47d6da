// a backslash (so the escapes can be told from the text), and the code points never shown as themselves: control
// (Cc), format (Cf: bidi overrides, zero-width), private-use and unassigned ones, and the two Unicode line breaks
const TO_ESCAPE = /[\\\p{C}\p{Zl}\p{Zp}]/gu;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\' };
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Bytes received from outside (a rejected webhook's body) as one line of inert text: valid UTF-8 as itself, except
 * `\n`, `\r`, `\t`, a backslash as `\\`, other non-printable code points as `\u{1b}`, and bytes that are not UTF-8
 * as `\xff`. Nothing in it can reach a terminal as a control sequence, and the bytes can be read back from it.
 */
export function escapedText(bytes: Uint8Array): string {
  let out = '';
  let run = 0; // where the current stretch of valid UTF-8 began
  let i = 0;
  while (i < bytes.length) {
    const size = validSequence(bytes, i);
    if (size > 0) {
      i += size;
      continue;
    }
    out += escapeText(utf8.decode(bytes.subarray(run, i)));
    out += `\\x${(bytes[i] as number).toString(16).padStart(2, '0')}`;
    i += 1;
    run = i;
  }
  return out + escapeText(utf8.decode(bytes.subarray(run)));
}

const escapeText = (text: string) =>
  text.replace(TO_ESCAPE, (char) => NAMED[char] ?? `\\u{${(char.codePointAt(0) as number).toString(16)}}`);

/** The length of the well-formed UTF-8 sequence at `i` (RFC 3629: no overlongs, no surrogates), or 0. */
function validSequence(bytes: Uint8Array, i: number): number {
  const lead = bytes[i] as number;
  if (lead < 0x80) return 1;
  let size: number;
  let low = 0x80;
  let high = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) size = 2;
  else if (lead >= 0xe0 && lead <= 0xef) {
    size = 3;
    if (lead === 0xe0) low = 0xa0;
    if (lead === 0xed) high = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    size = 4;
    if (lead === 0xf0) low = 0x90;
    if (lead === 0xf4) high = 0x8f;
  } else return 0;
  if (i + size > bytes.length) return 0;
  const second = bytes[i + 1] as number;
  if (second < low || second > high) return 0;
  for (let k = 2; k < size; k++) {
    const next = bytes[i + k] as number;
    if (next < 0x80 || next > 0xbf) return 0;
  }
  return size;
}
