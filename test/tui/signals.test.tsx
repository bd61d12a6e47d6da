import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INBOX_ALERT_RULES } from '../../src/alerts/kill-alert.js';
import {
  type Cache,
  compareFeed,
  type EdgeTradeView,
  type InsurancePickView,
  openCache,
  type Signal,
} from '../../src/cache/index.js';
import type { City } from '../../src/contract/cities.js';
import type { FusionLock } from '../../src/contract/fusion-locks.js';
import type { StrategyRecord } from '../../src/contract/strategies.js';
import { addDays, instantAtLocal } from '../../src/domain/city-time.js';
import { KIND_LABEL } from '../../src/tui/panes/signals/signal-columns.js';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { storedPicks } from '../helpers/cache-rows.js';
import { type Filled, fillCache, KEYS, lines, now, renderTui, statusSource } from './fixtures.js';

let filled: Filled;
beforeAll(async () => {
  filled = await fillCache();
});
afterAll(() => filled?.close());

type Expected = Pick<Signal, 'kind' | 'at' | 'rank' | 'key' | 'city_id'>;

/**
 * Every signal the cache holds, worked out from the exports (the rows as stored) rather than from the feed's
 * queries: what the feed must list, in order.
 */
function everySignal(cache: Cache): Expected[] {
  const rows = <T,>(name: string) => cache.export.rows(name).map((json) => JSON.parse(json) as T);
  const tz = new Map(rows<City>('cities').map((c) => [c.city_id, c.tz]));
  const out: Expected[] = [];
  for (const p of rows<InsurancePickView>('insurance-picks')) {
    if (p.created_at)
      out.push({
        kind: p.trade_kind === 'addon' ? 'addon' : 'pick',
        rank: 1,
        at: Date.parse(p.created_at),
        key: p.pick_id,
        city_id: p.city_id,
      });
    if (p.killed_at)
      out.push({ kind: 'kill', rank: 0, at: Date.parse(p.killed_at), key: p.pick_id, city_id: p.city_id });
  }
  for (const t of rows<EdgeTradeView>('edge-trades')) {
    const id = t.engine_trade_id;
    if (t.exit)
      out.push({ kind: 'edge-exit', rank: 2, at: Date.parse(t.exit.executed_at), key: id, city_id: t.city_id });
    if (t.entry)
      out.push({ kind: 'edge-entry', rank: 3, at: Date.parse(t.entry.executed_at), key: id, city_id: t.city_id });
  }
  for (const l of rows<FusionLock>('fusion-locks')) {
    out.push({ kind: 'lock', rank: 5, at: Date.parse(l.locked_at), key: l.id, city_id: l.city_id });
    const midnight = instantAtLocal(addDays(l.local_date, 1), 0, 0, tz.get(l.city_id) as string);
    if (l.resolved) out.push({ kind: 'lock-resolved', rank: 4, at: midnight, key: l.id, city_id: l.city_id });
  }
  const families = [
    ['svc-max-picks', 6],
    ['yescore', 7],
    ['no24', 8],
  ] as const;
  for (const [family, rank] of families) {
    for (const r of rows<StrategyRecord>(family)) {
      const zone = tz.get(r.city_id) as string;
      const at =
        r.strategy === 'svc_max_11'
          ? instantAtLocal(r.local_date, r.entry_hour, 0, zone)
          : instantAtLocal(r.local_date, 0, 1, zone);
      out.push({ kind: family, rank, at, key: r.id, city_id: r.city_id });
    }
  }
  return out.sort(compareFeed);
}

const ident = (s: Expected) => `${s.kind}|${s.key}`;

/** The signal rows of a frame: between the column header and the status bar. */
function feedRows(frame: string): string[] {
  const all = lines(frame);
  const header = all.findIndex((l) => l.includes('UTC') && l.includes('signal'));
  return all.slice(header + 1).filter((l) => /^[› ] +~?\d\d-\d\d \d\d:\d\dZ/.test(l));
}

