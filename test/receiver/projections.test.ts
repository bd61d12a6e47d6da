import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatRows } from '../../src/cli/commands/export-run.js';
import { runCli } from '../cli/run-cli.js';
import { storedPicks, storedTrades } from '../helpers/cache-rows.js';
import { httpClient, isolatedEnv, startTempListener, type TempListener } from '../helpers/listener-harness.js';
import { edgeEvent, insuranceEvent, leg, PRIMARY_SECRET, signed } from '../helpers/webhook-events.js';

/**
 * Retries span hours, so events arrive out of order: the picks and trades the Positions pane shows only move
 * forward. Everything here arrives over HTTP at a real listener, in the order the test chooses; what it became is
 * read back through the inbox views, the raw tables and the built CLI's `export`.
 */

let l: TempListener;
const http = httpClient();
const root = mkdtempSync(join(tmpdir(), 'svc-projections-'));
beforeAll(async () => {
  l = await startTempListener();
});
afterAll(async () => {
  await http.close();
  await l?.close();
  rmSync(root, { recursive: true, force: true });
});

async function deliver(event: object, eventId?: string): Promise<string> {
  const answer = await http.post(l.url, signed(PRIMARY_SECRET, event, eventId ? { eventId } : {}));
  expect(answer.status, answer.body).toBe(200);
  return answer.json.status;
}

const pickRow = (pickId: string) =>
  l.inspect.db.prepare('SELECT * FROM insurance_picks WHERE pick_id = ?').get(pickId) as Record<string, unknown>;
const tradeRow = (id: number) =>
  l.inspect.db.prepare('SELECT * FROM edge_trades WHERE engine_trade_id = ?').get(id) as Record<string, unknown>;
const view = (pickId: string) => storedPicks(l.cache).find((p) => p.pick_id === pickId);
const trade = (id: number) => storedTrades(l.cache).find((t) => t.engine_trade_id === id);
const killAlerts = (pickId: string) => l.inspect.alerts().filter((a) => a.kind === 'kill' && a.ref === pickId);

const PICKS = { killedFirst: randomUUID(), newerFirst: randomUUID(), parent: randomUUID(), addon: randomUUID() };

