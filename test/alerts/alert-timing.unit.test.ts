import { describe, expect, it } from 'vitest';
import { clockRateOf, markCatchUp, marketIntervals } from '../../src/alerts/alert-timing.js';
import type { NewAlert } from '../../src/cache/index.js';

const alert = (kind: NewAlert['kind'], at: string, message = ''): NewAlert => ({
  severity: 'info',
  kind,
  message,
  created_at: at,
});
const NOW = Date.parse('2026-11-24T12:00:00Z');

describe('an alert found late (DESIGN 4 "alerts in time")', () => {
  it('is catch-up past two poll intervals of its stream, counted on the market’s clock', () => {
    // METAR every minute: 11:58:00 is exactly two intervals back (fresh), 11:57:59 one second more (late)
    const [fresh, late] = markCatchUp(
      [alert('dying-bucket', '2026-11-24T11:58:00Z'), alert('dying-bucket', '2026-11-24T11:57:59Z')],
      NOW,
    );
    expect([fresh?.catch_up, late?.catch_up]).toEqual([undefined, true]);
    // an edge on mktb polled every 5 minutes: 11:51 is 9 minutes back, within 2 x 5
    const onMktb = {
      ...alert('edge', '2026-11-24T11:51:00Z', 'x on mktb (model 1%)'),
      stream: 'mktb-buckets' as const,
    };
    const [edge] = markCatchUp([onMktb], NOW, {
      'mktb-buckets': 300_000,
    });
    expect(edge?.catch_up).toBeUndefined();
    // a service at x120 with the streams a minute apart: 2 x 60 s x 120 = 4 hours of its clock
    const [demo] = markCatchUp([alert('dying-bucket', '2026-11-24T08:01:00Z')], NOW, marketIntervals({}, 120));
    expect(demo?.catch_up).toBeUndefined();
  });

  it('gives an edge the slowest of its venue, the METAR and the forecasts to be found in', () => {
    // the board offers an edge only once the forecasts stream (every 5 minutes by default) has passed its snapshot:
    // 2 x 300 s = 10 minutes. 11:50:00 is exactly 10 minutes back (fresh), 11:49:59 a second more (late)
    const onMkta = (at: string) => ({ ...alert('edge', at), stream: 'mkta-buckets' as const });
    const [fresh, late] = markCatchUp([onMkta('2026-11-24T11:50:00Z'), onMkta('2026-11-24T11:49:59Z')], NOW);
    expect([fresh?.catch_up, late?.catch_up]).toEqual([undefined, true]);
    // a METAR polled every 15 minutes makes it 30
    const [slowMetar] = markCatchUp([onMkta('2026-11-24T11:31:00Z')], NOW, { metar: 900_000 });
    expect(slowMetar?.catch_up).toBeUndefined();
  });

  it('has the market’s clock rate from two stream passes seconds apart on the host’s', () => {
    // 4 s apart on the host, 8 minutes on the market's clock: 480 s / 4 s = 120
    expect(
      clockRateOf([
        { last_success_at: '2026-11-24T12:00:00Z', last_success_host_ms: 1_000_000 },
        { last_success_at: '2026-11-24T12:08:00Z', last_success_host_ms: 1_004_000 },
      ]),
    ).toBe(120);
    // a real service: 4 s and 4.2 s, alike
    expect(
      clockRateOf([
        { last_success_at: '2026-11-24T12:00:00.000Z', last_success_host_ms: 1_000_000 },
        { last_success_at: '2026-11-24T12:00:04.200Z', last_success_host_ms: 1_004_000 },
      ]),
    ).toBe(1);
    // too close together, or only one: nothing said
    expect(
      clockRateOf([
        { last_success_at: '2026-11-24T12:00:00Z', last_success_host_ms: 1_000_000 },
        { last_success_at: '2026-11-24T12:01:00Z', last_success_host_ms: 1_000_500 },
      ]),
    ).toBeNull();
    expect(clockRateOf([{ last_success_at: '2026-11-24T12:00:00Z', last_success_host_ms: 1 }])).toBeNull();
  });
});
