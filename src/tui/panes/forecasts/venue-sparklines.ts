import type { PricedBucket } from '../../../board/priced-day.js';
import type { DaySeries } from '../../../cache/index.js';
import type { MarketUnit } from '../../../contract/common.js';
import { PRICE_SCALE, scaleOf, sparkline } from '../../format/sparkline.js';
import { cell } from '../../format/text.js';
import { localClock } from '../../format/time.js';
import { type Line, line, seg } from '../../theme.js';
import { titleLines } from './section-title.js';

/**
 * The section "through the day" (issue 45 item 4), pure: lines from the day's series (cache `daySeries`) and the
 * bucket table's buckets. A row a bucket, both venues' YES price as sparklines on 0..1 (`a` mkta, `b` mktb, the same
 * scale on every row so rows compare) and their newest price, `CROSS` where the venues cross (board/venue-crosses.ts);
 * then the desk's mu and sigma on their own range, first and last value beside.
 */

/** What the section is drawn from. */
export interface VenueSparklinesInput {
  series: DaySeries;
  /** The bucket table's buckets, lowest first, each with its venue cross (board/priced-day.ts). */
  buckets: readonly Pick<PricedBucket, 'slug' | 'label' | 'cross'>[];
  /** The unit the series' mu and sigma are in (the one `daySeries` was asked for). */
  unit: MarketUnit;
  /** The city's zone: the span's local times. */
  tz: string;
}

const LABEL = 10;
/** Around the two sparklines: the label, ` a `, ` b `, the two newest prices and the mark. */
const FIXED = LABEL + 3 + 3 + 12 + 6;
/** Narrower than this a sparkline says nothing: the section keeps its newest prices alone. */
const MIN_SPARK = 4;

const newest = (values: readonly (number | null)[]): number | null =>
  values.reduce<number | null>((last, v) => (v === null ? last : v), null);
const priceText = (p: number | null): string => (p === null ? '—' : p.toFixed(2).replace(/^0/, ''));

/** The lines of the section within `width`; none when the series holds nothing (no snapshot, no forecast). */
export function venueSparklineLines(v: VenueSparklinesInput, width: number): Line[] {
  const { series } = v;
  const hasDesk = series.mu.some((m) => m !== null);
  if (series.buckets.length === 0 && !hasDesk) return [];
  const n = Math.min(series.columns, Math.floor((width - FIXED) / 2));
  const shown = n >= MIN_SPARK ? n : 0;
  // the newest columns when the width holds fewer than the read gave
  const tail = (values: readonly (number | null)[]) => (shown ? values.slice(-shown) : []);
  const span = `${localClock(series.toMs - (shown || series.columns) * series.stepMs, v.tz)}-${localClock(series.toMs, v.tz)} local`;
  const note = `${span} · ${Math.round(series.stepMs / 60_000)} min a column · YES on 0..1, a mkta b mktb`;
  const out = titleLines('through the day', note, width);
  for (const b of v.buckets) {
    const s = series.buckets.find(
      (x) => (b.slug !== null && x.slug === b.slug) || (x.label !== null && x.label === b.label),
    );
    if (!s) continue;
    out.push(
      line(
        cell(b.label ?? '', LABEL),
        seg(' a ', 'muted'),
        sparkline(tail(s.mkta), PRICE_SCALE),
        seg(' b ', 'muted'),
        sparkline(tail(s.mktb), PRICE_SCALE),
        ` ${cell(priceText(newest(s.mkta)), 5, 'right')} ${cell(priceText(newest(s.mktb)), 5, 'right')}`,
        b.cross ? seg(' CROSS', 'warn', true) : '',
      ),
    );
  }
  if (hasDesk) {
    const deg = `°${v.unit}`;
    const desk = (name: string, values: readonly (number | null)[], floor?: number) => {
      const first = values.find((x) => x !== null) ?? null;
      const last = newest(values);
      const ends = first === null || last === null ? '—' : `${first.toFixed(1)}→${last.toFixed(1)}${deg}`;
      return line(
        cell(name, LABEL),
        '   ',
        sparkline(tail(values), scaleOf([tail(values)], floor) ?? PRICE_SCALE),
        ` ${ends}`,
      );
    };
    out.push(desk('desk mu', series.mu), desk('desk sigma', series.sigma, 0));
  }
  return out;
}
