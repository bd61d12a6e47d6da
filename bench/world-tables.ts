import {
  type Book,
  bandName,
  checkedDecile,
  type Decile,
  type DeskBand,
  EDGE_HOURS,
  type EdgeCell,
  HOUR_BANDS,
  VENUES,
  type WorldFigures,
} from './world-figures.js';
import type { RecordFigure } from './world-record.js';

// DESIGN 5's figures of one or more seeds (world-figures.ts) as docs/world.md's tables: `npm run bench -- world` and
// test/server/world-believable.test.ts print them.

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** The record's rows of docs/world.md's figures table: the figure, DESIGN 5's band, then one cell a seed. */
function recordRows(figures: readonly RecordFigure[]): string[][] {
  return [
    ["the board's record: positions (city-days)", '>= 10', ...figures.map((r) => `${r.positions} (${r.cityDays})`)],
    [
      "the board's record: hit rate vs mean price paid (SE)",
      'within 3 SE',
      ...figures.map((r) => `${r.hitRate.toFixed(3)} vs ${r.meanPrice.toFixed(3)} (${r.hitRateSe.toFixed(3)})`),
    ],
    [
      "the board's record: P&L / stakes (SE)",
      '±30%, or 3 SE of 0',
      ...figures.map((r) => `${pct(r.pnl / r.staked)} of ${r.staked} (${r.pnlSe.toFixed(1)} USD)`),
    ],
  ];
}

/** The figures of one or more seeds as docs/world.md's tables. */
export function figuresTables(bySeed: readonly { seed: number; figures: WorldFigures }[]): string {
  const seeds = bySeed.map((s) => `seed ${s.seed}`);
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const head = (cols: string[]) => [row(cols), row(cols.map(() => '---'))];
  const lines: string[] = [
    ...head([`figure (${bySeed[0]?.figures.days} settled days, 13 cities)`, 'band', ...seeds]),
    ...HOUR_BANDS.map((band, i) =>
      row([
        `desk's RMSE at ${bandName(band)} local (mean sigma_c)`,
        i === 0 ? '1.0-1.8 °C' : band.from === 11 ? '0.5-1.1 °C, falling' : 'falling',
        ...bySeed.map(({ figures }) => {
          const b = figures.desk[i] as DeskBand;
          return `${b.rmseC.toFixed(2)} °C (${b.meanSigmaC.toFixed(2)})`;
        }),
      ]),
    ),
    ...HOUR_BANDS.map((band, i) =>
      row([
        `share within sqrt(sigma_c^2 + 1/12) at ${bandName(band)}`,
        band.uncertain ? '0.60-0.76' : '(the peak: not held)',
        ...bySeed.map(({ figures }) => (figures.desk[i] as DeskBand).withinSigma.toFixed(2)),
      ]),
    ),
    row([
      'yescore exact-hit rate (settled records)',
      '0.15-0.40',
      ...bySeed.map(({ figures }) => `${figures.yescore.hitRate.toFixed(2)} of ${figures.yescore.n}`),
    ]),
    ...VENUES.map((venue) =>
      row([
        `${venue} favourite YES at 12:00 local, median`,
        '0.35-0.75',
        ...bySeed.map(({ figures }) => (figures.favouriteAtNoon[venue]?.median ?? Number.NaN).toFixed(3)),
      ]),
    ),
    row([
      'fewest kills / addons in any 48 h',
      '>= 2 / >= 2',
      ...bySeed.map(({ figures: f }) => `${f.insurance.minKills48h} / ${f.insurance.minAddons48h}`),
    ]),
    row([
      'kills / addons over the 30 days',
      '',
      ...bySeed.map(({ figures: f }) => `${f.insurance.kills} / ${f.insurance.addons}`),
    ]),
    row([
      'start instants with a kill within 20 h (longest wait)',
      '',
      ...bySeed.map(
        ({ figures: f }) => `${pct(f.insurance.killWithin20h)} (${f.insurance.longestWaitForKillH.toFixed(1)} h)`,
      ),
    ]),
    ...VENUES.map((venue) =>
      row([
        `${venue} noon deciles of 50+ quotes: worst won-price gap (bound)`,
        'within bound',
        ...bySeed.map(({ figures }) => {
          const worst = (figures.deciles[venue] ?? [])
            .filter(checkedDecile)
            .reduce<Decile | null>(
              (a, d) =>
                a === null ||
                Math.abs(d.wonShare - d.meanPrice) / d.bound > Math.abs(a.wonShare - a.meanPrice) / a.bound
                  ? d
                  : a,
              null,
            );
          return worst === null
            ? '-'
            : `${(worst.wonShare - worst.meanPrice).toFixed(3)} (±${worst.bound.toFixed(3)}, n ${worst.n})`;
        }),
      ]),
    ),
    row([
      "slope of (won - p) on the venues' departure from the board, 10-14 local",
      '(0: noise, 1: the venue knows)',
      ...bySeed.map(({ figures }) => figures.departureSlope.toFixed(2)),
    ]),
    ...recordRows(bySeed.map(({ figures }) => figures.record)).map(row),
    ...(bySeed[0]?.figures.books ?? []).map((book, i) =>
      row([
        `${book.name}: P&L / stakes`,
        '±30%',
        ...bySeed.map(({ figures }) => {
          const b = figures.books[i] as Book;
          return `${pct(b.pnl / b.stake)} of ${b.stake.toFixed(0)} (${b.n})`;
        }),
      ]),
    ),
    '',
    ...head([
      'best effective edge, board as of',
      ...bySeed.flatMap((s) => [`seed ${s.seed} °C median / p90`, `seed ${s.seed} °F median / p90`]),
    ]),
    ...EDGE_HOURS.map((hour) =>
      row([
        `${String(hour).padStart(2, '0')}:00 local`,
        ...bySeed.flatMap(({ figures }) =>
          (['C', 'F'] as const).map((unit) => {
            const cell = figures.bestEdge.find((c) => c.unit === unit && c.hour === hour) as EdgeCell;
            return `${(100 * cell.median).toFixed(1)} / ${(100 * cell.p90).toFixed(1)} pts (${cell.n})`;
          }),
        ),
      ]),
    ),
  ];
  return lines.join('\n');
}
