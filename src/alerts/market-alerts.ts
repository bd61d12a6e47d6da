import type { MarketAlertWrite, NewAlert } from '../cache/index.js';
import type { MarketUnit } from '../contract/common.js';
import { parseBucketLabel } from '../domain/bucket-label.js';
import { bucketProbability, effectiveEdge, settledWhole } from '../domain/bucket-probability.js';
import { dyingHoldings, type Holding, isBreakthrough } from '../domain/held-buckets.js';

/** A venue's newest quote of one bucket, as the rules read it (cache/market's DayQuote has these fields). */
export interface VenueQuote {
  bucket_label: string | null;
  yes_price: number | null;
  no_price: number | null;
}

/** Everything the trader alert rules look at for one city's market day, all temperatures in the market's unit. */
export interface CityDayMarket {
  cityId: string;
  /** The market's local date. */
  date: string;
  unit: MarketUnit;
  /** The METAR high so far when the market is today's; undefined before the first reading or for another day. */
  runningHigh: number | undefined;
  /** `svc_pro_forecast` for this date: the mean and spread of the day's high. */
  forecast: { mu: number; sigma: number } | null;
  /** The warmest model's Tmax for this date (`model_tmax_range.tmax_max`). */
  modelsMax: number | null;
  quotes: { mkta: readonly VenueQuote[]; mktb: readonly VenueQuote[] };
  holdings: readonly Holding[];
}

/** An alert a rule raises, stored once its kind and ref have not been raised yet when `once`. */
export type RuleAlert = NewAlert & { once?: boolean };

const deg = (value: number, unit: MarketUnit) => `${value.toFixed(1)}°${unit}`;
const points = (edge: number) => `${edge >= 0 ? '+' : ''}${(edge * 100).toFixed(1)}`;
const dayRef = (m: CityDayMarket) => `${m.cityId}|${m.date}`;

/**
 * A held bucket died: the running high settled above its top, so every YES held on it is lost. One alert a bucket
 * of a city-day (ref city|date|bucket), naming every holding on it and what they staked.
 */
export function dyingBucketAlerts(m: CityDayMarket, createdAt: string): RuleAlert[] {
  if (m.runningHigh === undefined) return [];
  const byBucket = new Map<string, Holding[]>();
  for (const h of dyingHoldings(m.holdings, m.runningHigh)) {
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
      city_id: m.cityId,
      created_at: createdAt,
      once: true,
      message:
        `${m.cityId} ${m.date}: held bucket ${label} died, METAR high so far ${deg(m.runningHigh as number, m.unit)} ` +
        `settles at ${settledWhole(m.runningHigh as number)}°${m.unit} or more; YES ${Number(shares.toFixed(2))} shares, ` +
        `${staked.toFixed(2)} USD staked (${who})`,
    };
  });
}

/** The running high is above every model's Tmax: the forecasts are behind the day. Once a city-day. */
export function breakthroughAlert(m: CityDayMarket, createdAt: string): RuleAlert | undefined {
  if (!isBreakthrough(m.runningHigh, m.modelsMax)) return undefined;
  return {
    severity: 'warning',
    kind: 'breakthrough',
    ref: dayRef(m),
    city_id: m.cityId,
    created_at: createdAt,
    once: true,
    message:
      `${m.cityId} ${m.date}: METAR high so far ${deg(m.runningHigh as number, m.unit)} is above every model's ` +
      `Tmax (warmest ${deg(m.modelsMax as number, m.unit)}): forecast breakthrough`,
  };
}

/**
 * The edge rule's arming, one city-day-bucket-side: an armed side alerts once its edge reaches `edgeMin`, and is
 * re-armed only once the edge has fallen below half of it (so an edge hovering at the threshold alerts once).
 */
export function edgeArming(edge: number, edgeMin: number, fired: boolean): 'alert' | 'rearm' | 'hold' {
  if (!fired) return edge >= edgeMin ? 'alert' : 'hold';
  return edge < edgeMin / 2 ? 'rearm' : 'hold';
}

interface SideEdge {
  value: number;
  venue: 'mkta' | 'mktb';
  price: number;
}

/**
 * Effective edge at or above `edgeMin` appeared on a bucket: DESIGN 4's effective edge of each side of each quoted
 * bucket (the better venue), the bucket's probability from `svc_pro_forecast` conditioned on the running high.
 * `fired` holds the refs (city|date|bucket|side) alerted and not re-armed; what this pass fires and re-arms is
 * returned with the alerts, for the cache to keep.
 */
export function edgeAlerts(
  m: CityDayMarket,
  edgeMin: number,
  fired: ReadonlySet<string>,
  createdAt: string,
): Omit<MarketAlertWrite, 'alerts'> & { alerts: RuleAlert[] } {
  const out: ReturnType<typeof edgeAlerts> = { alerts: [], fired: [], rearmed: [] };
  if (!m.forecast) return out;
  const { mu, sigma } = m.forecast;
  const sides = new Map<string, { label: string; side: 'YES' | 'NO'; p: number; best: SideEdge }>();
  for (const venue of ['mkta', 'mktb'] as const) {
    for (const q of m.quotes[venue]) {
      const bucket = q.bucket_label === null ? null : parseBucketLabel(q.bucket_label);
      if (!bucket || bucket.unit !== m.unit || q.yes_price === null || q.no_price === null) continue;
      const p = bucketProbability(bucket, mu, sigma, m.runningHigh);
      const e = effectiveEdge(p, q.yes_price, q.no_price);
      for (const [side, value, price] of [
        ['YES', e.yes, q.yes_price],
        ['NO', e.no, q.no_price],
      ] as const) {
        const ref = `${dayRef(m)}|${bucket.label}|${side}`;
        const seen = sides.get(ref);
        if (!seen || value > seen.best.value)
          sides.set(ref, { label: bucket.label, side, p, best: { value, venue, price } });
      }
    }
  }
  for (const [ref, s] of sides) {
    const arming = edgeArming(s.best.value, edgeMin, fired.has(ref));
    if (arming === 'rearm') out.rearmed.push(ref);
    if (arming !== 'alert') continue;
    out.fired.push({ ref, city_id: m.cityId, local_date: m.date });
    const model = s.side === 'YES' ? s.p : 1 - s.p;
    out.alerts.push({
      severity: 'info',
      kind: 'edge',
      ref,
      city_id: m.cityId,
      created_at: createdAt,
      message:
        `${m.cityId} ${m.date}: edge ${points(s.best.value)} points on ${s.side} ${s.label} at ` +
        `${s.best.price.toFixed(2)} on ${s.best.venue} (model ${(model * 100).toFixed(1)}%)`,
    });
  }
  return out;
}

/** Every trader alert rule over one city's market day: what the cache is to store for it. */
export function marketAlerts(
  m: CityDayMarket,
  edgeMin: number,
  fired: ReadonlySet<string>,
  createdAt: string,
): MarketAlertWrite {
  const edges = edgeAlerts(m, edgeMin, fired, createdAt);
  const breakthrough = breakthroughAlert(m, createdAt);
  return {
    alerts: [...dyingBucketAlerts(m, createdAt), ...(breakthrough ? [breakthrough] : []), ...edges.alerts],
    fired: edges.fired,
    rearmed: edges.rearmed,
  };
}
