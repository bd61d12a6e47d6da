import type { AlertRow } from '../src/cache/index.js';

/**
 * The live trader alerts held to DESIGN 4 "a price against a model of the same instant", as a trader would check them
 * afterwards: each edge alert against `export board --at` its `created_at` (the board as of the instant it was
 * raised, for its market day). Used by `npm run bench -- live` and `test/cli/sync-daemon-edges.test.ts`.
 */

/** What an edge alert says (alerts/market-alerts.ts writes it). */
export interface EdgeAlertSaid {
  city_id: string;
  date: string;
  /** Points (8.7 = 0.087). */
  points: number;
  side: 'YES' | 'NO';
  bucket_label: string;
  price: number;
  venue: 'mkta' | 'mktb';
  created_at: string;
}

const EDGE_MESSAGE =
  /^(\S+) (\d{4}-\d{2}-\d{2}): edge ([+-]\d+(?:\.\d+)?) points on (YES|NO) (.+) at (\d+(?:\.\d+)?) on (mkta|mktb) \(model/;

export function edgeAlertSaid(alert: Pick<AlertRow, 'message' | 'created_at'>): EdgeAlertSaid | null {
  const m = EDGE_MESSAGE.exec(alert.message);
  if (!m) return null;
  return {
    city_id: m[1] as string,
    date: m[2] as string,
    points: Number(m[3]),
    side: m[4] as 'YES' | 'NO',
    bucket_label: m[5] as string,
    price: Number(m[6]),
    venue: m[7] as 'mkta' | 'mktb',
    created_at: alert.created_at,
  };
}

/** One edge alert checked against the board as of its instant. */
export interface EdgeAlertCheck extends EdgeAlertSaid {
  /** The same venue, bucket and side priced at the same price, the edge within 2 points. */
  reproduced: boolean;
  /** The effective edge (points) of that venue's side on the board as of the alert; null: not on it. */
  board_points: number | null;
  /** What the board as of the alert says is behind (DESIGN 3), for the record. */
  behind: string | null;
}

/** The board's city as `export board` writes it: only what the check reads. */
interface BoardCity {
  behind: string | null;
  buckets: {
    bucket_label: string | null;
    p: number | null;
    mkta: { yes_price: number | null; no_price: number | null } | null;
    mktb: { yes_price: number | null; no_price: number | null } | null;
  }[];
}

/**
 * Each edge alert against the board as of its instant: `exportBoard(args)` runs `export board` with `--at`, `--date`
 * and `--city` and returns its JSON. DESIGN 4's effective edge of the alert's side on its venue, from the board's p
 * and the venue's prices: YES p - yes - cost, NO (1 - p) - no - cost, cost max(0.01, half the overround).
 */
export async function checkEdgeAlerts(
  alerts: readonly Pick<AlertRow, 'kind' | 'message' | 'created_at'>[],
  exportBoard: (args: string[]) => Promise<BoardCity[]>,
): Promise<EdgeAlertCheck[]> {
  const out: EdgeAlertCheck[] = [];
  for (const alert of alerts) {
    if (alert.kind !== 'edge') continue;
    const said = edgeAlertSaid(alert);
    if (!said) throw new Error(`an edge alert the check cannot read: ${alert.message}`);
    const [city] = await exportBoard(['--at', said.created_at, '--date', said.date, '--city', said.city_id]);
    const bucket = city?.buckets.find((b) => b.bucket_label === said.bucket_label);
    const quote = bucket?.[said.venue];
    let points: number | null = null;
    let priced: number | null = null;
    if (bucket && quote && bucket.p !== null && quote.yes_price !== null && quote.no_price !== null) {
      const cost = Math.max(0.01, (quote.yes_price + quote.no_price - 1) / 2);
      priced = said.side === 'YES' ? quote.yes_price : quote.no_price;
      const p = said.side === 'YES' ? bucket.p : 1 - bucket.p;
      points = Math.round((p - priced - cost) * 1000) / 10;
    }
    out.push({
      ...said,
      board_points: points,
      behind: city?.behind ?? null,
      reproduced:
        points !== null &&
        priced !== null &&
        Math.abs(priced - said.price) < 0.006 &&
        Math.abs(points - said.points) <= 2,
    });
  }
  return out;
}

/** The most edge alerts any one city-day had. */
export function mostAlertsACityDay(checks: readonly EdgeAlertSaid[]): number {
  const days = new Map<string, number>();
  for (const c of checks) days.set(`${c.city_id}|${c.date}`, (days.get(`${c.city_id}|${c.date}`) ?? 0) + 1);
  return Math.max(0, ...days.values());
}
