import type { CityAsset } from '../../contract/assets.js';
import { addDays, instantAtLocal, localDate } from '../../domain/city-time.js';
import { INSURANCE_BOOKS } from './insurance-engine.js';

/**
 * What happens in the world and when. Observations, forecasts and market snapshots every half hour (the desk and the
 * venues revise on each METAR report, so neither the newest forecast nor the newest price predates the newest reading,
 * and a board sets the three side by side), the insurance check at :20, the edge engine at :35 (all UTC); strategy
 * picks and settlement one minute after local midnight, insurance picks at each book's hour (00:00 and 09:00 local,
 * after that instant's snapshot), svc-max picks at 11:00 local, fusion locks at the local peak hour. The insurance
 * kinds come last so that, at a shared instant, they see that instant's observations and prices.
 */
export const JOB_KINDS = [
  'observe',
  'snapshot',
  'forecast',
  'daily',
  'svc-max',
  'lock',
  'edge',
  'insurance-open',
  'insurance',
] as const;
export type JobKind = (typeof JOB_KINDS)[number];

export interface Job {
  at: number;
  kind: JobKind;
  city: CityAsset;
  cityIndex: number;
}

const MINUTE = 60_000;
const UTC_GRID: { kind: JobKind; every: number; offset: number }[] = [
  { kind: 'observe', every: 30 * MINUTE, offset: 0 },
  { kind: 'snapshot', every: 30 * MINUTE, offset: 0 },
  { kind: 'forecast', every: 30 * MINUTE, offset: 0 },
  { kind: 'edge', every: 60 * MINUTE, offset: 35 * MINUTE },
  { kind: 'insurance', every: 60 * MINUTE, offset: 20 * MINUTE },
];

const localJobs = (city: CityAsset): { kind: JobKind; hour: number; minute: number }[] => [
  { kind: 'daily', hour: 0, minute: 1 },
  ...INSURANCE_BOOKS.map(({ hour, minute }) => ({ kind: 'insurance-open' as const, hour, minute })),
  { kind: 'svc-max', hour: 11, minute: 0 },
  { kind: 'lock', hour: city.climate.peak_hour, minute: 0 },
];

/** Every job with `from <= at < to`, in the one order the world applies them. */
export function jobsBetween(
  cities: readonly CityAsset[],
  from: number,
  to: number,
  kinds?: ReadonlySet<JobKind>,
): Job[] {
  const jobs: Job[] = [];
  const wanted = (kind: JobKind) => !kinds || kinds.has(kind);
  for (const grid of UTC_GRID) {
    if (!wanted(grid.kind)) continue;
    for (let at = Math.ceil((from - grid.offset) / grid.every) * grid.every + grid.offset; at < to; at += grid.every) {
      for (const [cityIndex, city] of cities.entries()) jobs.push({ at, kind: grid.kind, city, cityIndex });
    }
  }
  cities.forEach((city, cityIndex) => {
    const last = localDate(to, city.tz);
    for (let date = addDays(localDate(from, city.tz), -1); date <= last; date = addDays(date, 1)) {
      for (const local of localJobs(city)) {
        if (!wanted(local.kind)) continue;
        const at = instantAtLocal(date, local.hour, local.minute, city.tz);
        if (at >= from && at < to) jobs.push({ at, kind: local.kind, city, cityIndex });
      }
    }
  });
  const order = (kind: JobKind) => JOB_KINDS.indexOf(kind);
  return jobs.sort((a, b) => a.at - b.at || order(a.kind) - order(b.kind) || a.cityIndex - b.cityIndex);
}
