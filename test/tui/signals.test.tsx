import { afterAll, describe, expect, it } from 'vitest';
import { INBOX_ALERT_RULES } from '../../src/alerts/kill-alert.js';
import { openCache, type Signal } from '../../src/cache/index.js';
import type { WebhookEvent } from '../../src/contract/events.js';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import {
  fusionLock,
  type HandCache,
  handCaches,
  LONDON,
  NYC,
  no24,
  PARIS,
  pickEvent,
  svcMaxPick,
  yescore,
} from '../helpers/cache-builder.js';
import { monitorScene, now, PICK_NYC, TODAY } from '../helpers/monitor-scene.js';
import { edgeEvent, leg } from '../helpers/webhook-events.js';
import { KEYS, lines, renderTui, statusSource } from './fixtures.js';

const caches = handCaches('tui-signals-');
afterAll(() => caches.close());
/** The hand-built scene of helpers/monitor-scene.ts: 28 signals over 11-18..11-21. */
const scene = () => monitorScene(caches.open());

/** A signal as the feed keys it. */
interface Expected {
  kind: Signal['kind'];
  key: string | number;
  city: string;
  at: number;
}
const ident = (s: { kind: string; key: string | number }) => `${s.kind}|${s.key}`;

const HOUR = 3_600_000;
const uuid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const isoOf = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/**
 * `n` signals with an instant of their own, one every 7 minutes back from 11-21 14:03:30Z (never on a whole minute,
 * so no two share an instant, nor any with a record's 00:01 or a settlement's 00:00), cycling: a London pick; an edge
 * entry; a London lock; the kill of the pick 3 steps older; the exit of the trade 3 steps older; an addon. And, for
 * each UTC day they span, the signals whose instant follows from a rule: a London no24 record (00:01 local = 00:01Z),
 * a Paris yescore record (00:01 local = 23:01Z the day before), a New York svc-max pick entered at 11:00 local
 * (16:00Z) and the settlement of the day's first lock (at London's midnight after it, 00:00Z). Returns every signal
 * written, newest first: with no instant shared, the feed's order is the instants' order.
 */
/** The cities' names, as the pane shows them. */
const NAME: Record<string, string> = Object.fromEntries([NYC, LONDON, PARIS].map((c) => [c.city_id, c.city_name]));

