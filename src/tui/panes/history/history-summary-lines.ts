import type { ForecastErrorSummary, HistorySummary, LockSummary } from '../../../cache/index.js';
import { type Column, cellOf, rowCells, titleCells } from '../../format/columns.js';
import { percent, signedUsd, usd } from '../../format/numbers.js';
import { type Line, line, seg, type Tone } from '../../theme.js';

const tone = (n: number): Tone | undefined => (n > 0 ? 'good' : n < 0 ? 'bad' : undefined);
const right = 'right' as const;

/** A family's settled records in one city, or in all of them (`ALL`, without an open count). */
interface StrategyRow {
  family: string;
  city_id: string;
  settled: number;
  wins: number;
  staked: number;
  pnl: number;
  open?: number;
}

/** family, city, settled, wins, hit, staked: then P&L (toned) and open. */
const STRATEGY: Column<StrategyRow>[] = [
  { title: 'family', width: 15, value: (r) => r.family },
  { title: 'city', width: 11, value: (r) => r.city_id },
  { title: 'settled', width: 8, align: right, value: (r) => String(r.settled) },
  { title: 'wins', width: 6, align: right, value: (r) => String(r.wins) },
  { title: 'hit', width: 7, align: right, value: (r) => percent(r.settled ? r.wins / r.settled : null) },
  { title: 'staked', width: 10, align: right, value: (r) => usd(r.staked) },
];
const PNL: Column<{ pnl: number }> = { title: 'P&L', width: 10, align: right, value: (r) => signedUsd(r.pnl) };
const OPEN: Column<StrategyRow> = { title: 'open', width: 6, align: right, value: (r) => String(r.open ?? '') };

/** city, locks, hits, hit, staked: then P&L (toned). */
const LOCKS: Column<LockSummary>[] = [
  { title: 'city', width: 11, value: (l) => l.city_id },
  { title: 'locks', width: 6, align: right, value: (l) => String(l.resolved) },
  { title: 'hits', width: 6, align: right, value: (l) => String(l.hits) },
  { title: 'hit', width: 7, align: right, value: (l) => percent(l.resolved ? l.hits / l.resolved : null) },
  { title: 'staked', width: 10, align: right, value: (l) => usd(l.staked) },
];

const FORECAST_ERROR: Column<ForecastErrorSummary>[] = [
  { title: 'city', width: 11, value: (e) => e.city_id },
  { title: 'days', width: 6, align: right, value: (e) => String(e.days) },
  { title: 'MAE', width: 9, align: right, value: (e) => `${e.mae.toFixed(2)}°${e.unit}` },
  { title: 'MAE °C', width: 8, align: right, value: (e) => e.mae_c.toFixed(2) },
  { title: 'worst', width: 9, align: right, value: (e) => `${e.worst.toFixed(1)}°${e.unit}` },
];

const titles = (columns: readonly Column<never>[]): Line => line(seg(`  ${titleCells(columns).join('')}`, 'muted'));

/** Strategy P&L and hit rate by family and city, fusion-lock hit rate, and forecast error by city. */
export function summaryLines(s: HistorySummary): Line[] {
  const out: Line[] = [line(seg('STRATEGY P&L AND HIT RATE (settled records)', 'accent', true))];
  out.push(titles([...STRATEGY, PNL, OPEN]));
  if (s.strategies.length === 0) out.push(line(seg('  no strategy records match', 'muted')));
  const families = new Map<string, { settled: number; wins: number; staked: number; pnl: number }>();
  for (const r of s.strategies) {
    out.push(line(`  ${rowCells(STRATEGY, r).join('')}`, seg(cellOf(PNL, r), tone(r.pnl)), cellOf(OPEN, r)));
    const f = families.get(r.family) ?? { settled: 0, wins: 0, staked: 0, pnl: 0 };
    families.set(r.family, {
      settled: f.settled + r.settled,
      wins: f.wins + r.wins,
      staked: f.staked + r.staked,
      pnl: f.pnl + r.pnl,
    });
  }
  for (const [family, f] of families) {
    const all = { family, city_id: 'ALL', ...f };
    out.push(
      line(seg(`  ${rowCells(STRATEGY, all).join('')}`, undefined, true), seg(cellOf(PNL, all), tone(f.pnl), true)),
    );
  }
  out.push([], line(seg('FUSION LOCKS (resolved)', 'accent', true)));
  out.push(titles([...LOCKS, PNL]));
  if (s.locks.length === 0) out.push(line(seg('  no resolved locks match', 'muted')));
  for (const l of s.locks) out.push(line(`  ${rowCells(LOCKS, l).join('')}`, seg(cellOf(PNL, l), tone(l.pnl))));
  out.push([], line(seg('FORECAST ERROR BY CITY (forecast_accuracy_daily)', 'accent', true)));
  out.push(titles(FORECAST_ERROR));
  if (s.forecastError.length === 0)
    out.push(line(seg('  no forecast scores cached (backfill forecast_accuracy_daily)', 'muted')));
  for (const e of s.forecastError) out.push(line(`  ${rowCells(FORECAST_ERROR, e).join('')}`));
  return out;
}
