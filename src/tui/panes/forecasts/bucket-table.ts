import type { PricedBucket, PricedDay } from '../../../board/priced-day.js';
import type { Behind } from '../../../board/same-instant.js';
import type { DayQuote } from '../../../cache/index.js';
import { settledValue, wholeDegreesC } from '../../../domain/settlement.js';
import { cToF } from '../../../domain/units.js';
import { bar } from '../../format/charts.js';
import { percent, price } from '../../format/numbers.js';
import { cell } from '../../format/text.js';
import { utcStamp } from '../../format/time.js';
import { type Line, line, seg } from '../../theme.js';

/** What the buckets table is drawn from: the day priced by the board (board/), and the forecast in the market's unit. */
export type BucketTableInput = PricedDay & { shown: { mu: number; sigma: number } | null };

/** Why a venue's prices offer no edge (board/same-instant.ts), beside its snapshot's time. */
const BEHIND_NOTE: Record<Behind, string> = {
  model: 'newer than the METAR or forecast held',
  prices: 'older than the forecast or the high',
};

const signedPoints = (n: number): string => `${n >= 0 ? '+' : ''}${(n * 100).toFixed(1)}`;

/** The newest snapshot instant of a venue's quotes, for the title. */
const newestAt = (quotes: readonly DayQuote[]): number | null => {
  const times = quotes
    .map((q) => (q.snapshot_at ? Date.parse(q.snapshot_at) : Number.NaN))
    .filter((t) => !Number.isNaN(t));
  return times.length ? Math.max(...times) : null;
};

/** The table's title note: the distribution and each venue's newest snapshot. */
export function bucketTableNote(v: BucketTableInput): string {
  const u = `°${v.market.unit}`;
  const venues = (['mkta', 'mktb'] as const).map((venue) => {
    const quotes = v.buckets.flatMap((b) => (b[venue] ? [b[venue]] : []));
    const at = newestAt(quotes);
    const behind = v.venueBehind[venue];
    const why = behind === null ? '' : ` (${BEHIND_NOTE[behind]}: no edge)`;
    return quotes.length ? `${venue} snapshot ${at === null ? '—' : utcStamp(at)}${why}` : '';
  });
  const source = venues.some(Boolean)
    ? venues.filter(Boolean).join(' · ')
    : 'no mkta snapshot cached: buckets laid out around the forecast';
  const forecast =
    v.forecast && v.shown
      ? `N(${v.shown.mu.toFixed(1)}, ${v.shown.sigma.toFixed(2)}) ${u}`
      : 'no usable forecast: no p';
  return `${forecast} · ${source}`;
}

/**
 * Which whole °C of METAR a °F bucket settles on (DESIGN 4's lattice): `9°C`, `12-13°C`, `≤8°C`, `≥29°C`, `none`.
 * So a trader sees why two neighbouring 2 °F buckets differ: one holds one reachable degree, the other two.
 */
export function latticeText(b: PricedBucket): string {
  if (!b.bucket) return '';
  const [low, high] = wholeDegreesC(b.bucket, 'F');
  if (low === null) return `≤${high}°C`;
  if (high === null) return `≥${low}°C`;
  if (low > high) return 'none';
  return low === high ? `${low}°C` : `${low}-${high}°C`;
}

/** The lattice column shows where the market settles a whole °C converted to °F: a °F market under `metar_c`. */
const showsLattice = (v: BucketTableInput) => v.market.unit === 'F' && v.market.rule === 'metar_c';

/**
 * The table's lines: bucket (and, in a °F market, the whole °C it holds), the model's probability (with a bar, or
 * `dead` once no value the bucket settles on is reachable, `—` without a usable forecast or a readable label), each
 * venue's YES price and the larger side of the effective edge in points, with its venue.
 */
export function bucketTableLines(v: BucketTableInput, width: number): Line[] {
  const lattice = showsLattice(v);
  const latticeWidth = lattice ? 9 : 0;
  const barWidth = Math.max(4, Math.min(14, width - 58 - latticeWidth));
  const out: Line[] = [];
  const u = v.market.unit;
  if (v.runningHighC !== null) {
    const settles = settledValue(v.runningHighC, u);
    const high = u === 'F' ? `${v.runningHighC}°C, ${cToF(v.runningHighC).toFixed(1)}°F` : `${v.runningHighC}°C`;
    const sofar = `  METAR high so far ${high} (settles at ${settles}°${u} or more):`;
    const dead = `buckets below ${settles}°${u} are dead`;
    // on a line of its own where the two do not fit the width (a half of the two-column page)
    if (sofar.length + 1 + dead.length <= width) out.push(line(seg(`${sofar} ${dead}`, 'muted')));
    else out.push(line(seg(sofar, 'muted')), line(seg(`  ${dead}`, 'muted')));
  }
  out.push(
    line(
      seg(
        `  ${cell('bucket', 16)}${lattice ? cell('holds', latticeWidth) : ''}${cell('model', 7, 'right')} ${cell('', barWidth)} ${cell('mkta', 6, 'right')} ${cell('mktb', 6, 'right')} ${cell('edge', 11, 'right')}`,
        'muted',
      ),
    ),
  );
  for (const r of v.buckets) {
    const best = r.best;
    const edge = best ? `${best.side} ${signedPoints(best.edge)}${best.venue.slice(-1)}` : '—';
    out.push(
      line(
        `  ${cell(r.label ?? '—', 16)}${lattice ? cell(latticeText(r), latticeWidth) : ''}${cell(percent(r.p, 1), 7, 'right')} `,
        r.dead ? seg(cell('dead', barWidth), 'muted') : seg(bar(r.p ?? 0, barWidth), 'good'),
        ` ${cell(price(r.mkta?.yes_price), 6, 'right')} ${cell(price(r.mktb?.yes_price), 6, 'right')} ${cell(edge, 11, 'right')}`,
      ),
    );
  }
  return out;
}