function signalVolume(h: HandCache, n: number): Expected[] {
  h.cities(NYC, LONDON, PARIS);
  const out: Expected[] = [];
  const events: WebhookEvent[] = [];
  const settled = new Set<string>();
  const locks = [];
  for (let i = 0; i < n; i++) {
    const ms = Date.parse('2026-11-21T14:03:30Z') - i * 7 * 60_000;
    const at = isoOf(ms);
    const date = at.slice(0, 10);
    const london = { city: LONDON, date, at, legs: [leg('A', 50), leg('B', 52)] };
    const tradeId = (k: number) => 10_000 + k;
    switch (i % 6) {
      case 0:
        events.push(pickEvent('insurance.pick.created', { ...london, pickId: uuid(i) }));
        out.push({ kind: 'pick', key: uuid(i), city: 'london', at: ms });
        break;
      case 1:
        events.push(edgeEvent('edge.trade.entered', { tradeId: tradeId(i), marketDate: date, executedAt: at }));
        out.push({ kind: 'edge-entry', key: tradeId(i), city: 'london', at: ms });
        break;
      case 2: {
        const first = !settled.has(date);
        settled.add(date);
        locks.push(
          fusionLock({
            id: `V-${String(i).padStart(5, '0')}`,
            city_id: 'london',
            local_date: date,
            locked_at: at,
            bucket_label: '50-51°F',
            yes_price: 0.4,
            tokens: 25,
            ...(first ? { hit: true, actual_c: 10 } : {}),
          }),
        );
        out.push({ kind: 'lock', key: `V-${String(i).padStart(5, '0')}`, city: 'london', at: ms });
        if (first) {
          const midnight = Date.parse(`${date}T00:00:00Z`) + 24 * HOUR;
          out.push({ kind: 'lock-resolved', key: `V-${String(i).padStart(5, '0')}`, city: 'london', at: midnight });
        }
        break;
      }
      case 3:
        events.push(pickEvent('insurance.pick.killed', { ...london, pickId: uuid(i + 3) }));
        out.push({ kind: 'kill', key: uuid(i + 3), city: 'london', at: ms });
        break;
      case 4:
        events.push(edgeEvent('edge.trade.exited', { tradeId: tradeId(i + 3), marketDate: date, executedAt: at }));
        out.push({ kind: 'edge-exit', key: tradeId(i + 3), city: 'london', at: ms });
        break;
      default:
        events.push(pickEvent('insurance.addon.created', { ...london, pickId: uuid(i), parent: uuid(999_999) }));
        out.push({ kind: 'addon', key: uuid(i), city: 'london', at: ms });
    }
  }
  h.deliver(events);
  h.locks(...locks);
  const days = [...settled];
  days.forEach((date, d) => {
    const record = { local_date: date, bucket_label: '50-51°F', shares: 20, ask: 0.5 };
    h.records('no24', no24({ ...record, id: 1 + d, city_id: 'london' }));
    h.records('yescore', yescore({ ...record, id: 1 + d, city_id: 'paris' }));
    h.records('svc-max-picks', svcMaxPick({ ...record, id: 1 + d, city_id: 'nyc', entry_hour: 11 }));
    const day = Date.parse(`${date}T00:00:00Z`);
    out.push({ kind: 'no24', key: 1 + d, city: 'london', at: day + 60_000 });
    out.push({ kind: 'yescore', key: 1 + d, city: 'paris', at: day - HOUR + 60_000 });
    out.push({ kind: 'svc-max-picks', key: 1 + d, city: 'nyc', at: day + 16 * HOUR });
  });
  expect(new Set(out.map((s) => s.at)).size, 'no two signals share an instant').toBe(out.length);
  return out.sort((a, b) => b.at - a.at);
}

const LABEL: Record<Signal['kind'], string> = {
  kill: '!! KILL',
  pick: 'PICK',
  addon: 'ADDON',
  test: 'TEST',
  'edge-exit': 'EDGE EXIT',
  'edge-entry': 'EDGE ENTRY',
  'lock-resolved': 'LOCK SETTLED',
  lock: 'LOCK',
  'svc-max-picks': 'SVC-MAX',
  yescore: 'YESCORE',
  no24: 'NO24',
};

/** The signal rows of a frame: between the column header and the status bar. */
function feedRows(frame: string): string[] {
  const all = lines(frame);
  const header = all.findIndex((l) => l.includes('UTC') && l.includes('signal'));
  return all.slice(header + 1).filter((l) => /^[› ] +~?\d\d-\d\d \d\d:\d\dZ/.test(l));
}

describe('the feed (cache reads)', () => {
  it('pages every signal exactly once, newest first, forwards and backwards, in small pages', () => {
    const h = caches.open();
    const expected = signalVolume(h, 2100).map(ident);
    // 2,100 with an instant of their own, and for each of the 11 days from 11-11 to 11-21 a no24, a yescore, an
    // svc-max pick and a lock settlement (the last one's at 11-22 00:00Z, the newest): 2,144
    expect(expected).toHaveLength(2144);
    expect(expected[0]).toBe('lock-resolved|V-00002');

    const forward: Signal[] = [];
    let page = h.cache.feed.older(null, 37);
    while (page.length > 0) {
      forward.push(...page);
      page = h.cache.feed.older(page[page.length - 1] as Signal, 37);
    }
    expect(forward.map(ident)).toEqual(expected);

    const backward: Signal[] = [];
    let back = h.cache.feed.newer(forward[forward.length - 1] as Signal, 41);
    while (back.length > 0) {
      backward.push(...back);
      back = h.cache.feed.newer(back[back.length - 1] as Signal, 41);
    }
    expect(backward.map(ident)).toEqual(expected.slice(0, -1).reverse());
  });

  it('reads about a page a source for a page, as deep in the feed as at its top', () => {
    const h = caches.open();
    signalVolume(h, 2100);
    const cache = h.cache;
    const deep = cache.feed.older(null, 2000).at(-1) as Signal;
    const cost = (after: Signal | null) => {
      const before = { ...cache.readStats };
      cache.feed.older(after, 30);
      return cache.readStats.rows - before.rows;
    };
    const top = cost(null);
    const far = cost(deep);
    // nine sources, 30 rows each, plus the scans' slack and the cities' zones; the feed holds 2,144 signals
    expect(top).toBeLessThan(9 * 30 * 2);
    expect(far).toBeLessThan(9 * 30 * 2);
  });
});

