import { useMonitorStatus } from '../hooks/use-monitor-status.js';
import { KEYS } from '../keys.js';
import { HELP_SECTIONS } from '../panes/pane-registry.js';
import { type Line, line, seg } from '../theme.js';
import type { MonitorStatus } from '../types.js';
import { DocumentOverlay } from './document-overlay.js';

/** What the marks and abbreviations on screen mean: read with the keys, not bound to any. */
const READING: [string, string][] = [
  ['!! KILL', 'a kill signal: exit the pick at market'],
  ['~ before a time', 'the time follows from the market rules (entry hours, settlement at midnight)'],
  ['sync cur 12s', 'age of the last good sync of a stream; * stale (2 polls missed), ! failing or 5 missed, ? never'],
  ['ok / dup / rej', 'webhooks accepted, duplicates, rejected by the listener'],
  ['m / r after a price', 'current price from the mkta quotes / from the record itself'],
];

/**
 * The help's text: every key binding with a help row (keys.ts), section by section, then how to read the screen,
 * then (demo) where the embedded service's account pages are and where their sign-in token is kept.
 */
export function helpLines(accountPages?: MonitorStatus['accountPages']): Line[] {
  const sections: [string, (readonly [string, string])[]][] = HELP_SECTIONS.map(([title, bindings]) => [
    title,
    Object.values(bindings).flatMap((b) => (b.help ? [b.help] : [])),
  ]);
  const out: Line[] = [line(seg('KEYS', 'accent', true))];
  for (const [section, rows] of [...sections, ['Reading the screen', READING] as const]) {
    out.push([], line(seg(section, 'accent', true)));
    for (const [k, what] of rows) out.push(line(seg(`  ${k.padEnd(20)}`, undefined, true), what));
  }
  if (accountPages) {
    out.push([], line(seg('Account pages of the demo service', 'accent', true)));
    out.push(line(seg(`  ${'address'.padEnd(20)}`, undefined, true), accountPages.url));
    out.push(line(seg(`  ${'admin token in'.padEnd(20)}`, undefined, true), accountPages.tokenFile));
  }
  return out;
}

/** `?`: the help, closed by Esc or `?` again. */
export function HelpOverlay({ width, height }: { width: number; height: number }) {
  const { accountPages } = useMonitorStatus();
  return (
    <DocumentOverlay
      title="Help"
      lines={helpLines(accountPages)}
      width={width}
      height={height}
      closeKey={KEYS.everywhere.help}
    />
  );
}