describe('insurance picks', () => {
  it('a kill that arrives before its pick: killed at once with its legs, the creation fills in later, never un-kills', async () => {
    const pickId = PICKS.killedFirst;
    const legs = [leg('A', 70), leg('B', 72)];
    const kill = insuranceEvent('insurance.pick.killed', {
      pickId,
      legs,
      createdAt: '2026-11-21T18:00:00Z',
      city: 'miami',
      tradeSeq: 2,
    });
    expect(await deliver(kill)).toBe('stored');
    expect(pickRow(pickId)).toMatchObject({ status: 'killed', created_json: null });
    const early = view(pickId);
    expect(early).toMatchObject({ status: 'killed', city_id: 'miami', created_at: null, total_cost_usd: null });
    expect(early?.legs.map((x) => x.bucket_label)).toEqual(legs.map((x) => x.bucket_label));
    expect(early?.kill?.sell_at_market).toBe(true);

    const created = insuranceEvent('insurance.pick.created', {
      pickId,
      legs,
      createdAt: '2026-11-21T09:00:00Z',
      city: 'miami',
    });
    expect(await deliver(created)).toBe('stored');
    expect(pickRow(pickId)).toMatchObject({ status: 'killed' });
    expect(view(pickId)).toMatchObject({
      status: 'killed',
      trade_kind: 'primary',
      created_at: '2026-11-21T09:00:00Z',
      killed_at: '2026-11-21T18:00:00Z',
      total_cost_usd: 20,
    });
    expect(killAlerts(pickId)).toHaveLength(1);
    expect(killAlerts(pickId)[0]).toMatchObject({ severity: 'high', city_id: 'miami' });
  });

  it('raises the kill alert once however often and in whatever form the kill arrives', async () => {
    const pickId = PICKS.killedFirst;
    const again = insuranceEvent('insurance.pick.killed', {
      pickId,
      createdAt: '2026-11-21T18:00:00Z',
      city: 'miami',
      tradeSeq: 2,
    });
    // a retry of the first kill (same id, next attempt) and a second kill event for the same pick, later
    const first = JSON.parse(String(pickRow(pickId).kill_json));
    expect(await deliver({ ...first, attempt: 3 })).toBe('duplicate');
    expect(await deliver({ ...again, created_at: '2026-11-21T19:30:00Z' })).toBe('stored');
    expect(killAlerts(pickId)).toHaveLength(1);
    // the first kill stands
    expect(view(pickId)?.killed_at).toBe('2026-11-21T18:00:00Z');
  });

  it('keeps the newest creation: an older one arriving after a newer one does not overwrite it', async () => {
    const pickId = PICKS.newerFirst;
    const newer = insuranceEvent('insurance.pick.created', {
      pickId,
      createdAt: '2026-11-21T12:00:00Z',
      legs: [leg('A', 50), leg('B', 52)],
      tradeSeq: 2,
    });
    const older = insuranceEvent('insurance.pick.created', {
      pickId,
      createdAt: '2026-11-21T08:00:00Z',
      legs: [leg('A', 40), leg('B', 42)],
      tradeSeq: 1,
    });
    const newest = insuranceEvent('insurance.pick.created', {
      pickId,
      // the same instant as `newer` + 2 h, written with an offset: later although it sorts earlier as text
      createdAt: '2026-11-21T15:00:00+01:00',
      legs: [leg('A', 60), leg('B', 62)],
      tradeSeq: 3,
    });
    expect(await deliver(newer)).toBe('stored');
    expect(await deliver(older)).toBe('stored');
    expect(view(pickId)?.legs.map((x) => x.bucket_low)).toEqual([50, 52]);
    expect(view(pickId)?.created_at).toBe('2026-11-21T12:00:00Z');
    expect(await deliver(newest)).toBe('stored');
    expect(view(pickId)?.legs.map((x) => x.bucket_low)).toEqual([60, 62]);
    expect(view(pickId)).toMatchObject({ status: 'open', kill: null });
  });

  it('gives an addon its own row under its parent, whichever arrives first', async () => {
    const addon = insuranceEvent('insurance.addon.created', {
      pickId: PICKS.addon,
      parentPickId: PICKS.parent,
      createdAt: '2026-11-21T11:00:00Z',
      tradeSeq: 2,
    });
    expect(await deliver(addon)).toBe('stored');
    expect(await deliver(insuranceEvent('insurance.pick.created', { pickId: PICKS.parent }))).toBe('stored');
    expect(pickRow(PICKS.addon)).toMatchObject({ parent_pick_id: PICKS.parent, status: 'open' });
    expect(view(PICKS.addon)).toMatchObject({ parent_pick_id: PICKS.parent, trade_kind: 'addon' });
    expect(view(PICKS.addon)?.legs.map((x) => x.leg)).toEqual(['C']);
    expect(view(PICKS.parent)).toMatchObject({ parent_pick_id: null, trade_kind: 'primary' });
  });
});

describe('edge trades', () => {
  it('an exit before its entry: exited at once, the entry fills in and does not reopen it', async () => {
    const exit = edgeEvent('edge.trade.exited', { tradeId: 101, executedAt: '2026-11-21T13:30:00Z', totalUsd: 12.5 });
    expect(await deliver(exit)).toBe('stored');
    expect(tradeRow(101)).toMatchObject({ status: 'exited', entry_json: null });
    expect(trade(101)).toMatchObject({ status: 'exited', entry: null, pnl_usd: null });
    const entry = edgeEvent('edge.trade.entered', { tradeId: 101, executedAt: '2026-11-21T09:00:00Z', totalUsd: 10 });
    expect(await deliver(entry)).toBe('stored');
    expect(tradeRow(101)).toMatchObject({ status: 'exited' });
    expect(trade(101)).toMatchObject({ status: 'exited', pnl_usd: 2.5 });
    expect(trade(101)?.entry?.operation).toBe('BUY');
  });

  it('of two exits keeps the earlier, whichever arrives first, comparing instants not text', async () => {
    const settle = (id: number) =>
      edgeEvent('edge.trade.exited', {
        tradeId: id,
        operation: 'SETTLE',
        executedAt: '2026-11-22T00:05:00Z',
        totalUsd: 0,
      });
    const sell = (id: number) =>
      edgeEvent('edge.trade.exited', {
        tradeId: id,
        operation: 'SELL',
        executedAt: '2026-11-21T13:30:00Z',
        totalUsd: 14,
      });
    for (const id of [102, 103]) {
      expect(await deliver(edgeEvent('edge.trade.entered', { tradeId: id }))).toBe('stored');
    }
    // SETTLE first, then the earlier SELL: the SELL replaces it
    expect(await deliver(settle(102))).toBe('stored');
    expect(await deliver(sell(102))).toBe('stored');
    expect(trade(102)?.exit).toMatchObject({ operation: 'SELL', total_usd: 14 });
    // SELL first, then the later SETTLE: the SELL stays
    expect(await deliver(sell(103))).toBe('stored');
    expect(await deliver(settle(103))).toBe('stored');
    expect(trade(103)?.exit).toMatchObject({ operation: 'SELL', total_usd: 14 });
    // an exit written with an offset, earlier as an instant though later as text, wins over a Z one
    expect(await deliver(edgeEvent('edge.trade.entered', { tradeId: 104 }))).toBe('stored');
    const z = edgeEvent('edge.trade.exited', { tradeId: 104, operation: 'SETTLE', executedAt: '2026-11-21T14:00:00Z' });
    const offset = edgeEvent('edge.trade.exited', {
      tradeId: 104,
      operation: 'SELL',
      executedAt: '2026-11-21T15:30:00+02:00',
      totalUsd: 9,
    });
    expect(await deliver(z)).toBe('stored');
    expect(await deliver(offset)).toBe('stored');
    expect(trade(104)?.exit).toMatchObject({ operation: 'SELL', executed_at: '2026-11-21T15:30:00+02:00' });
  });

  it('keeps the first entry: a second entry event for the trade does not replace it', async () => {
    expect(await deliver(edgeEvent('edge.trade.entered', { tradeId: 105, totalUsd: 10 }))).toBe('stored');
    // the same body under a fresh header id is the same event
    expect(await deliver(edgeEvent('edge.trade.entered', { tradeId: 105, totalUsd: 10 }))).toBe('duplicate');
    expect(trade(105)?.entry?.total_usd).toBe(10);
    expect(trade(105)?.status).toBe('open');
  });
});

