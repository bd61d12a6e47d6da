import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instantAtLocal, isoUtc } from '../../src/domain/city-time.js';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * A believable world (issue 13, item 5), read as a trader would read it: through the API of the reference service over
 * the 30-day template world (seed 1). Two figures, printed so they can be quoted and checked here:
 *
 * - each strategy family's total P&L over its settled records stays within 30% of its total stakes: the venues are
 *   about as good as the forecast desk the families follow, so no family earns or loses a fortune;
 * - the venues' prices are probabilities: among the 12:00-local quotes of settled days, in every price decile holding
 *   50 or more quotes, the share of buckets that won is within 0.10 of the decile's mean price, or within three
 *   standard errors, 3 * sqrt(p * (1 - p) / n), where the decile is small enough for that to be the wider bound.
 *
 * The fusion locks and the edge engine, which also trade at the venues' prices, are held to the same 30%.
 */
const LIMIT = 1000;
const FAMILIES = ['no24', 'yescore', 'svc-max-picks'] as const;
const VENUES = ['mkta', 'mktb'] as const;
const MIN_DECILE_QUOTES = 50;
const MAX_PNL_SHARE = 0.3;

let svc: TestService;
/** `city|local_date` -> the slug of the bucket the day settled in (from the daily scores). */
const settled = new Map<string, string>();
const zones = new Map<string, string>();

async function drain(path: string, limit = LIMIT): Promise<any[]> {
  const rows: any[] = [];
  let cursor: string | number | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const reply = await svc.get(`${path}${sep}limit=${limit}${cursor === null ? '' : `&cursor=${cursor}`}`);
    expect(reply.status, `${path}: ${reply.text.slice(0, 200)}`).toBe(200);
    rows.push(...reply.body.data);
    cursor = reply.body.next_cursor;
  } while (cursor !== null);
  return rows;
}

interface Book {
  name: string;
  n: number;
  stake: number;
  pnl: number;
  wins: number;
}

const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);
const money = (n: number) => n.toFixed(2);

function printBooks(title: string, books: Book[]): void {
  const lines = books.map(
    (b) =>
      `  ${b.name.padEnd(14)} ${String(b.n).padStart(5)} ${money(b.stake).padStart(9)} ${money(b.pnl).padStart(9)} ` +
      `${(100 * share(b.pnl, b.stake)).toFixed(1).padStart(6)}% ${(100 * share(b.wins, b.n)).toFixed(1).padStart(6)}%`,
  );
  console.log([title, '  book               n     stake       P&L  P&L/st   wins', ...lines].join('\n'));
}

beforeAll(async () => {
  svc = await startTestService();
  for (const city of (await svc.get('/cities')).body.data) zones.set(city.city_id, city.tz);
  for (const row of await drain('/historical/model_forecasts_daily')) {
    settled.set(`${row.city_id}|${row.local_date}`, row.actual_bucket_slug);
  }
});

afterAll(async () => {
  await svc.close();
});