describe('the feed (cache reads)', () => {
  it('pages every signal exactly once, newest first, forwards and backwards, in small pages', () => {
    const cache = filled.copy();
    const expected = everySignal(cache).map(ident);
    // the 30-day world's signals: enough that 37-row pages go deep (2,395 since the desk corrects its bias)
    expect(expected.length).toBeGreaterThan(2000);
    expect(new Set(expected).size).toBe(expected.length);

    const forward: Signal[] = [];
    let page = cache.feed.older(null, 37);
    while (page.length > 0) {
      forward.push(...page);
      page = cache.feed.older(page[page.length - 1] as Signal, 37);
    }
    expect(forward.map(ident)).toEqual(expected);

    const backward: Signal[] = [];
    let back = cache.feed.newer(forward[forward.length - 1] as Signal, 41);
    while (back.length > 0) {
      backward.push(...back);
      back = cache.feed.newer(back[back.length - 1] as Signal, 41);
    }
    expect(backward.map(ident)).toEqual(expected.slice(0, -1).reverse());
  });

  it('reads about a page a source for a page, as deep in the feed as at its top', () => {
    const cache = filled.copy();
    const deep = cache.feed.older(null, 2000).at(-1) as Signal;
    const cost = (after: Signal | null) => {
      const before = { ...cache.readStats };
      cache.feed.older(after, 30);
      return cache.readStats.rows - before.rows;
    };
    const top = cost(null);
    const far = cost(deep);
    // nine sources, 30 rows each, plus the scans' slack and the cities' zones; the feed holds over 2000 signals
    expect(top).toBeLessThan(9 * 30 * 2);
    expect(far).toBeLessThan(9 * 30 * 2);
  });
});

