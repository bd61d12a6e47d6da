import { localClockOf } from '../../../../board/board-day.js';
import type { BucketPrices, CityDetail, PositionMark, VenuePrices } from '../../../../board/city-detail.js';
import type { Behind } from '../../../../board/same-instant.js';
import { price, signedUsd, usd } from '../../../format/numbers.js';
import { cell } from '../../../format/text.js';
import { type Line, line, seg, type Tone } from '../../../theme.js';
import { bestEdgeText } from '../board-columns.js';

/**
 * The selected city's detail as lines (board/city-detail.ts works the figures out): the METAR now and its trend, the
 * running high, the next bucket edge and its chance, the peak and the lock, both venues' bid and ask for the favourite
 * and each held bucket, the positions, the best edge and its own record.
 */

/** The fewest rows the strip is drawn in: its title, the METAR and the next edge. */
export const DETAIL_MIN_ROWS = 3;

/**
 * Which lines go first when the rows run out (higher goes first; among equals, the lower line on screen first), and
 * why: the title, the METAR and the running high, and the next edge stay longest (where the day is and what it must
 * do next); then the favourite's prices and the positions' total (what to deal at, what the book stands at); then the
 * best edge and its record (the board's row has the edge already); then the peak and the lock (the phase column says
 * most of it); then the held buckets' prices; the positions one by one go first (Positions lists them).
 */
const DROP = {
  title: 0,
  metar: 1,
  next: 2,
  favourite: 3,
  total: 4,
  best: 5,
  clock: 6,
  held: 7,
  position: 8,
} as const;

interface Ranked {
  line: Line;
  drop: number;
}

/** The lines that fit in `height`, in their order: the highest `drop` goes first, the lowest on screen among equals. */
export function fitDetail(lines: readonly Ranked[], height: number): Line[] {
  const kept = [...lines];
  while (kept.length > Math.max(0, height)) {
    let worst = 0;
    kept.forEach((l, i) => {
      if (l.drop >= (kept[worst] as Ranked).drop) worst = i;
    });
    kept.splice(worst, 1);
  }
  return kept.map((l) => l.line);
}

const deg = (n: number) => n.toFixed(1);
/**
 * Hours between now and an instant, to a tenth: `in 2.5 h`, `1.0 h ago`; under an hour in whole minutes (`in 2 min`),
 * since `in 0.0 h` reads as now while the peak phase still has minutes to run.
 */
export function hoursFrom(atMs: number, ms: number): string {
  const minutes = Math.round(Math.abs(ms - atMs) / 60_000);
  const size = minutes < 60 ? `${minutes} min` : `${(minutes / 60).toFixed(1)} h`;
  return ms >= atMs ? `in ${size}` : `${size} ago`;
}

/** The same words as the board's best-edge column (board-columns.ts) for a venue that gives no edge. */
const BEHIND: Record<Behind, string> = { model: 'model behind', prices: 'stale prices' };

function metarLine(d: CityDetail): Line {
  const u = `°${d.unit}`;
  if (!d.metarNow) return line(seg('  METAR: no reading yet of this day', 'muted'));
  const trend = d.trend.map(deg).join(' → ');
  const high = d.high ? ` · high ${deg(d.high.value)}${u} set ${d.high.at}` : '';
  return line(
    seg('  METAR ', 'muted'),
    seg(`${deg(d.metarNow.value)}${u}`, undefined, true),
    seg(` at ${d.metarNow.at} · last ${d.trend.length}: ${trend}${u}${high}`),
  );
}

function nextLine(d: CityDetail): Line {
  const u = `°${d.unit}`;
  if (d.settled !== null) return line(seg(`  settled at ${d.settled}${u}: nothing left to rise to`, 'muted'));
  const n = d.next;
  if (!n) return line(seg(`  next: ${d.high ? 'none, the top bucket holds the high' : 'no METAR high yet'}`, 'muted'));
  return line(
    seg('  next edge ', 'muted'),
    seg(`${deg(n.edge)}${u}`, undefined, true),
    seg(` (+${deg(n.rise)}) to leave ${n.from} · p ${price(n.p)} it settles above`),
  );
}

