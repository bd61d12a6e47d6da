import type { HistorySummary } from '../../../cache/history-summary.js';
import { percent, signedUsd, usd } from '../../format/numbers.js';
import { cell } from '../../format/text.js';
import { type Line, line, seg, type Tone } from '../../theme.js';

const tone = (n: number): Tone | undefined => (n > 0 ? 'good' : n < 0 ? 'bad' : undefined);

/** Strategy P&L and hit rate by family and city, fusion-lock hit rate, and forecast error by city. */
export function summaryLines(s: HistorySummary): Line[] {
  const out: Line[] = [line(seg('STRATEGY P&L AND HIT RATE (settled records)', 'accent', true))];
  out.push(
    line(
      seg(
        `  ${cell('family', 15)}${cell('city', 11)}${cell('settled', 8, 'right')}${cell('wins', 6, 'right')}${cell('hit', 7, 'right')}${cell('staked', 10, 'right')}${cell('P&L', 10, 'right')}${cell('open', 6, 'right')}`,
        'muted',
      ),
    ),
  );
  if (s.strategies.length === 0) out.push(line(seg('  no strategy records match', 'muted')));
  const families = new Map<string, { settled: number; wins: number; staked: number; pnl: number }>();
  for (const r of s.strategies) {
    const hit = r.settled ? r.wins / r.settled : null;
    out.push(
      line(
        `  ${cell(r.family, 15)}${cell(r.city_id, 11)}${cell(String(r.settled), 8, 'right')}${cell(String(r.wins), 6, 'right')}${cell(percent(hit), 7, 'right')}${cell(usd(r.staked), 10, 'right')}`,
        seg(cell(signedUsd(r.pnl), 10, 'right'), tone(r.pnl)),
        cell(String(r.open), 6, 'right'),
      ),
    );
    const f = families.get(r.family) ?? { settled: 0, wins: 0, staked: 0, pnl: 0 };
    families.set(r.family, {
      settled: f.settled + r.settled,
      wins: f.wins + r.wins,
      staked: f.staked + r.staked,
      pnl: f.pnl + r.pnl,
    });
  }
  for (const [family, f] of families) {
    const hit = f.settled ? f.wins / f.settled : null;
    out.push(
      line(
        seg(
          `  ${cell(family, 15)}${cell('ALL', 11)}${cell(String(f.settled), 8, 'right')}${cell(String(f.wins), 6, 'right')}${cell(percent(hit), 7, 'right')}${cell(usd(f.staked), 10, 'right')}`,
          undefined,
          true,
        ),
        seg(cell(signedUsd(f.pnl), 10, 'right'), tone(f.pnl), true),
      ),
    );
  }
  out.push([], line(seg('FUSION LOCKS (resolved)', 'accent', true)));
  out.push(
    line(
      seg(
        `  ${cell('city', 11)}${cell('locks', 6, 'right')}${cell('hits', 6, 'right')}${cell('hit', 7, 'right')}${cell('staked', 10, 'right')}${cell('P&L', 10, 'right')}`,
        'muted',
      ),
    ),
  );
  if (s.locks.length === 0) out.push(line(seg('  no resolved locks match', 'muted')));
  for (const l of s.locks) {
    out.push(
      line(
        `  ${cell(l.city_id, 11)}${cell(String(l.resolved), 6, 'right')}${cell(String(l.hits), 6, 'right')}${cell(percent(l.resolved ? l.hits / l.resolved : null), 7, 'right')}${cell(usd(l.staked), 10, 'right')}`,
        seg(cell(signedUsd(l.pnl), 10, 'right'), tone(l.pnl)),
      ),
    );
  }
  out.push([], line(seg('FORECAST ERROR BY CITY (forecast_accuracy_daily)', 'accent', true)));
  out.push(
    line(
      seg(
        `  ${cell('city', 11)}${cell('days', 6, 'right')}${cell('MAE', 9, 'right')}${cell('MAE °C', 8, 'right')}${cell('worst', 9, 'right')}`,
        'muted',
      ),
    ),
  );
  if (s.forecastError.length === 0)
    out.push(line(seg('  no forecast scores cached (backfill forecast_accuracy_daily)', 'muted')));
  for (const e of s.forecastError) {
    out.push(
      line(
        `  ${cell(e.city_id, 11)}${cell(String(e.days), 6, 'right')}${cell(`${e.mae.toFixed(2)}°${e.unit}`, 9, 'right')}${cell(e.mae_c.toFixed(2), 8, 'right')}${cell(`${e.worst.toFixed(1)}°${e.unit}`, 9, 'right')}`,
      ),
    );
  }
  return out;
}
