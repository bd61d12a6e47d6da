import { describe, expect, it } from 'vitest';
import {
  breakthroughAlert,
  type CityDayMarket,
  dyingBucketAlerts,
  edgeAlerts,
} from '../../src/alerts/market-alerts.js';
import { alertNotification, killNotification, moreAlertsNotification } from '../../src/alerts/notifier.js';
import { boardDay } from '../../src/board/board-day.js';
import { parseBucketLabel } from '../../src/domain/bucket-label.js';
import { cityNames } from '../../src/domain/city-names.js';
import type { Holding } from '../../src/domain/held-buckets.js';
import { marketDay, PARIS, primary, quote, range } from '../board/fixtures.js';

/** The cached cities' names: New York's and Munich's; a city not cached goes by its id. */
const name = cityNames([
  { city_id: 'nyc', city_name: 'New York City' },
  { city_id: 'munich', city_name: 'Munich' },
]);
const AT = '2026-11-24T11:00:00.000Z';
const MUNICH = { ...PARIS, city_id: 'munich', city_name: 'Munich', tz: 'Europe/Berlin' };

/** Munich's market day (°C) as the board works it out, forecast N(10, 1) °C, with the holdings the rules watch. */
const munich = (day: Parameters<typeof marketDay>[0], holdings: Holding[] = []): CityDayMarket => ({
  day: boardDay(marketDay({ city: MUNICH, forecast: primary(10, 1), ...day })),
  holdings,
});

describe('desktop notifications: what happened and the city’s name in the title', () => {
  it('an edge: the points and the city above, the bucket, price and model probability below', () => {
    // the rule's own alert (market-alerts.ts), so a change of its message shows here:
    // p(10°C) with N(10, 1) = P(9.5 <= X < 10.5) = Phi(0.5) - Phi(-0.5) = 0.382925; mkta YES 0.29 / NO 0.73:
    // cost max(0.01, (1.02 - 1) / 2) = 0.01; YES 0.382925 - 0.29 - 0.01 = 0.082925: +8.3 points, model 38.3%
    const m = munich({ mkta: [quote('10°C', 0.29, 0.73)] });
    const [edge] = edgeAlerts(m, 0.08, new Set(), AT).alerts;
    expect(edge?.message).toBe('munich 2026-11-24: edge +8.3 points on YES 10°C at 0.29 on mkta (model 38.3%)');
    expect(alertNotification({ kind: 'edge', city_id: 'munich', message: edge?.message as string }, name)).toEqual({
      title: 'Edge +8.3 pts · Munich',
      message: 'YES 10°C at 0.29 on mkta · model 38.3% · 2026-11-24',
      urgency: 'normal',
    });
  });

  it('a dying bucket, loudly, and a breakthrough: the city once, in the title', () => {
    const held = { family: 'no24', ref: '12', side: 'YES', shares: 10, stake: 4, bucket: parseBucketLabel('9°C') };
    // a running high of 10 °C: the 9°C bucket held YES is dead; at least 9.5 °C, above the warmest model's 9.4 °C
    const m = munich({ highC: 10, range: range(48.9, 9.4) }, [held as Holding]);
    const [dying] = dyingBucketAlerts(m, AT);
    const shown = alertNotification(
      { kind: 'dying-bucket', city_id: 'munich', message: dying?.message as string },
      name,
    );
    expect(shown.title).toBe('Dying bucket · Munich');
    expect(shown.message).toMatch(/^held bucket 9°C died, .* \(no24 12\) · 2026-11-24$/);
    expect(shown.message).not.toContain('munich');
    expect(shown.urgency).toBe('critical');
    const breakthrough = breakthroughAlert(m, AT);
    expect(
      alertNotification({ kind: 'breakthrough', city_id: 'munich', message: breakthrough?.message as string }, name),
    ).toEqual({
      title: 'Breakthrough · Munich',
      message:
        "METAR high 10.0°C at 17:00 local (at least 9.5°C) is above every model's Tmax then (warmest 9.4°C): forecast breakthrough · 2026-11-24",
      urgency: 'normal',
    });
  });

  it('a kill: what to do first, the legs, the reason and the day; a city not cached by its id', () => {
    const signal = {
      market: { city: 'nyc', market_date: '2026-11-24' },
      legs: [
        { leg: 'A', bucket_label: '64-65°F' },
        { leg: 'B', bucket_label: '66-67°F' },
      ],
      kill: { sell_at_market: true, reason: 'METAR high 68°F' },
    };
    expect(killNotification(signal, name)).toEqual({
      title: 'Kill · New York City',
      message: 'SELL AT MARKET: legs A 64-65°F, B 66-67°F. METAR high 68°F (2026-11-24)',
    });
    expect(killNotification({ ...signal, market: { city: 'oslo', market_date: '2026-11-24' } }, name).title).toBe(
      'Kill · oslo',
    );
  });

  it('text from outside stays one inert line; a message of another shape is shown whole', () => {
    const odd = { kind: 'edge', city_id: 'nyc', message: 'held bucket died\u001b]52;c;x\u0007' };
    expect(alertNotification(odd, name)).toEqual({
      title: 'Edge · New York City',
      message: 'held bucket died ]52;c;x ',
      urgency: 'normal',
    });
  });

  it('the rest of a burst in one notification: how many of each kind, and the cities by name', () => {
    const rest = [
      { kind: 'edge', city_id: 'munich' },
      { kind: 'edge', city_id: 'nyc' },
      { kind: 'breakthrough', city_id: 'munich' },
      { kind: 'edge', city_id: 'rome' },
    ];
    expect(moreAlertsNotification(rest, name)).toEqual({
      title: 'svc-monitor: 4 more alerts',
      message: '3 edge, 1 breakthrough (Munich, New York City, rome): see the Alerts pane',
      urgency: 'normal',
    });
    expect(moreAlertsNotification([...rest, { kind: 'dying-bucket', city_id: 'oslo' }], name).urgency).toBe('critical');
  });
});
