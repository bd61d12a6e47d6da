import type { BoardDay } from '../board/board-day.js';
import type { LiveEdgeAlert, Venue } from '../cache/index.js';
import { effectiveEdge } from '../domain/settlement.js';

/** What an edge alert names: its bucket and side (its ref `city|date|label|side`) and its venue (its message). */
export function edgeOf(alert: Pick<LiveEdgeAlert, 'ref' | 'message'>): {
  date: string;
  label: string;
  side: 'YES' | 'NO';
  venue: Venue;
} | null {
  const [, date, label, side] = alert.ref.split('|');
  const venue = / on (mkta|mktb)\b/.exec(alert.message)?.[1] as Venue | undefined;
  if (!date || !label || (side !== 'YES' && side !== 'NO') || !venue) return null;
  return { date, label, side, venue };
}

/** An edge alert the board no longer shows: when (the venue's snapshot, epoch ms) and at what price of its side. */
export interface GoneEdge {
  id: number;
  ms: number;
  price: number;
}

/**
 * DESIGN 4 "alerts in time": an edge alert stays live while the board as of now shows its venue, bucket and side at
 * an effective edge of at least `edgeMin`; the first pass that finds it below says when (the instant of the venue's
 * snapshot that priced it so) and at what price. What the board cannot judge leaves the alert as it was: a CHECK day,
 * a venue whose price and model are not of the same instant (`model behind`, `stale prices`: the board shows no edge
 * of it, neither above nor below), a bucket without a p or without a quote of both sides on the venue, a day of
 * another date or over.
 */
export function goneEdges(day: BoardDay, live: readonly LiveEdgeAlert[], edgeMin: number, nowMs: number): GoneEdge[] {
  if (day.check || day.settled !== null) return [];
  const out: GoneEdge[] = [];
  for (const alert of live) {
    const edge = edgeOf(alert);
    if (edge === null || edge.date !== day.date || day.venueBehind[edge.venue] !== null) continue;
    const bucket = day.buckets.find((b) => b.label === edge.label);
    const quote = bucket?.[edge.venue];
    if (!bucket || bucket.p === null || !quote || quote.yes_price === null || quote.no_price === null) continue;
    const e = effectiveEdge(bucket.p, quote.yes_price, quote.no_price);
    if ((edge.side === 'YES' ? e.yes : e.no) >= edgeMin) continue;
    const price = edge.side === 'YES' ? quote.yes_price : quote.no_price;
    out.push({ id: alert.id, ms: day.snapshotMs[edge.venue] ?? nowMs, price });
  }
  return out;
}
