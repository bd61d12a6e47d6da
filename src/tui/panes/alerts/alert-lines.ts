import type { CityName } from '../../../domain/city-names.js';
import { cell, wrap } from '../../format/text.js';
import { utcStamp } from '../../format/time.js';
import { KEYS } from '../../keys.js';
import { type Line, line, seg } from '../../theme.js';
import type { AlertItem } from './alert-items.js';

/**
 * An alert's message as a person reads it: a trader alert's starts `CITY DATE:` and a kill's `KILL CITY DATE:`
 * (alerts/), said here with the city's name, as the board says it. The stored message keeps the id (`export alerts`).
 */
export function namedMessage(item: AlertItem, name: CityName): string {
  const { city, message } = item;
  if (city === null) return message;
  const head = message.startsWith('KILL ') ? 'KILL ' : '';
  const after = message.slice(head.length);
  return after.startsWith(`${city} `) && /^\d{4}-\d{2}-\d{2}:/.test(after.slice(city.length + 1))
    ? `${head}${name(city)}${after.slice(city.length)}`
    : message;
}

/** One row of the pane: marker, when (`now` for a live condition), message (muted once acknowledged). */
export function alertLine(item: AlertItem, name: CityName): Line {
  return [
    seg(cell(item.marker, 13), item.tone, true),
    seg(cell(item.when ? utcStamp(Date.parse(item.when)) : 'now', 13), 'muted'),
    seg(namedMessage(item, name), item.stored?.acknowledged_at ? 'muted' : undefined),
  ];
}

/** What Enter shows of an alert: where it came from, whether it was acknowledged, the whole message. */
export function alertDetail(item: AlertItem, width: number, name: CityName): Line[] {
  const out: Line[] = [line(seg(item.marker, item.tone, true))];
  if (item.stored) {
    const a = item.stored;
    out.push(
      line(seg('raised   ', 'muted'), a.created_at),
      line(seg('kind     ', 'muted'), `${a.kind} (${a.severity})`),
    );
    if (a.city_id) out.push(line(seg('city     ', 'muted'), `${name(a.city_id)} (${a.city_id})`));
    if (a.ref) out.push(line(seg('ref      ', 'muted'), a.ref));
    const open = `unacknowledged (${KEYS.alerts.acknowledge.label})`;
    out.push(line(seg('status   ', 'muted'), a.acknowledged_at ? `acknowledged ${a.acknowledged_at}` : open));
  } else if (item.when) {
    // time travel's trader alert: the rules worked it out again as of the instant; it was never stored
    out.push(line(seg('raised   ', 'muted'), item.when));
    if (item.city) out.push(line(seg('city     ', 'muted'), `${name(item.city)} (${item.city})`));
    out.push(line(seg('status   ', 'muted'), 'unacknowledged then: worked out again for the replay, not stored'));
  } else out.push(line(seg('a live condition: it clears itself once fixed', 'muted')));
  out.push([]);
  for (const text of wrap(namedMessage(item, name), Math.max(20, width - 2))) out.push(line(text));
  return out;
}
