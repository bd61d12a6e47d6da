import type { CityName } from '../../../domain/city-names.js';
import { cell, wrap } from '../../format/text.js';
import { localClock, utcStamp } from '../../format/time.js';
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

/**
 * A message in `width` columns, read from its start: whole when it fits; else its closing parenthesis (who held the
 * bucket, the model's figure) gives way to `(…)`, then it ends at a word with `…`. Enter shows it whole.
 */
export function fitMessage(text: string, width: number): string {
  if (text.length <= width) return text;
  const bare = text.replace(/ \([^()]*\)$/, ' (…)');
  if (bare.length <= width) return bare;
  const cut = bare.slice(0, Math.max(0, width - 1));
  const space = cut.lastIndexOf(' ');
  return `${space > width / 2 ? cut.slice(0, space) : cut}…`;
}

/** A city's zone by its id (null: a city the cache does not list): where an alert's local times are said. */
export type ZoneOf = (cityId: string) => string | null;

/**
 * What an alert's state in time adds before its message (DESIGN 4 "alerts in time"): an edge the board no longer
 * shows reads `gone HH:MM at 0.98` (the city's local time of the snapshot where it fell below, the side's price
 * then); one found late reads `catch-up` (it was never notified).
 */
export function stateWords(item: AlertItem, zoneOf: ZoneOf): string {
  const a = item.stored;
  if (!a) return '';
  const words: string[] = [];
  if (a.gone_ms != null) {
    const zone = a.city_id === null ? null : zoneOf(a.city_id);
    const price = a.gone_price == null ? '' : ` at ${a.gone_price.toFixed(2)}`;
    words.push(`gone ${localClock(a.gone_ms, zone)}${zone ? '' : 'Z'}${price}`);
  }
  if (a.catch_up) words.push('catch-up');
  return words.length === 0 ? '' : `${words.join(', ')} · `;
}

/** The columns before an alert's message: the cursor, the marker and the time. */
const BEFORE_MESSAGE = 2 + 13 + 13;

/**
 * One row of the pane, `width` wide: marker, when (`now` for a live condition), message (muted once acknowledged),
 * fitted to the row (fitMessage).
 */
export function alertLine(item: AlertItem, name: CityName, width: number, zoneOf: ZoneOf = () => null): Line {
  return [
    seg(cell(item.marker, 13), item.tone, true),
    seg(cell(item.when ? utcStamp(Date.parse(item.when)) : 'now', 13), 'muted'),
    seg(
      fitMessage(`${stateWords(item, zoneOf)}${namedMessage(item, name)}`, width - BEFORE_MESSAGE),
      item.stored?.acknowledged_at || item.stored?.gone_ms != null ? 'muted' : undefined,
    ),
  ];
}

/** What Enter shows of an alert: where it came from, whether it was acknowledged, the whole message. */
export function alertDetail(item: AlertItem, width: number, name: CityName, zoneOf: ZoneOf = () => null): Line[] {
  const out: Line[] = [line(seg(item.marker, item.tone, true))];
  if (item.stored) {
    const a = item.stored;
    out.push(
      line(seg('raised   ', 'muted'), `${a.created_at} (the reading or snapshot that made it true)`),
      line(seg('kind     ', 'muted'), `${a.kind} (${a.severity})`),
    );
    if (a.catch_up) out.push(line(seg('found    ', 'muted'), 'late (catch-up): not notified'));
    if (a.city_id) {
      const to = `${KEYS.alerts.board.label}: the Board at it`;
      out.push(line(seg('city     ', 'muted'), `${name(a.city_id)} (${a.city_id})  ${to}`));
    }
    if (a.gone_ms != null) {
      const zone = a.city_id === null ? null : zoneOf(a.city_id);
      const price = a.gone_price == null ? '' : ` at ${a.gone_price.toFixed(2)}`;
      const when = zone ? `${localClock(a.gone_ms, zone)} local` : utcStamp(a.gone_ms);
      out.push(line(seg('gone     ', 'muted'), `${when}${price}: the board shows the edge below edge_min since`));
    }
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
