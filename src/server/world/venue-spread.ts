import type { CityAsset } from '../../contract/assets.js';
import { round } from '../../domain/units.js';
import { uniform } from './noise.js';

const HALF_HOUR = 30 * 60_000;
const CENT = 0.01;
/** The tick floor and ceiling of a price: a venue quotes nothing below a tenth of a cent or above 99.9 cents. */
const FLOOR = 0.001;
const CEILING = 0.999;

/**
 * Each venue's spread on a live bucket, in whole cents (the chance of 1, of 2, the rest 3): public minute quotes of a
 * real venue's NYC high show 1-3 cents between bid and ask where the book is thick. The book is deepest where the
 * crowd disagrees most, a bucket priced `deep` (0.30-0.70: the favourite and its rival), and mkta is the deeper venue.
 */
const LIVE_CENTS: Record<Venue, Record<'deep' | 'shoulder', { one: number; two: number }>> = {
  mkta: { deep: { one: 0.75, two: 0.2 }, shoulder: { one: 0.45, two: 0.35 } },
  mktb: { deep: { one: 0.45, two: 0.4 }, shoulder: { one: 0.2, two: 0.45 } },
};
const DEEP = { from: 0.3, to: 0.7 } as const;
/**
 * A thin bucket's book is wider: within `thinBelow` of 0 or 1 the spread grows by up to `extraCents`, the thinner the
 * more, so a far tail's spread reaches about 7 cents (DESIGN 5). A tail that cheap has its YES bid at the floor, so
 * what shows of the spread there is the YES ask.
 */
const THIN = { thinBelow: 0.15, extraCents: 4 } as const;

/** A venue of the world (the API's `mkta`, `mktb`). */
export type Venue = 'mkta' | 'mktb';

/**
 * A venue's bid-ask spread on one bucket at one snapshot, in price (YES ask + NO ask - 1 before the tick floor):
 * its own, drawn anew each half hour from the seed (deterministic for a seed and an instant). None on a bucket the
 * running high has already decided (`fair` exactly 0 or 1): nobody makes a market in it. `mid` is the venue's own
 * price of the bucket, which says how thin its book is.
 */
export function spreadOf(
  seed: number,
  venue: Venue,
  city: CityAsset,
  date: string,
  slug: string,
  ms: number,
  fair: number,
  mid: number,
): number {
  if (fair <= 0 || fair >= 1) return 0;
  const slot = Math.floor(ms / HALF_HOUR);
  const u = uniform(seed, 'spread', venue, city.city_id, date, slug, slot);
  const live = LIVE_CENTS[venue][mid >= DEEP.from && mid <= DEEP.to ? 'deep' : 'shoulder'];
  const cents = u < live.one ? 1 : u < live.one + live.two ? 2 : 3;
  const thin = Math.min(1, Math.max(0, (THIN.thinBelow - Math.min(mid, 1 - mid)) / THIN.thinBelow));
  const extra =
    thin === 0 ? 0 : Math.round(THIN.extraCents * thin * uniform(seed, 'thin', venue, city.city_id, date, slug, slot));
  return (cents + extra) * CENT;
}

/**
 * Both sides' asks around a venue's mid: YES at mid + spread / 2, NO at 1 - mid + spread / 2, each within the tick
 * floor and ceiling (a far tail's YES bid sits at the floor, its NO ask at the ceiling).
 */
export function asksAround(mid: number, spread: number): { yes: number; no: number } {
  const yes = round(mid + spread / 2, 3);
  // the NO ask from the YES ask, so that the two add up to 1 + spread to the tenth of a cent
  const no = round(1 + spread - yes, 3);
  return { yes: clampPrice(yes), no: clampPrice(no) };
}

const clampPrice = (price: number): number => Math.min(CEILING, Math.max(FLOOR, price));
