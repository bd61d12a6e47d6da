import { useMemo } from 'react';
import type { City } from '../../../contract/cities.js';
import { cityNames } from '../../../domain/city-names.js';
import { LineView } from '../../components/line-view.js';
import { useSnoozes } from '../../hooks/use-snoozes.js';
import { hintOf, KEYS } from '../../keys.js';
import { type Line, line, seg, selectLine } from '../../theme.js';
import { alertLine } from './alert-lines.js';
import { useAlertsInput } from './use-alerts-input.js';
import { useAlertsState } from './use-alerts-state.js';

const HINT = [hintOf(KEYS.alerts.acknowledge), hintOf(KEYS.alerts.snooze), hintOf(KEYS.lists.detail)].join(' · ');

/**
 * Pane 4: kills first and loud, then rejected webhooks and everything else that needs a look; `a` acknowledges;
 * `z` snoozes the alert's city (the snoozed cities are listed under the header); Enter shows an alert in full (a
 * rejected webhook with its reason and body, escaped).
 */
export function AlertsPane({ width, height, cities }: { width: number; height: number; cities: readonly City[] }) {
  const name = useMemo(() => cityNames(cities), [cities]);
  const snoozes = useSnoozes();
  const state = useAlertsState(Math.max(1, height - (snoozes.length > 0 ? 2 : 1)));
  useAlertsInput(state, width, name);
  const { list, counts } = state;

  const header = line(
    seg(`${counts.unacknowledged} unacknowledged`, counts.unacknowledged > 0 ? 'warn' : 'good', true),
    counts.kills > 0 ? seg(`  !! ${counts.kills} KILL${counts.kills > 1 ? 'S' : ''} to act on`, 'alarm', true) : '',
    seg(`   ${HINT}`, 'muted'),
  );
  const lines: Line[] = [header];
  if (snoozes.length > 0) {
    const which = snoozes.map((s) => `${name(s.city_id)} ${s.minutesLeft}m`).join(', ');
    lines.push(line(seg(`snoozed (no notification): ${which}`, 'muted')));
  }
  if (list.rows.length === 0) lines.push(line(seg('  Nothing to report.', 'good')));
  list.rows.forEach((item, i) => {
    lines.push(selectLine(alertLine(item, name, width), i === list.selected));
  });
  return <LineView lines={lines} width={width} height={height} />;
}