describe('Signals pane', () => {
  it('lists the newest signals first, one row each with city, market date, bucket, price, stake and both times', async () => {
    // wide enough for every note
    const app = await renderTui(<MonitorApp cache={scene()} source={statusSource()} now={now} initialCity="nyc" />, {
      columns: 160,
      rows: 40,
    });
    await app.pane('2');
    const frame = await app.until((f) => feedRows(f).length === 28, 'the feed');
    const header = lines(frame).find((l) => l.includes('signal')) ?? '';
    for (const column of ['UTC', 'local', 'city', 'market', 'bucket', 'side', 'price', 'stake', 'note'])
      expect(header).toContain(column);
    // every signal of the scene, newest first, its city by name as the board names it; at one instant by kind (kill, pick, exit, entry, test, settlement,
    // lock, svc-max, yescore, no24), then by key, descending; ~ marks an instant that follows from a rule
    const rows = feedRows(frame);
    expect(
      rows.map((r) =>
        r
          .match(/^[› ] +(~?\d\d-\d\d \d\d:\d\dZ) \d\d:\d\d +(\S+(?: \S+)*?) +\d{4}-\d\d-\d\d {2}(\S+( \S+)?)/)
          ?.slice(1, 4),
      ),
    ).toEqual([
      ['11-21 14:00Z', 'New York City', 'PICK'],
      ['11-21 14:00Z', 'Paris', 'LOCK'],
      ['11-21 14:00Z', 'London', 'LOCK'],
      ['11-21 13:00Z', 'Paris', 'PICK'],
      ['11-21 09:00Z', 'London', 'EDGE ENTRY'],
      ['~11-21 05:01Z', 'New York City', 'YESCORE'],
      ['~11-21 05:01Z', 'New York City', 'NO24'],
      ['~11-21 05:00Z', 'New York City', 'LOCK SETTLED'],
      ['~11-21 00:01Z', 'London', 'NO24'],
      ['~11-21 00:00Z', 'London', 'LOCK SETTLED'],
      ['~11-20 23:01Z', 'Paris', 'NO24'],
      ['~11-20 23:01Z', 'Paris', 'NO24'],
      ['11-20 20:00Z', 'New York City', 'LOCK'],
      ['~11-20 16:00Z', 'New York City', 'SVC-MAX'],
      ['11-20 15:30Z', 'London', '!! KILL'],
      ['11-20 14:00Z', 'London', 'LOCK'],
      ['11-20 13:30Z', 'London', 'EDGE EXIT'],
      ['11-20 10:00Z', 'London', 'PICK'],
      ['11-20 09:00Z', 'London', 'EDGE ENTRY'],
      ['~11-20 05:01Z', 'New York City', 'YESCORE'],
      ['~11-20 05:01Z', 'New York City', 'NO24'],
      ['~11-20 05:00Z', 'New York City', 'LOCK SETTLED'],
      ['~11-20 00:01Z', 'London', 'NO24'],
      ['~11-19 23:01Z', 'Paris', 'YESCORE'],
      ['11-19 20:00Z', 'New York City', 'LOCK'],
      ['11-19 13:00Z', 'Paris', '!! KILL'],
      ['11-19 09:00Z', 'Paris', 'PICK'],
      ['~11-18 23:01Z', 'Paris', 'NO24'],
    ]);
    // New York's pick at 14:00Z is 09:00 local; its two legs and their prices, its cost
    expect(rows[0]).toMatch(
      /^› +11-21 14:00Z 09:00 +New York City +2026-11-21 +PICK +A 50-51°F \+ B 52-53°F +YES +0\.250\/0\.200 +10\.00 +2 legs$/,
    );
    // the exit of trade #7000: sold for 11.45 what cost 10.00
    expect(rows[16]).toMatch(/EDGE EXIT +52-53°F +NO +0\.710 +11\.45 SELL P&L 1\.45: edge/);
    app.unmount();
  });

  it('at 80 columns keeps the side (in the bucket) and the price, and no column of lone …; at 100 the stake and note', async () => {
    const app = await renderTui(<MonitorApp cache={scene()} source={statusSource()} now={now} initialCity="nyc" />, {
      columns: 80,
      rows: 24,
    });
    await app.pane('2');
    let frame = await app.until((f) => feedRows(f).length > 0, 'the feed');
    // 2 + UTC 13+1 + city 13+1 + market MM-DD 6+1 + signal 12+1 + price 11+1 = 62, the bucket the 17 left: the pick's
    // 'YES A 50-51°F + B 52-53°F' (25) cut to 16 and …, the price right in its 11; no room for the stake (8+1) nor the note
    const header = lines(frame).find((l) => l.includes('UTC') && l.includes('signal'));
    expect(header).toBe('  UTC           city          market signal       bucket                  price');
    let rows = feedRows(frame);
    expect(rows[0]).toBe('›  11-21 14:00Z New York City 11-21  PICK         YES A 50-51°F + … 0.250/0.200');
    expect(rows[16]).toMatch(/^ {3}11-20 13:30Z London +11-20 {2}EDGE EXIT {4}NO 52-53°F {14}0\.710$/);
    expect(rows.filter((r) => r.endsWith('…'))).toEqual([]);
    // at 100: 62 + the bucket's widest 22+1 + the stake's 8+1 = 94, six left: the note's first six ('2 legs')
    await app.resize(100, 24);
    frame = await app.until((f) => lines(f).some((l) => l.endsWith(' note')), 'the note column');
    rows = feedRows(frame);
    expect(rows[0]).toBe(
      '›  11-21 14:00Z New York City 11-21  PICK         YES A 50-51°F + B 52-… 0.250/0.200    10.00 2 legs',
    );
    app.unmount();
  });

  it('scrolls by keyset: PgDn, j at the bottom, k at the top and g show the rows that follow or precede', async () => {
    const h = caches.open();
    const expected = signalVolume(h, 2100);
    const app = await renderTui(<MonitorApp cache={h.cache} source={statusSource()} now={now} />);
    await app.pane('2');
    const height = feedRows(await app.until((f) => feedRows(f).length > 20, 'the feed')).length;
    const stamp = (i: number) =>
      isoOf((expected[i] as Expected).at)
        .slice(5, 16)
        .replace('T', ' ');
    /** Waits for the window that starts at signal `from` (the selection on its row `selected`), then checks it. */
    const shows = async (from: number, selected?: number) => {
      const frame = await app.until((f) => {
        const rows = feedRows(f);
        return (
          (rows[0]?.includes(stamp(from)) ?? false) && (selected === undefined || !!rows[selected]?.startsWith('›'))
        );
      }, `the window from signal ${from}`);
      const rows = feedRows(frame);
      expect(rows).toHaveLength(height);
      rows.forEach((row, i) => {
        const s = expected[from + i] as Expected;
        expect(row, `row ${from + i}`).toContain(LABEL[s.kind]);
        expect(row, `row ${from + i}`).toContain(NAME[s.city] as string);
        expect(row, `row ${from + i}`).toContain(stamp(from + i));
      });
    };

    /** One key, then the window it leads to: a second key before the frame caught up would be judged too early. */
    const press = async (key: string, from: number, selected?: number) => {
      await app.press(key);
      await shows(from, selected);
    };

    for (const page of [1, 2, 3]) await press(KEYS.pageDown, page * height);
    for (let i = 1; i < height; i++) await press('j', 3 * height, i);
    await press('j', 3 * height + 1, height - 1);
    await press('j', 3 * height + 2, height - 1);
    await press(KEYS.pageUp, 2 * height + 2, height - 1);
    // h - 1 presses bring the selection to the top, the last one moves the window up a row
    for (let i = 1; i < height; i++) await press('k', 2 * height + 2, height - 1 - i);
    await press('k', 2 * height + 1, 0);
    await press('g', 0, 0);
    app.unmount();
  });

  it('Enter shows a pick in full (legs, reasoning, the webhook body as received); Esc comes back to the same row', async () => {
    const app = await renderTui(<MonitorApp cache={scene()} source={statusSource()} now={now} />);
    await app.pane('2');
    // the fourth row: Paris' pick
    const at = 3;
    for (let i = 1; i <= at; i++) {
      await app.press('j');
      await app.until((f) => feedRows(f)[i]?.startsWith('›') ?? false, `row ${i} selected`);
    }
    await app.press(KEYS.enter);
    const detail = await app.until((f) => f.includes('LEGS'), 'the detail view');
    expect(detail).toContain('PICK Paris 2026-11-21');
    expect(detail).toMatch(/ {2}A {4}12°C/);
    expect(detail).toMatch(/ {2}B {4}13°C/);
    expect(detail).toContain('REASONING');
    expect(detail).toContain('RAW PAYLOAD (webhook body as received)');
    expect(detail).toContain('"event_type": "insurance.pick.created"');
    expect(detail).toContain('"pick_id": "22222222-2222-4222-8222-222222222222"');
    expect(detail).toContain('Europe/Paris');
    await app.press(KEYS.escape);
    const back = await app.until((f) => !f.includes('LEGS'), 'the list again');
    expect(feedRows(back)[at]?.startsWith('›')).toBe(true);
    expect(feedRows(back)[at]).toContain('Paris');
    app.unmount();
  });

  it('a kill that arrives while the pane is open appears on top, marked in text', async () => {
    const cache = scene();
    // wide enough for the start of its note
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} coalesceMs={50} />, {
      columns: 160,
      rows: 40,
    });
    await app.pane('2');
    // New York's live pick is killed
    const kill = pickEvent('insurance.pick.killed', {
      pickId: PICK_NYC,
      city: NYC,
      date: TODAY,
      at: '2026-11-21T14:55:00Z',
      legs: [leg('A', 50), leg('B', 52)],
      reason: 'METAR high so far is above every leg',
    });
    cache.inbox.intake(
      [
        {
          eventId: kill.event_id,
          replayKey: null,
          eventType: kill.event_type,
          deliveryId: 'd-kill',
          receivedAt: kill.created_at,
          body: JSON.stringify(kill),
          event: kill,
        },
      ],
      INBOX_ALERT_RULES,
    );
    const frame = await app.until((f) => feedRows(f)[0]?.includes('!! KILL') ?? false, 'the kill on top');
    expect(feedRows(frame)[0]).toMatch(/11-21 14:55Z .* New York City .* !! KILL .* market .* METAR high/);
    app.unmount();
  });

  it('a webhook.test shows as a TEST signal, its body in the detail', async () => {
    const cache = scene();
    // wide enough for the start of its note
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} coalesceMs={50} />, {
      columns: 160,
      rows: 40,
    });
    await app.pane('2');
    const event = {
      event_id: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d',
      event_type: 'webhook.test' as const,
      event_version: 1 as const,
      created_at: '2026-11-21T15:01:00Z',
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
    const cache = scene();
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} coalesceMs={50} />);
    await app.pane('2');
    // a second connection: its commits raise no change event in this one
    const other = openCache(cache.file);
    const event = {
      event_id: '6b7c8d9e-0f1a-4b2c-9d3e-4f5a6b7c8d9e',
      event_type: 'webhook.test' as const,
      event_version: 1 as const,
      created_at: '2026-11-21T15:02:00Z',
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
