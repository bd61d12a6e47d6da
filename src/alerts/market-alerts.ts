import { type BoardDay, localClockOf } from '../board/board-day.js';
import type { PricedBucket } from '../board/priced-day.js';
import type { MarketAlertWrite, NewAlert, Venue } from '../cache/index.js';
import type { MarketUnit } from '../contract/common.js';
import type { Bucket } from '../domain/buckets.js';
import { isoUtc } from '../domain/city-time.js';
import { dyingHoldings, type Holding } from '../domain/held-buckets.js';
import { settledValue } from '../domain/settlement.js';
import type { PolledStream } from '../domain/streams.js';

/**
 * What the trader alert rules look at for one city's market day: the day as the board works it out (board/: its
 * buckets priced under the market's settlement rule, their edges on both venues, the running high, CHECK) and the
 * open holdings of the day. The rules compute no price or edge of their own.
 */
export interface CityDayMarket {
  day: BoardDay;
  holdings: readonly Holding[];
  /**
   * The `observed_at` (epoch ms) of the METAR reading that set the running high (the market day's `metar.high.since`):
   * what a dying bucket is stamped with (DESIGN 4 "alerts in time"). Absent: the pass's instant.
   */
  highSinceMs?: number | null;
}

/**
 * An alert a rule raises, stored once its kind and ref have not been raised yet when `once`. `stream`: the polled
 * stream whose reading or snapshot made it true, where its kind does not say (alert-timing.ts judges by its interval
 * whether the alert was found late).
 */
export type RuleAlert = NewAlert & { once?: boolean; stream?: PolledStream };

/**
 * What the board's record says of edges like one (board/edge-band-record.ts: its band and venue over the cache's
 * settled days), as an alert's text says it; absent, the alert says nothing of it (time travel's replay).
 */
export type EdgeRecordText = (edge: number, venue: Venue) => string | null;

const deg = (value: number, unit: MarketUnit) => `${value.toFixed(1)}°${unit}`;
const points = (edge: number) => `${edge >= 0 ? '+' : ''}${(edge * 100).toFixed(1)}`;
const dayRef = ({ day }: CityDayMarket) => `${day.cityId}|${day.date}`;

/**
 * A held bucket died: the running high settles above every value it holds, so every YES held on it is lost. One
 * alert a bucket of a city-day (ref city|date|bucket), naming every holding on it and what they staked. Stamped with
 * the reading that set the running high (the one that killed the bucket), not the pass that noticed it.
 */
export function dyingBucketAlerts(m: CityDayMarket, createdAt: string): RuleAlert[] {
  const { day } = m;
  const killedAt = typeof m.highSinceMs === 'number' ? isoUtc(m.highSinceMs) : createdAt;
  if (day.runningHighC === null || day.runningHigh === null) return [];
  const settles = settledValue(day.runningHighC, day.unit);
  const byBucket = new Map<string, Holding[]>();
  for (const h of dyingHoldings(m.holdings, day.market, day.runningHighC)) {
    byBucket.set(h.bucket.label, [...(byBucket.get(h.bucket.label) ?? []), h]);
  }
  return [...byBucket].map(([label, held]) => {
    const staked = held.reduce((sum, h) => sum + h.stake, 0);
    const shares = held.reduce((sum, h) => sum + h.shares, 0);
    const who = held.map((h) => `${h.family} ${h.ref}`).join(', ');
    return {
      severity: 'high',
      kind: 'dying-bucket',
      ref: `${dayRef(m)}|${label}`,
      city_id: day.cityId,
      created_at: killedAt,
      once: true,
      message:
        `${day.cityId} ${day.date}: held bucket ${label} died, METAR high so far ${deg(day.runningHigh as number, day.unit)} ` +
        `settles at ${settles}°${day.unit} or more; YES ${Number(shares.toFixed(2))} shares, ` +
        `${staked.toFixed(2)} USD staked (${who})`,
    };
  });
}

/**
 * BREAKTHROUGH (board-day's `breakthroughAt`, domain/breakthrough.ts): a reading's least true high was above every
 * model's Tmax published by then, so the forecasts are behind the day. Once a city-day, stamped with that reading's
 * instant (DESIGN 4 "alerts in time"), never the pass's (`_passAt`, which every rule is given): the board as of it
 * shows the flag.
 */
