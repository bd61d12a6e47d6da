import type { Statement } from 'better-sqlite3';
import type { EdgeEvent, EventType, InsuranceEvent, WebhookEvent } from '../contract/events.js';
import { type KillSignal, killSummary } from '../domain/kill-signal.js';
import {
  type EdgeTradeView,
  type InsurancePickView,
  type PickRow,
  pickView,
  type TradeRow,
  tradeView,
  type WebhookEventRow,
} from './inbox-views.js';
import type { MetaRepo } from './meta.js';
import { CacheError } from './open-cache.js';
import { instantMs } from './time.js';

/** An accepted webhook delivery: verified, parsed and validated by the receiver, not yet stored. */
export interface InboxEntry {
  /** X-Svc-Event-Id. */
  eventId: string;
  /** The de-duplication key beside the event id, from the signed body, or null (receiver/identity.ts). */
  replayKey: string | null;
  eventType: EventType;
  deliveryId: string;
  receivedAt: string;
  /** The body exactly as received. */
  body: string;
  event: WebhookEvent;
}

export type IntakeOutcome = 'stored' | 'duplicate';

/** A signed request that could not be accepted, kept with its raw bytes for inspection. */
export interface RejectedWebhook {
  reason: string;
  eventType?: string;
  eventId?: string;
  deliveryId?: string;
  receivedAt: string;
  body: Buffer;
}

export type { EdgeTradeView, InsurancePickView, PickRow, TradeRow, WebhookEventRow } from './inbox-views.js';
export { pickView, tradeView } from './inbox-views.js';

export const PICK_COLUMNS = 'pick_id, parent_pick_id, city_id, market_date, status, created_json, kill_json';
export const TRADE_COLUMNS = 'engine_trade_id, status, entry_json, exit_json';

/**
 * The webhook inbox and what its events become. Out-of-order arrival is the normal case (retries span hours), so
 * each projection only moves forward: a kill is never undone by a late `created`, a pick keeps its newest
 * `created` (by `created_at`) and its first kill; a trade keeps its entry and its earliest exit.
 */
export class InboxRepo {
  constructor(
    private readonly prepared: (sql: string) => Statement<unknown[]>,
    private readonly meta: MetaRepo,
  ) {}

  /** Stores one entry unless its event id or replay key was seen; run inside the caller's transaction. */
  intake(entry: InboxEntry): IntakeOutcome {
    const receivedMs = instantMs(entry.receivedAt);
    if (receivedMs === null) throw new CacheError(`receivedAt '${entry.receivedAt}' is not an ISO 8601 instant`);
    const market = 'market' in entry.event ? entry.event.market : undefined;
    const inserted = this.prepared(
      `INSERT INTO webhook_events (event_id, replay_key, event_type, delivery_id, city_id, market_date, received_at,
       received_ms, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    ).run(
      entry.eventId,
      entry.replayKey,
      entry.eventType,
      entry.deliveryId,
      market?.city ?? null,
      market?.market_date ?? null,
      entry.receivedAt,
      receivedMs,
      entry.body,
    ).changes;
    if (inserted === 0) return 'duplicate';
    const event = entry.event;
    // the projections keep the body as received (valid JSON, checked by the receiver) rather than re-serialise it
    if (event.event_type === 'insurance.pick.killed') this.kill(event, entry.body, entry.receivedAt);
    else if (event.event_type === 'insurance.pick.created' || event.event_type === 'insurance.addon.created')
      this.pickCreated(event, entry.body, entry.receivedAt);
    else if (event.event_type === 'edge.trade.entered' || event.event_type === 'edge.trade.exited')
      this.edge(event, entry.body);
    return 'stored';
  }

  reject(rejected: RejectedWebhook): void {
    this.prepared(
      `INSERT INTO rejected_webhooks (reason, event_type, event_id, delivery_id, received_at, received_ms, body)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      rejected.reason,
      rejected.eventType ?? null,
      rejected.eventId ?? null,
      rejected.deliveryId ?? null,
      rejected.receivedAt,
      instantMs(rejected.receivedAt),
      rejected.body,
    );
  }

  picks(opts: { status?: 'open' | 'killed'; limit?: number } = {}): InsurancePickView[] {
    const where = opts.status ? ' WHERE status = ?' : '';
    const args = opts.status ? [opts.status] : [];
    const sql = `SELECT ${PICK_COLUMNS} FROM insurance_picks${where} ORDER BY coalesce(created_ms, killed_ms) DESC, pick_id LIMIT ?`;
    return this.prepared(sql)
      .all(...args, opts.limit ?? -1)
      .map((row) => pickView(row as PickRow));
  }