describe('exports of what arrived', () => {
  it('webhook-events, insurance-picks, edge-trades and alerts parse back as json and ndjson', async () => {
    const env = isolatedEnv(root);
    const names = ['webhook-events', 'insurance-picks', 'edge-trades', 'alerts'] as const;
    const parse = (format: 'json' | 'ndjson', text: string) =>
      format === 'json'
        ? JSON.parse(text)
        : text
            .split('\n')
            .filter((line) => line !== '')
            .map((line) => JSON.parse(line));
    // each name through the built CLI in one format, and in the other through the same formatter in-process
    const runs = await Promise.all(
      names.map(async (name, i) => {
        const format: 'json' | 'ndjson' = i % 2 ? 'ndjson' : 'json';
        return { name, format, result: await runCli(['export', name, '--format', format, '--db', l.dbFile], env) };
      }),
    );
    const rows: Record<string, any[]> = {};
    for (const { name, format, result } of runs) {
      expect(result.code, `${name} ${format}: ${result.stderr}`).toBe(0);
      rows[name] = parse(format, result.stdout);
      const other: 'json' | 'ndjson' = format === 'json' ? 'ndjson' : 'json';
      const inProcess = parse(other, formatRows(l.cache.export.rows(name), other));
      expect(inProcess, `${name}: json and ndjson hold the same rows`).toEqual(rows[name]);
    }
    // every event stored, each with its payload as sent
    const stored = l.inspect.events();
    const events = rows['webhook-events'] ?? [];
    expect(events).toHaveLength(stored.length);
    const byId = new Map(stored.map((e) => [e.event_id, e]));
    for (const e of events) {
      expect(e.payload).toEqual(JSON.parse(byId.get(e.event_id)?.body ?? 'null'));
      expect(e.event_type).toBe(byId.get(e.event_id)?.event_type);
    }
    const picks = new Map((rows['insurance-picks'] ?? []).map((p) => [p.pick_id, p]));
    expect(picks.get(PICKS.killedFirst)).toMatchObject({ status: 'killed', created_at: '2026-11-21T09:00:00Z' });
    expect(picks.get(PICKS.addon)).toMatchObject({ parent_pick_id: PICKS.parent, trade_kind: 'addon', status: 'open' });
    expect(picks.get(PICKS.newerFirst)?.legs.map((x: { bucket_low: number }) => x.bucket_low)).toEqual([60, 62]);
    const trades = new Map((rows['edge-trades'] ?? []).map((t) => [t.engine_trade_id, t]));
    expect(trades.get(101)).toMatchObject({ status: 'exited', pnl_usd: 2.5 });
    expect(trades.get(102)?.exit.operation).toBe('SELL');
    expect(trades.get(105)).toMatchObject({ status: 'open', exit: null });
    const kills = (rows.alerts ?? []).filter((a) => a.kind === 'kill');
    expect(kills.map((a) => a.ref)).toEqual([PICKS.killedFirst]);
    expect(kills[0].message).toContain('miami');
  });
});
