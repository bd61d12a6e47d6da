import { cell, wrap } from '../../format/text.js';
import { utcStamp } from '../../format/time.js';
import { KEYS } from '../../keys.js';
import { type Line, line, seg } from '../../theme.js';
import type { AlertItem } from './alert-items.js';

/** One row of the pane: marker, when (`now` for a live condition), message (muted once acknowledged). */
export function alertLine(item: AlertItem): Line {
  return [
    seg(cell(item.marker, 13), item.tone, true),
    seg(cell(item.when ? utcStamp(Date.parse(item.when)) : 'now', 13), 'muted'),
    seg(item.message, item.stored?.acknowledged_at ? 'muted' : undefined),
  ];
}

/** What Enter shows of an alert: where it came from, whether it was acknowledged, the whole message. */
export function alertDetail(item: AlertItem, width: number): Line[] {
  const out: Line[] = [line(seg(item.marker, item.tone, true))];
  if (item.stored) {
    const a = item.stored;
    out.push(
      line(seg('raised   ', 'muted'), a.created_at),
      line(seg('kind     ', 'muted'), `${a.kind} (${a.severity})`),
    );
    if (a.city_id) out.push(line(seg('city     ', 'muted'), a.city_id));
    if (a.ref) out.push(line(seg('ref      ', 'muted'), a.ref));
    const open = `unacknowledged (${KEYS.alerts.acknowledge.label})`;
    out.push(line(seg('status   ', 'muted'), a.acknowledged_at ? `acknowledged ${a.acknowledged_at}` : open));
  } else out.push(line(seg('a live condition: it clears itself once fixed', 'muted')));
  out.push([]);
  for (const text of wrap(item.message, Math.max(20, width - 2))) out.push(line(text));
  return out;
}
