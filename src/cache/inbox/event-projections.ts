import type { Statement } from 'better-sqlite3';
import type { EdgeEvent, InsuranceEvent } from '../../contract/events.js';
import type { KillSignal } from '../../domain/kill-signal.js';
import type { AlertRows } from '../alerts.js';
import { CacheError } from '../db/cache-error.js';
import { instantMs } from '../db/time.js';
import type { InboxAlertRules, InboxEntry, IntakeOutcome } from './inbox-entry.js';
import { killNotice } from './kill-notices.js';

/**
 * An accepted event, stored once, and what it becomes: a pick, a kill, an edge trade. Out-of-order arrival is the
 * normal case (retries span hours), so each projection only moves forward: a kill is never undone by a late
 * `created`, a pick keeps its newest `created` (by `created_at`) and its first kill; a trade keeps its entry and its
 * earliest exit. Every method runs inside the caller's transaction.
 */
export class EventProjections {
  constructor(
    private readonly prepared: (sql: string) => Statement<unknown[]>,
    private readonly alerts: AlertRows,
  ) {}

  /** Stores one entry unless its event id or replay key was seen. */
  store(entry: InboxEntry, rules: InboxAlertRules): IntakeOutcome {
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
    if (event.event_type === 'insurance.pick.killed') this.kill(event, entry.body, entry.receivedAt, rules);
    else if (event.event_type === 'insurance.pick.created' || event.event_type === 'insurance.addon.created')
      this.pickCreated(event, entry.body, entry.receivedAt, rules);
    else if (event.event_type === 'edge.trade.entered' || event.event_type === 'edge.trade.exited')
      this.edge(event, entry.body);
    return 'stored';
  }

  private pickCreated(event: InsuranceEvent, body: string, receivedAt: string, rules: InboxAlertRules): void {
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
    const notice = killNotice(this.prepared, event);
    if (notice) this.raiseKill(trade.pick_id, notice, receivedAt, rules);
  }

  private kill(event: InsuranceEvent, body: string, receivedAt: string, rules: InboxAlertRules): void {
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
    this.raiseKill(trade.pick_id, killNotice(this.prepared, event) as KillSignal, receivedAt, rules);
  }

  /** The alert rules decide what a killed pick raises; the row goes in with the event. */
  private raiseKill(pickId: string, signal: KillSignal, receivedAt: string, rules: InboxAlertRules): void {
    const alert = rules.kill({ pickId, signal, receivedAt, alerted: this.alerts.raised('kill', pickId) });
    if (alert) this.alerts.insert(alert);
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