describe('Signals pane', () => {
  it('lists the newest signals first, one row each with city, market date, bucket, price, stake and both times', async () => {
    const cache = filled.copy();
    const expected = everySignal(cache);
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} initialCity="nyc" />);
    await app.press('2');
    const frame = app.frame();
    const header = lines(frame).find((l) => l.includes('signal')) ?? '';
    for (const column of ['UTC', 'local', 'city', 'market', 'bucket', 'side', 'price', 'stake', 'note'])
      expect(header).toContain(column);
    const rows = feedRows(frame);
    expect(rows.length).toBeGreaterThan(20);
    rows.forEach((row, i) => {
      const s = expected[i] as Expected;
      expect(row, `row ${i}`).toContain(KIND_LABEL[s.kind]);
      expect(row, `row ${i}`).toContain(s.city_id);
    });
    // a New York pick at 14:00Z is 09:00 local; its two legs and their prices
    const nycPick = rows.find((r) => r.includes('nyc') && r.includes('PICK')) ?? '';
    expect(nycPick).toMatch(
      /11-21 14:00Z 09:00 +nyc +2026-11-21 +PICK +A \d+-\d+°F \+ B \d+-\d+°F +YES +0\.\d{3}\/0\.\d{3} +10\.00 +2 legs/,
    );
    expect(rows[0]?.startsWith('›')).toBe(true);
    app.unmount();
  });

  it('scrolls by keyset: PgDn, j at the bottom, k at the top and g show the rows that follow or precede', async () => {
    const cache = filled.copy();
    const expected = everySignal(cache);
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />);
    await app.press('2');
    const height = feedRows(app.frame()).length;
    const shows = (rows: string[], from: number) =>
      rows.forEach((row, i) => {
        const s = expected[from + i] as Expected;
        expect(row, `row ${from + i}`).toContain(KIND_LABEL[s.kind]);
        expect(row, `row ${from + i}`).toContain(s.city_id);
      });

    await app.press(KEYS.pageDown, KEYS.pageDown, KEYS.pageDown);
    shows(feedRows(app.frame()), 3 * height);
    for (let i = 0; i < height - 1; i++) await app.press('j');
    expect(feedRows(app.frame()).at(-1)?.startsWith('›')).toBe(true);
    await app.press('j', 'j');
    shows(feedRows(app.frame()), 3 * height + 2);
    await app.press(KEYS.pageUp);
    shows(feedRows(app.frame()), 2 * height + 2);
    // h - 1 presses bring the selection to the top, the last one moves the window up a row
    for (let i = 0; i < height; i++) await app.press('k');
    shows(feedRows(app.frame()), 2 * height + 1);
    expect(feedRows(app.frame())[0]?.startsWith('›')).toBe(true);
    await app.press('g');
    shows(feedRows(app.frame()), 0);
    app.unmount();
  });

  it('Enter shows a pick in full (legs, reasoning, the webhook body as received); Esc comes back to the same row', async () => {
    const cache = filled.copy();
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />);
    await app.press('2');
    const rows = feedRows(app.frame());
    const at = rows.findIndex((r) => r.includes('PICK') && r.includes('nyc'));
    for (let i = 0; i < at; i++) await app.press('j');
    await app.press(KEYS.enter);
    const detail = await app.until((f) => f.includes('LEGS'), 'the detail view');
    expect(detail).toContain('PICK nyc 2026-11-21');
    expect(detail).toMatch(/ {2}A {4}\d+-\d+°F/);
    expect(detail).toMatch(/ {2}B {4}\d+-\d+°F/);
    expect(detail).toContain('REASONING');
    expect(detail).toContain('RAW PAYLOAD (webhook body as received)');
    expect(detail).toContain('"event_type": "insurance.pick.created"');
    expect(detail).toContain('America/New_York');
    await app.press(KEYS.escape);
    const back = await app.until((f) => !f.includes('LEGS'), 'the list again');
    expect(feedRows(back)[at]?.startsWith('›')).toBe(true);
    app.unmount();
  });

  it('a kill that arrives while the pane is open appears on top, marked in text', async () => {
    const cache = filled.copy();
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} coalesceMs={50} />);
    await app.press('2');
    // a kill is told under the primary pick (the newest open pick can be an addon, a hedge leg of its own)
    const pick = storedPicks(cache).find((p) => p.status === 'open' && p.trade_kind === 'primary') as InsurancePickView;
    const event = {
      event_id: '0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b',
      event_type: 'insurance.pick.killed' as const,
      event_version: 1 as const,
      created_at: '2026-11-21T14:55:00Z',
      attempt: 1,
      market: {
        city: pick.city_id,
        market_date: pick.market_date,
        market_tz: pick.market_tz as string,
        bucket_unit: pick.bucket_unit as 'F' | 'C',
        event_slug: pick.event_slug as string,
        mkta_url: pick.mkta_url as string,
      },
      trade: {
        pick_id: pick.pick_id,
        trade_seq: 2,
        trade_kind: 'primary' as const,
        parent_pick_id: null,
        total_cost_usd: 10,
      },
      legs: pick.legs,
      kill: { sell_at_market: true, reason: 'METAR high so far is above every leg' },
    };
    const body = JSON.stringify(event);
    cache.inbox.intake(
      [
        {
          eventId: event.event_id,
          replayKey: null,
          eventType: event.event_type,
          deliveryId: 'd-kill',
          receivedAt: event.created_at,
          body,
          event,
        },
      ],
      INBOX_ALERT_RULES,
    );
    const frame = await app.until((f) => feedRows(f)[0]?.includes('!! KILL') ?? false, 'the kill on top');
    expect(feedRows(frame)[0]).toContain(pick.city_id);
    expect(feedRows(frame)[0]).toContain('METAR high');
    app.unmount();
  });

  it('a webhook.test shows as a TEST signal, its body in the detail', async () => {
    const cache = filled.copy();
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} coalesceMs={50} />);
    await app.press('2');
    const event = {
      event_id: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d',
      event_type: 'webhook.test' as const,
      event_version: 1 as const,
      created_at: new Date(now().getTime() + 60_000).toISOString(),
      attempt: 1,
      message: 'hello from the webhooks page',
    };
    cache.inbox.intake(
      [
        {
          eventId: event.event_id,
          replayKey: null,
          eventType: event.event_type,
          deliveryId: 'd-test',
          receivedAt: event.created_at,
          body: JSON.stringify(event),
          event,
        },
      ],
      INBOX_ALERT_RULES,
    );
    const frame = await app.until((f) => feedRows(f)[0]?.includes('TEST') ?? false, 'the test event on top');
    expect(feedRows(frame)[0]).toMatch(/TEST .* webhook te/);
    await app.press(KEYS.enter);
    const detail = await app.until((f) => f.includes('RAW PAYLOAD'), 'the detail');
    expect(detail).toContain('"message": "hello from the webhooks page"');
    app.unmount();
  });

  it('shows what another process commits to the same cache file (a sync or listen beside it)', async () => {
    const cache = filled.copy();
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} coalesceMs={50} />);
    await app.press('2');
    // a second connection: its commits raise no change event in this one
    const other = openCache(cache.file);
    const event = {
      event_id: '6b7c8d9e-0f1a-4b2c-9d3e-4f5a6b7c8d9e',
      event_type: 'webhook.test' as const,
      event_version: 1 as const,
      created_at: new Date(now().getTime() + 120_000).toISOString(),
      attempt: 1,
      message: 'from another process',
    };
    other.inbox.intake(
      [
        {
          eventId: event.event_id,
          replayKey: null,
          eventType: event.event_type,
          deliveryId: 'd-other',
          receivedAt: event.created_at,
          body: JSON.stringify(event),
          event,
        },
      ],
      INBOX_ALERT_RULES,
    );
    other.close();
    await app.until((f) => feedRows(f)[0]?.includes('TEST') ?? false, 'the other process’s event on top');
    app.unmount();
  });
});