  trades(opts: { status?: 'open' | 'exited'; limit?: number } = {}): EdgeTradeView[] {
    const where = opts.status ? ' WHERE status = ?' : '';
    const args = opts.status ? [opts.status] : [];
    const sql = `SELECT ${TRADE_COLUMNS} FROM edge_trades${where} ORDER BY engine_trade_id DESC LIMIT ?`;
    return this.prepared(sql)
      .all(...args, opts.limit ?? -1)
      .map((row) => tradeView(row as TradeRow));
  }

  /** Events newest first; `beforeSeq` continues after the last row of the previous page. */
  events(opts: { limit?: number; beforeSeq?: number } = {}): WebhookEventRow[] {
    return this.prepared(
      `SELECT seq, event_type, event_id, delivery_id, city_id, market_date, received_at, body FROM webhook_events
       WHERE seq < ? ORDER BY seq DESC LIMIT ?`,
    ).all(opts.beforeSeq ?? Number.MAX_SAFE_INTEGER, opts.limit ?? -1) as WebhookEventRow[];
  }

  private pickCreated(event: InsuranceEvent, body: string, receivedAt: string): void {
    const { trade, market } = event;
    // an addon that arrives after its parent's kill is born killed
    this.prepared(
      `INSERT INTO insurance_picks (pick_id, parent_pick_id, city_id, market_date, status, created_ms, created_json,
         killed_ms, kill_json)
       SELECT @pick, @parent, @city, @date, coalesce(parent.status, 'open'), @ms, @body, parent.killed_ms,
         parent.kill_json
       FROM (SELECT 1) LEFT JOIN insurance_picks AS parent ON parent.pick_id = @parent AND parent.status = 'killed'
       WHERE true
       ON CONFLICT (pick_id) DO UPDATE SET parent_pick_id = excluded.parent_pick_id, created_ms = excluded.created_ms,
         created_json = excluded.created_json
       WHERE created_ms IS NULL OR excluded.created_ms > created_ms`,
    ).run({
      pick: trade.pick_id,
      parent: trade.parent_pick_id,
      city: market.city,
      date: market.market_date,
      ms: instantMs(event.created_at),
      body,
    });
    const notice = this.killNotice(event);
    if (notice && !this.meta.hasAlert('kill', trade.pick_id)) this.killAlert(trade.pick_id, notice, receivedAt);
  }

  /**
   * What a trader must sell because of a stored event, or nothing: for a kill, its legs and those of the pick's
   * addons (the kill echoes A and B only, but the hedge leg C loses with them); for an addon that arrived after its
   * parent's kill, the addon's legs under that kill. Read after the commit, for the desktop notification.
   */
  killNotice(event: InsuranceEvent): KillSignal | undefined {
    if (event.event_type === 'insurance.pick.killed') {
      const addons = this.prepared(
        `SELECT created_json FROM insurance_picks WHERE parent_pick_id = ? AND created_json IS NOT NULL ORDER BY pick_id`,
      )
        .pluck()
        .all(event.trade.pick_id) as string[];
      const legs = addons.flatMap((json) => (JSON.parse(json) as InsuranceEvent).legs);
      return { ...event, legs: [...event.legs, ...legs] };
    }
    if (event.event_type !== 'insurance.addon.created') return undefined;
    const kill = this.prepared(`SELECT kill_json FROM insurance_picks WHERE pick_id = ? AND status = 'killed'`)
      .pluck()
      .get(event.trade.pick_id) as string | null | undefined;
    if (!kill) return undefined;
    return { market: event.market, legs: event.legs, kill: (JSON.parse(kill) as InsuranceEvent).kill };
  }

  /**
   * Kill alerts whose desktop notification has not run yet (`pickIds`: only those about these picks), each with the
   * kill signal to show, rebuilt from the pick as stored: its own kill with its addons' legs, or an addon born
   * killed under its parent's kill. `signal` is undefined when the pick is not there to rebuild it from.
   */
  unnotifiedKills(pickIds?: readonly string[]): { alertId: number; pickId: string; signal?: KillSignal }[] {
    return this.meta.unnotifiedKills(pickIds).map(({ id, ref }) => {
      const pick = this.prepared('SELECT created_json, kill_json FROM insurance_picks WHERE pick_id = ?').get(ref) as
        | { created_json: string | null; kill_json: string | null }
        | undefined;
      let signal: KillSignal | undefined;
      if (pick?.kill_json) {
        const kill = JSON.parse(pick.kill_json) as InsuranceEvent;
        // the kill of this very pick, or (an addon born killed) its parent's: then the addon's own legs
        const event = kill.trade.pick_id === ref || !pick.created_json ? kill : JSON.parse(pick.created_json);
        signal = this.killNotice(event as InsuranceEvent);
      }
      return { alertId: id, pickId: ref, signal };
    });
  }

