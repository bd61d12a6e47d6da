import { HELP_SECTIONS, KEYS } from '../keys.js';
import { type Line, line, seg } from '../theme.js';
import { DocumentOverlay } from './document-overlay.js';

/** What the marks and abbreviations on screen mean: read with the keys, not bound to any. */
const READING: [string, string][] = [
  ['!! KILL', 'a kill signal: exit the pick at market'],
  ['~ before a time', 'the time follows from the market rules (entry hours, settlement at midnight)'],
  ['sync cur 12s', 'age of the last good sync of a stream; * stale (2 polls missed), ! failing or 5 missed, ? never'],
  ['ok / dup / rej', 'webhooks accepted, duplicates, rejected by the listener'],
  ['m / r after a price', 'current price from the mkta quotes / from the record itself'],
];

/** The help's text: every key binding with a help row (keys.ts), section by section, then how to read the screen. */
export function helpLines(): Line[] {
  const sections: [string, (readonly [string, string])[]][] = HELP_SECTIONS.map(([title, bindings]) => [
    title,
    Object.values(bindings).flatMap((b) => (b.help ? [b.help] : [])),
  ]);
  const out: Line[] = [line(seg('KEYS', 'accent', true))];
  for (const [section, rows] of [...sections, ['Reading the screen', READING] as const]) {
    out.push([], line(seg(section, 'accent', true)));
    for (const [k, what] of rows) out.push(line(seg(`  ${k.padEnd(20)}`, undefined, true), what));
  }
  return out;
}

/** `?`: the help, closed by Esc or `?` again. */
export function HelpOverlay({ width, height }: { width: number; height: number }) {
  return (
    <DocumentOverlay title="Help" lines={helpLines()} width={width} height={height} closeKey={KEYS.everywhere.help} />
  );
}