export function breakthroughAlert(m: CityDayMarket, _passAt?: string): RuleAlert | undefined {
  const { day } = m;
  const at = day.breakthroughAt;
  if (at === null) return undefined;
  return {
    severity: 'warning',
    kind: 'breakthrough',
    ref: dayRef(m),
    city_id: day.cityId,
    created_at: isoUtc(at.atMs),
    once: true,
    message:
      `${day.cityId} ${day.date}: METAR high ${deg(at.high, day.unit)} at ${localClockOf(at.atMs, day.tz).text} ` +
      `local (at least ${deg(at.least, day.unit)}) is above every model's Tmax then (warmest ` +
      `${deg(at.warmest, day.unit)}): forecast breakthrough`,
  };
}

/**
 * An effective edge at or above `edgeMin` appeared on the day: the board's effective edge of each side of each quoted
 * bucket (its better venue; DESIGN 4's probability under the market's settlement rule, conditioned on the running
 * high). Once a city-day, for the day's best side at the first pass any side reaches `edgeMin`: the edges of one day
 * are one view of its high (YES on the bucket the model likes is NO on its neighbours), so a second alert would say
 * it again; the board shows how it moves after. `fired` holds the refs (city|date|bucket|side) alerted on the day;
 * what this pass fires is returned for the cache to keep. A bucket without a p (no usable forecast, a label the
 * monitor cannot read) has no edge; nor does a venue whose price and the model are not of the same instant
 * (board/same-instant.ts: a report not fetched yet, a price older than the desk's run): the board offers no side of
 * it.
 */
export function edgeAlerts(
  m: CityDayMarket,
  edgeMin: number,
  fired: ReadonlySet<string>,
  createdAt: string,
  record?: EdgeRecordText,
): Omit<MarketAlertWrite, 'alerts'> & { alerts: RuleAlert[] } {
  const out: ReturnType<typeof edgeAlerts> = { alerts: [], fired: [] };
  const { day } = m;
  // the board's own best edge (board/best-edge.ts): positive, at an offer, of a venue comparable with the model, so an
  // alert never names a side the board calls `no edge` (a YES at 0.01, a NO at 0.99)
  const best = day.best;
  if (fired.size > 0 || best === null || best.edge < edgeMin) return out;
  const { bucket: priced, ...s } = best;
  const bucket = priced as PricedBucket & { bucket: Bucket; p: number };
  const snapshotMs = day.snapshotMs[s.venue];
  const snapshotAt = snapshotMs === null ? null : isoUtc(snapshotMs);
  const ref = `${dayRef(m)}|${bucket.bucket.label}|${s.side}`;
  out.fired.push({ ref, city_id: day.cityId, local_date: day.date });
  const model = s.side === 'YES' ? bucket.p : 1 - bucket.p;
  // DESIGN 4 "an edge's own record": what edges of its band on its venue did in this cache, inside the parenthesis
  const own = record?.(s.edge, s.venue);
  out.alerts.push({
    severity: 'info',
    kind: 'edge',
    ref,
    // its venue's snapshots make it true: found late is judged by that stream's interval (alert-timing.ts)
    stream: s.venue === 'mktb' ? 'mktb-buckets' : 'mkta-buckets',
    city_id: day.cityId,
    // the instant of the price (board/same-instant.ts): the board as of it shows this edge
    created_at: snapshotAt ?? createdAt,
    message:
      `${day.cityId} ${day.date}: edge ${points(s.edge)} points on ${s.side} ${bucket.bucket.label} at ` +
      `${s.price.toFixed(2)} on ${s.venue} (model ${(model * 100).toFixed(1)}%${own ? `; ${own}` : ''})`,
  });
  return out;
}

/**
 * Every trader alert rule over one city's market day: what the cache is to store for it. A CHECK day (the running
 * high far outside the forecast, a bad METAR most likely) raises nothing: the board flags it instead, and an edge
 * armed before stays as it was.
 */
export function marketAlerts(
  m: CityDayMarket,
  edgeMin: number,
  fired: ReadonlySet<string>,
  createdAt: string,
  record?: EdgeRecordText,
): MarketAlertWrite {
  if (m.day.check) return { alerts: [], fired: [] };
  const edges = edgeAlerts(m, edgeMin, fired, createdAt, record);
  const breakthrough = breakthroughAlert(m, createdAt);
  return {
    alerts: [...dyingBucketAlerts(m, createdAt), ...(breakthrough ? [breakthrough] : []), ...edges.alerts],
    fired: edges.fired,
  };
}