  /** The kill alert's notification ran, or had nothing to run: at `at`. */
  markNotified(alertId: number, at: string): boolean {
    return this.meta.markNotified(alertId, at);
  }

  private killAlert(pickId: string, notice: KillSignal, receivedAt: string): void {
    const { title, text } = killSummary(notice);
    this.meta.addAlert({
      severity: 'high',
      kind: 'kill',
      ref: pickId,
      city_id: notice.market.city,
      created_at: receivedAt,
      message: `${title}: ${text}`,
    });
  }

  private kill(event: InsuranceEvent, body: string, receivedAt: string): void {
    const { trade, market } = event;
    this.prepared(
      `INSERT INTO insurance_picks (pick_id, parent_pick_id, city_id, market_date, status, killed_ms, kill_json)
       VALUES (?, ?, ?, ?, 'killed', ?, ?)
       ON CONFLICT (pick_id) DO UPDATE SET status = 'killed', killed_ms = excluded.killed_ms,
         kill_json = excluded.kill_json
       WHERE killed_ms IS NULL OR excluded.killed_ms < killed_ms`,
    ).run(trade.pick_id, trade.parent_pick_id, market.city, market.market_date, instantMs(event.created_at), body);
    // the kill echoes legs A and B only; a hedge addon on the same market loses with them, so it goes too
    this.prepared(
      `UPDATE insurance_picks SET status = 'killed', killed_ms = ?, kill_json = ? WHERE parent_pick_id = ? AND status = 'open'`,
    ).run(instantMs(event.created_at), body, trade.pick_id);
    if (this.meta.hasAlert('kill', trade.pick_id)) return;
    this.killAlert(trade.pick_id, this.killNotice(event) as KillSignal, receivedAt);
  }

  private edge(event: EdgeEvent, body: string): void {
    const { trade, market } = event;
    const entry = trade.operation === 'BUY';
    const column = entry ? 'entry' : 'exit';
    const ms = entry ? 'entered_ms' : 'exited_ms';
    // an entry is kept once; of two exits (SELL, then SETTLE) the earlier stands
    const keep = entry ? 'entry_json IS NULL' : 'exit_json IS NULL OR excluded.exited_ms < exited_ms';
    this.prepared(
      `INSERT INTO edge_trades (engine_trade_id, city_id, market_date, status, ${ms}, ${column}_json)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (engine_trade_id) DO UPDATE SET ${ms} = excluded.${ms}, ${column}_json = excluded.${column}_json
         ${entry ? '' : ", status = 'exited'"}
       WHERE ${keep}`,
    ).run(
      trade.engine_trade_id,
      market.city,
      market.market_date,
      entry ? 'open' : 'exited',
      instantMs(trade.executed_at),
      body,
    );
  }
}

/** The change events of stored entries (after their commit): events, and the picks, trades and alerts they moved. */
export function inboxChanges(stored: readonly InboxEntry[]): { table: string; ids: (string | number)[] }[] {
  const changes: { table: string; ids: (string | number)[] }[] = [
    { table: 'webhook-events', ids: stored.map((e) => e.eventId) },
  ];
  // by event type: a webhook.test has no trade at all
  const picks = stored.flatMap((e) =>
    e.eventType.startsWith('insurance.') ? [(e.event as InsuranceEvent).trade.pick_id] : [],
  );
  const trades = stored.flatMap((e) =>
    e.eventType.startsWith('edge.') ? [(e.event as EdgeEvent).trade.engine_trade_id] : [],
  );
  if (picks.length > 0) changes.push({ table: 'insurance-picks', ids: picks });
  if (trades.length > 0) changes.push({ table: 'edge-trades', ids: trades });
  // a kill raises an alert, and so does an addon born killed; a pick's creation never does
  if (stored.some((e) => e.eventType === 'insurance.pick.killed' || e.eventType === 'insurance.addon.created'))
    changes.push({ table: 'alerts', ids: [] });
  return changes;
}