describe('a believable world (seed 1, 30 days)', () => {
  it('keeps each strategy family’s P&L within 30% of its stakes', async () => {
    const books: Book[] = [];
    for (const family of FAMILIES) {
      const records = (await svc.get(`/${family}?status=resolved&limit=${LIMIT}`)).body.data;
      // no cursor on these endpoints: a full page would mean records left unread
      expect(records.length, `${family}: every settled record fits one page`).toBeLessThan(LIMIT);
      expect(records.length, `${family}: the template world has settled records`).toBeGreaterThan(10);
      books.push({
        name: family,
        n: records.length,
        stake: records.reduce((sum: number, r: any) => sum + r.stake, 0),
        pnl: records.reduce((sum: number, r: any) => sum + r.stake * r.roi, 0),
        wins: records.filter((r: any) => r.outcome === 'win').length,
      });
    }
    printBooks('strategy families over the 30-day fill (settled records)', books);
    for (const book of books) {
      expect(
        Math.abs(book.pnl),
        `${book.name}: P&L ${money(book.pnl)} on ${money(book.stake)} staked`,
      ).toBeLessThanOrEqual(MAX_PNL_SHARE * book.stake);
    }
  });

  it('prices buckets as probabilities: the 12:00-local quotes of settled days win as often as they cost', async () => {
    for (const venue of VENUES) {
      const deciles = Array.from({ length: 10 }, () => ({ n: 0, price: 0, won: 0 }));
      let overround = 0;
      let quotes = 0;
      for (const row of await drain(`/historical/${venue}_buckets_history`)) {
        const winner = settled.get(`${row.city_id}|${row.local_date}`);
        const noon = isoUtc(instantAtLocal(row.local_date, 12, 0, zones.get(row.city_id) as string));
        if (winner === undefined || row.snapshot_at !== noon) continue;
        const decile = deciles[Math.min(9, Math.floor(row.yes_price * 10))] as (typeof deciles)[number];
        decile.n++;
        decile.price += row.yes_price;
        decile.won += row.bucket_slug === winner ? 1 : 0;
        overround += row.yes_price + row.no_price;
        quotes++;
      }
      // 13 cities, 29 settled days with a noon quote, 11 buckets
      expect(quotes, `${venue}: noon quotes of settled days`).toBeGreaterThan(13 * 28 * 11);
      const table = deciles.map((d, i) => {
        const p = share(d.price, d.n);
        const tolerance = Math.max(0.1, 3 * Math.sqrt((p * (1 - p)) / Math.max(1, d.n)));
        const checked = d.n >= MIN_DECILE_QUOTES;
        return { i, n: d.n, p, won: share(d.won, d.n), tolerance, checked };
      });
      console.log(
        [
          `${venue}: 12:00-local quotes of settled days by price decile (mean yes + no ${(overround / quotes).toFixed(4)})`,
          '  decile      n  mean price  won share  bound',
          ...table.map(
            (d) =>
              `  ${(d.i / 10).toFixed(1)}-${((d.i + 1) / 10).toFixed(1)} ${String(d.n).padStart(6)} ` +
              `${d.p.toFixed(3).padStart(11)} ${d.won.toFixed(3).padStart(10)}  ${d.checked ? `±${d.tolerance.toFixed(3)}` : '(< 50)'}`,
          ),
        ].join('\n'),
      );
      for (const d of table.filter((t) => t.checked)) {
        expect(
          Math.abs(d.won - d.p),
          `${venue} decile ${d.i}: ${d.n} quotes at ${d.p.toFixed(3)} won ${d.won.toFixed(3)}`,
        ).toBeLessThanOrEqual(d.tolerance);
      }
      // a realistic overround: YES and NO together cost a little more than 1, never less
      expect(overround / quotes).toBeGreaterThan(1);
      expect(overround / quotes).toBeLessThan(1.05);
    }
  });

  it('keeps the fusion locks and the edge engine, which trade at the same prices, within 30% too', async () => {
    const locks = (await drain('/fusion-locks', 500)).filter((l) => l.resolved);
    const edge = await drain('/historical/edge_resolved');
    const books: Book[] = [
      {
        name: 'fusion locks',
        n: locks.length,
        stake: locks.reduce((sum, l) => sum + l.tokens * l.yes_price, 0),
        pnl: locks.reduce((sum, l) => sum + l.pnl_usd, 0),
        wins: locks.filter((l) => l.hit).length,
      },
      {
        name: 'edge engine',
        n: edge.length,
        stake: edge.reduce((sum, e) => sum + e.entry_price * e.qty, 0),
        pnl: edge.reduce((sum, e) => sum + e.pnl_usd, 0),
        wins: edge.filter((e) => e.pnl_usd > 0).length,
      },
    ];
    printBooks('fusion locks (settled) and edge engine (closed trades) over the 30-day fill', books);
    for (const book of books) {
      expect(book.n, `${book.name}: the template world has trades`).toBeGreaterThan(100);
      expect(Math.abs(book.pnl), `${book.name}: P&L ${money(book.pnl)} on ${money(book.stake)}`).toBeLessThanOrEqual(
        MAX_PNL_SHARE * book.stake,
      );
    }
  });
});
