import type { PricedBucket, PricedDay, SideEdge } from '../../../board/priced-day.js';
import type { Behind } from '../../../board/same-instant.js';
import type { VenueCross } from '../../../board/venue-crosses.js';
import type { DayQuote } from '../../../cache/index.js';
import { settledValue, wholeDegreesC } from '../../../domain/settlement.js';
import { cToF } from '../../../domain/units.js';
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

/** What the table's note says of its columns: which price each venue's cell is. */
export const PRICES_NOTE = 'prices YES bid/ask (bid = 1 - NO) · edge Y/N points';

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
    ? [...venues.filter(Boolean), PRICES_NOTE].join(' · ')
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

/** A venue's quote as a trader reads it: YES bid / ask, the bid being 1 - the NO price (selling YES is buying NO). */
export function bidAsk(q: DayQuote | null): string {
  if (!q || (q.yes_price === null && q.no_price === null)) return '—';
  return `${price(q.no_price === null ? null : 1 - q.no_price)}/${price(q.yes_price)}`;
}

const edgeText = (e: SideEdge | null): string => (e ? `${e.side === 'YES' ? 'Y' : 'N'}${signedPoints(e.edge)}` : '—');

/** The chance a row shows: `dead` once no value it settles on is reachable, `—` without a usable forecast. */
const chanceText = (r: PricedBucket): string => (r.dead ? 'dead' : percent(r.p, 1));

/**
 * The table's lines: bucket (and, in a °F market, the whole °C it holds), the model's probability, each venue's YES
 * bid/ask, each venue's larger side of the effective edge at an offer (`—`: none, the venue not comparable, CHECK, a day over), and `CROSS` where one venue sells YES below what the other
 * bids after both costs (board/venue-crosses.ts). The day's best edge is bold.
 */
export function bucketTableLines(v: BucketTableInput, width: number): Line[] {
  const lattice = showsLattice(v);
  const latticeWidth = lattice ? 8 : 0;
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
        `  ${cell('bucket', 15)}${lattice ? cell('holds', latticeWidth) : ''}${cell('model', 7, 'right')} ${cell('mkta', 11, 'right')} ${cell('mktb', 11, 'right')} ${cell('edge a', 6, 'right')} ${cell('edge b', 6, 'right')}`,
        'muted',
      ),
    ),
  );
  for (const r of v.buckets) {
    const edges = (['mkta', 'mktb'] as const).map((venue) => {
      // the board's own (priced-day.ts): an offer, comparable with the model, none on CHECK or a day over
      const e = r.edges[venue];
      const best = v.best !== null && v.best.bucket === r && v.best.venue === venue;
      return seg(` ${cell(edgeText(best ? v.best : e), 6, 'right')}`, best ? 'good' : undefined, best);
    });
    const cross = r.cross;
    out.push(
      line(
        `  ${cell(r.label ?? '—', 15)}${lattice ? cell(latticeText(r), latticeWidth) : ''}`,
        seg(cell(chanceText(r), 7, 'right'), r.dead ? 'muted' : undefined),
        ` ${cell(bidAsk(r.mkta), 11, 'right')} ${cell(bidAsk(r.mktb), 11, 'right')}`,
        ...edges,
        seg(cross ? ' CROSS' : '', 'alarm', true),
      ),
    );
  }
  const crosses = v.buckets.flatMap((r) => {
    const c = r.cross;
    return c ? [line(seg(`  ${crossText(r.label ?? '—', c)}`, 'alarm'))] : [];
  });
  return [...out, ...crosses];
}

/** A cross in words, under the table: where to buy, where to sell, and what is left after both costs. */
export const crossText = (label: string, c: VenueCross): string =>
  `CROSS ${label}: buy YES ${c.buy} ${price(c.ask)}, sell ${c.sell} ${price(c.bid)}: ${signedPoints(c.margin)} pts net`;