/** The peak (the lock's peak hour), the peak phase's end, and the lock's settlement, each with the hours to it. */
function clockLine(d: CityDetail): Line {
  const at = (ms: number) => `${localClockOf(ms, d.tz).text} (${hoursFrom(d.atMs, ms)})`;
  if (!d.peak || !d.lock) {
    const early = d.atMs < d.peakStartsMs ? `peak phase from ${at(d.peakStartsMs)} · ` : '';
    return line(seg(`  ${early}peak hour not known: no lock yet (the service locks at the peak hour)`, 'muted'));
  }
  const lock = d.lock.resolved
    ? `lock YES ${d.lock.label} ${d.lock.lockedAt}, resolved`
    : `lock YES ${d.lock.label} ${d.lock.lockedAt}, settles ${at(d.lock.settlesMs)}`;
  return line(
    seg(`  peak ${d.peak.hour} (${hoursFrom(d.atMs, d.peak.ms)}) · peak phase to ${at(d.peak.passedMs)} · ${lock}`),
  );
}

function venueText(venue: string, v: VenuePrices | null): [string, Tone | undefined] {
  if (!v) return [`${venue} —`, 'muted'];
  const behind = v.behind ? ` ${BEHIND[v.behind]}` : '';
  return [`${venue} bid ${price(v.bid)} ask ${price(v.ask)}${behind}`, v.behind ? 'muted' : undefined];
}

function pricesLine(b: BucketPrices): Line {
  const marks = [b.favourite ? 'favourite' : '', b.held ? 'held' : ''].filter(Boolean).join(' ');
  const [a, aTone] = venueText('mkta', b.venues.mkta);
  const [bb, bTone] = venueText('mktb', b.venues.mktb);
  return [
    seg(`  ${cell(b.label, 15)} ${cell(marks, 14)} p ${price(b.p)}  `),
    seg(a, aTone),
    seg(' · ', 'muted'),
    seg(bb, bTone),
  ];
}

const pnlTone = (pnl: number | null): Tone | undefined =>
  pnl === null ? 'muted' : pnl > 0 ? 'good' : pnl < 0 ? 'bad' : undefined;

function positionLine(p: PositionMark): Line {
  return [
    seg(`    ${cell(p.what, 28)} stake ${cell(usd(p.stake), 8, 'right')}  P&L `),
    seg(signedUsd(p.pnl), pnlTone(p.pnl)),
  ];
}

/**
 * The detail's lines in `height` rows and `width` columns: every line while they fit, then without the least
 * important (DROP says the order).
 */
export function cityDetailLines(d: CityDetail, width: number, height: number): Line[] {
  const title = ` ${d.name}${d.tomorrow ? ' tomorrow' : ''} · ${d.date} `;
  const ranked: Ranked[] = [
    { line: line(seg(`──${title}${'─'.repeat(Math.max(0, width - title.length - 2))}`, 'accent')), drop: DROP.title },
    { line: metarLine(d), drop: DROP.metar },
    { line: nextLine(d), drop: DROP.next },
    { line: clockLine(d), drop: DROP.clock },
    ...d.prices.map((b) => ({ line: pricesLine(b), drop: b.favourite ? DROP.favourite : DROP.held })),
    {
      line: d.positions.length
        ? line(
            seg(`  positions ${d.positions.length} · staked ${usd(d.staked)} · P&L `),
            seg(signedUsd(d.pnl), pnlTone(d.pnl)),
          )
        : line(seg('  no positions on this day', 'muted')),
      drop: DROP.total,
    },
    ...d.positions.map((p) => ({ line: positionLine(p), drop: DROP.position })),
  ];
  if (d.best && d.bestRecord)
    ranked.push({
      // the line that stood under the board: the best edge beside its own record (DESIGN 4 "an edge's own record")
      line: line(
        seg(`  ${d.name}${d.tomorrow ? ' tomorrow' : ''}: best edge ${bestEdgeText(d)} · `, 'muted'),
        seg(d.bestRecord, 'accent'),
      ),
      drop: DROP.best,
    });
  return fitDetail(ranked, height);
}
