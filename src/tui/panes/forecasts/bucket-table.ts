import type { DayQuote } from '../../../cache/index.js';
import type { MarketUnit } from '../../../contract/common.js';
import { parseBucketLabel } from '../../../domain/bucket-label.js';
import { bucketIsDead, bucketProbability, effectiveEdge, settledWhole } from '../../../domain/bucket-probability.js';
import { type Bucket, marketBuckets } from '../../../domain/buckets.js';
import { bar } from '../../format/charts.js';
import { percent, price } from '../../format/numbers.js';
import { cell } from '../../format/text.js';
import { utcStamp } from '../../format/time.js';
import { type Line, line, seg } from '../../theme.js';

/** What the buckets table is drawn from: the forecast and running high in the market's unit, and both venues. */
export interface BucketTableInput {
  marketUnit: MarketUnit;
  mu: number;
  sigma: number;
  /** The METAR high so far, in the market's unit, when the market is today's; else undefined. */
  runningHigh: number | undefined;
  mkta: DayQuote[];
  mktb: DayQuote[];
}

/** One row: a bucket (null when the venue's row names none we can read), its probability and both quotes. */
export interface BucketRow {
  label: string;
  bucket: Bucket | null;
  p: number | null;
  dead: boolean;
  mkta: DayQuote | undefined;
  mktb: DayQuote | undefined;
  /** The larger side of the effective edge over both venues, in price units, or null without a full quote. */
  edge: { side: 'YES' | 'NO'; venue: 'a' | 'b'; value: number } | null;
}

const keyOf = (q: DayQuote): string => q.bucket_slug ?? q.bucket_label ?? `#${q.id}`;

function bestEdge(p: number | null, a: DayQuote | undefined, b: DayQuote | undefined): BucketRow['edge'] {
  let best: BucketRow['edge'] = null;
  for (const [venue, q] of [
    ['a', a],
    ['b', b],
  ] as const) {
    if (p === null || !q || q.yes_price === null || q.no_price === null) continue;
    const e = effectiveEdge(p, q.yes_price, q.no_price);
    for (const [side, value] of [
      ['YES', e.yes],
      ['NO', e.no],
    ] as const)
      if (!best || value > best.value) best = { side, venue, value };
  }
  return best;
}

/**
 * The table's rows: the venues' own buckets (mkta's order, then any only mktb lists), else the buckets laid out
 * around the forecast as venues do. Each priced by DESIGN 4's bucket probability conditioned on the running high.
 */
export function bucketRows(v: BucketTableInput): BucketRow[] {
  const a = new Map(v.mkta.map((q) => [keyOf(q), q]));
  const b = new Map(v.mktb.map((q) => [keyOf(q), q]));
  const keys = [...new Set([...a.keys(), ...b.keys()])];
  const listed = keys.map((k) => {
    const qa = a.get(k);
    const qb = b.get(k);
    const label = qa?.bucket_label ?? qb?.bucket_label ?? null;
    return { label: label ?? '—', bucket: label ? parseBucketLabel(label) : null, qa, qb };
  });
  const rows = keys.length
    ? listed
    : marketBuckets(v.marketUnit, v.mu).map((bucket) => ({
        label: bucket.label,
        bucket,
        qa: undefined,
        qb: undefined,
      }));
  return rows.map(({ label, bucket, qa, qb }) => {
    const p = bucket ? bucketProbability(bucket, v.mu, v.sigma, v.runningHigh) : null;
    const dead = bucket ? bucketIsDead(bucket, v.runningHigh) : false;
    return { label, bucket, p, dead, mkta: qa, mktb: qb, edge: bestEdge(p, qa, qb) };
  });
}

const signedPoints = (n: number): string => `${n >= 0 ? '+' : ''}${(n * 100).toFixed(1)}`;

/** The newest snapshot instant of a venue's quotes, for the title. */
const newestAt = (quotes: DayQuote[]): number | null => {
  const times = quotes
    .map((q) => (q.snapshot_at ? Date.parse(q.snapshot_at) : Number.NaN))
    .filter((t) => !Number.isNaN(t));
  return times.length ? Math.max(...times) : null;
};

/** The table's title note: the distribution and each venue's newest snapshot. */
export function bucketTableNote(v: BucketTableInput): string {
  const u = `°${v.marketUnit}`;
  const venues = (['mkta', 'mktb'] as const).map((venue) => {
    const at = newestAt(v[venue]);
    return v[venue].length ? `${venue} snapshot ${at === null ? '—' : utcStamp(at)}` : '';
  });
  const source = venues.some(Boolean)
    ? venues.filter(Boolean).join(' · ')
    : 'no mkta snapshot cached: buckets laid out around the forecast';
  return `N(${v.mu.toFixed(1)}, ${v.sigma.toFixed(2)}) ${u} · ${source}`;
}

/**
 * The table's lines: bucket, model probability (with a bar, or `dead` once the running high has passed the
 * bucket's top), each venue's YES price and the larger side of the effective edge in points, with its venue.
 */
export function bucketTableLines(v: BucketTableInput, width: number): Line[] {
  const barWidth = Math.max(4, Math.min(14, width - 58));
  const out: Line[] = [];
  if (v.runningHigh !== undefined) {
    const whole = settledWhole(v.runningHigh);
    out.push(
      line(
        seg(`  METAR high so far ${v.runningHigh.toFixed(1)}°${v.marketUnit} (settles at ${whole} or more):`, 'muted'),
        seg(` buckets below ${whole}°${v.marketUnit} are dead`, 'muted'),
      ),
    );
  }
  out.push(
    line(
      seg(
        `  ${cell('bucket', 16)}${cell('model', 7, 'right')} ${cell('', barWidth)} ${cell('mkta', 6, 'right')} ${cell('mktb', 6, 'right')} ${cell('edge', 11, 'right')}`,
        'muted',
      ),
    ),
  );
  for (const r of bucketRows(v)) {
    const edge = r.edge ? `${r.edge.side} ${signedPoints(r.edge.value)}${r.edge.venue}` : '—';
    out.push(
      line(
        `  ${cell(r.label, 16)}${cell(percent(r.p, 1), 7, 'right')} `,
        r.dead ? seg(cell('dead', barWidth), 'muted') : seg(bar(r.p ?? 0, barWidth), 'good'),
        ` ${cell(price(r.mkta?.yes_price), 6, 'right')} ${cell(price(r.mktb?.yes_price), 6, 'right')} ${cell(edge, 11, 'right')}`,
      ),
    );
  }
  return out;
}
