import type { Statement } from 'better-sqlite3';
import type { InsuranceEvent } from '../../contract/events.js';
import type { KillSignal } from '../../domain/kill-signal.js';
import { withBids } from './leg-bids.js';

type Prepared = (sql: string) => Statement<unknown[]>;

/**
 * What a trader must sell because of a stored event, or nothing: for a kill, its legs and those of the pick's
 * addons (the kill echoes A and B only, but the hedge leg C loses with them); for an addon that arrived after its
 * parent's kill, the addon's legs under that kill. Read inside the event's transaction (for its alert) and after
 * it (for the desktop notification). Each leg with the venue's bid for it now (leg-bids.ts).
 */
export function killNotice(prepared: Prepared, event: InsuranceEvent): KillSignal | undefined {
  const signal = legsToSell(prepared, event);
  return signal && withBids(prepared, signal);
}

function legsToSell(prepared: Prepared, event: InsuranceEvent): KillSignal | undefined {
  if (event.event_type === 'insurance.pick.killed') {
    const addons = prepared(
      `SELECT created_json FROM insurance_picks WHERE parent_pick_id = ? AND created_json IS NOT NULL ORDER BY pick_id`,
    )
      .pluck()
      .all(event.trade.pick_id) as string[];
    const legs = addons.flatMap((json) => (JSON.parse(json) as InsuranceEvent).legs);
    return { ...event, legs: [...event.legs, ...legs] };
  }
  if (event.event_type !== 'insurance.addon.created') return undefined;
  const kill = prepared(`SELECT kill_json FROM insurance_picks WHERE pick_id = ? AND status = 'killed'`)
    .pluck()
    .get(event.trade.pick_id) as string | null | undefined;
  if (!kill) return undefined;
  return { market: event.market, legs: event.legs, kill: (JSON.parse(kill) as InsuranceEvent).kill };
}

/**
 * The kill signal of a pick as stored, rebuilt for a kill alert whose notification has not run: its own kill with
 * its addons' legs, or an addon born killed under its parent's kill. Undefined when the pick is not there.
 */
export function storedKillNotice(prepared: Prepared, pickId: string): KillSignal | undefined {
  const pick = prepared('SELECT created_json, kill_json FROM insurance_picks WHERE pick_id = ?').get(pickId) as
    | { created_json: string | null; kill_json: string | null }
    | undefined;
  if (!pick?.kill_json) return undefined;
  const kill = JSON.parse(pick.kill_json) as InsuranceEvent;
  // the kill of this very pick, or (an addon born killed) its parent's: then the addon's own legs
  const event = kill.trade.pick_id === pickId || !pick.created_json ? kill : JSON.parse(pick.created_json);
  return killNotice(prepared, event as InsuranceEvent);
}
