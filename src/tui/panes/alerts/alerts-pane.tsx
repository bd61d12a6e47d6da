import { useMemo } from 'react';
import type { City } from '../../../contract/cities.js';
import { cityNames } from '../../../domain/city-names.js';
import { LineView } from '../../components/line-view.js';
import { localClock } from '../../format/time.js';
import { useSnoozes } from '../../hooks/use-snoozes.js';
import { hintOf, KEYS } from '../../keys.js';
import { type Line, line, seg, selectLine } from '../../theme.js';
import { alertLine } from './alert-lines.js';
import { useAlertsInput } from './use-alerts-input.js';
import { useAlertsState } from './use-alerts-state.js';

const HINT = [
  hintOf(KEYS.alerts.acknowledge),
  hintOf(KEYS.alerts.acknowledgeAll, 'all'),
  hintOf(KEYS.alerts.snooze),
  hintOf(KEYS.alerts.board),
  hintOf(KEYS.lists.detail),
].join(' · ');

/**
 * Pane 4: kills first and loud, then rejected webhooks and everything else that needs a look, each newest first by
 * its own instant; `a` acknowledges, `A` every alert shown; `z` snoozes the alert's city (the snoozed cities are
 * listed under the header, until when on their clock); `b` opens the Board at its city; Enter shows an alert in full
 * (a rejected webhook with its reason and body, escaped).
 */
export function AlertsPane({ width, height, cities }: { width: number; height: number; cities: readonly City[] }) {
  const name = useMemo(() => cityNames(cities), [cities]);
  const zoneOf = useMemo(() => {
    const zones = new Map(cities.map((c) => [c.city_id, c.tz]));
    return (id: string) => zones.get(id) ?? null;
  }, [cities]);
  const snoozes = useSnoozes();
  const state = useAlertsState(Math.max(1, height - (snoozes.length > 0 ? 2 : 1)));
  useAlertsInput(state, width, name, zoneOf);
  const { list, counts } = state;

  const header = line(
    seg(`${counts.unacknowledged} unacknowledged`, counts.unacknowledged > 0 ? 'warn' : 'good', true),
    counts.kills > 0 ? seg(`  !! ${counts.kills} KILL${counts.kills > 1 ? 'S' : ''} to act on`, 'alarm', true) : '',
    seg(`   ${HINT}`, 'muted'),
  );
  const lines: Line[] = [header];
  if (snoozes.length > 0) {
    // until when on the city's own clock: the market's minutes, which a reference service at --speed runs faster
    const until = (s: (typeof snoozes)[number]) => {
      const zone = zoneOf(s.city_id);
      return zone ? `${localClock(s.untilMs, zone)} local` : `${localClock(s.untilMs, null)}Z`;
    };
    const which = snoozes.map((s) => `${name(s.city_id)} until ${until(s)}`).join(', ');
    lines.push(line(seg(`snoozed (no notification): ${which}`, 'muted')));
  }
  if (list.rows.length === 0) lines.push(line(seg('  Nothing to report.', 'good')));
  list.rows.forEach((item, i) => {
    lines.push(selectLine(alertLine(item, name, width, zoneOf), i === list.selected));
  });
  return <LineView lines={lines} width={width} height={height} />;
}
