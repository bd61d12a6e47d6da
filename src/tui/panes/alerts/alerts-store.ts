import type { Cache } from '../../../cache/index.js';
import { TRADER_ALERT_KINDS } from '../../../contract/alert-kinds.js';
import type { ChangeHub } from '../../state/change-hub.js';
import { KeysetStore, readInOneStep } from '../../state/keyset-store.js';
import type { KeysetStrip } from '../../state/keyset-strip.js';
import type { PaneInputs, ReadInstant } from '../../state/pane-store.js';
import { ReplayTraderAlerts } from '../../state/replay-trader-alerts.js';
import { type AlertItem, type AlertKey, alertSource, type LiveItems } from './alert-items.js';

const NO_CONDITIONS: LiveItems = { connection: [], sync: [], rules: [] };

/**
 * The Alerts pane's store: its list's stretch kept around the window (live, and at time travel's instant), read with
 * the live conditions the pane last drew (their text is its stamp: new conditions read it again), and time travel's
 * trader alerts (the rules' steps run, kept between visits).
 */
export class AlertsStore {
  readonly traderAlerts = new ReplayTraderAlerts();
  private conditions: LiveItems = NO_CONDITIONS;
  private readonly list: KeysetStore<AlertItem, AlertKey>;
  /** The newest alert as of the hub's version its rows were read at: `A` leaves one raised after it. */
  private newest: { version: number; id: number } | undefined;

  constructor(
    private readonly hub: ChangeHub,
    private readonly cache: Cache,
  ) {
    this.list = new KeysetStore(hub, ['alerts'], (atMs) => {
      const asOf = atMs === undefined ? undefined : { atMs, except: TRADER_ALERT_KINDS };
      const source = alertSource(cache, () => this.conditions, asOf);
      // its key is (segment, id) and its order by time within a segment: no compare, keys found by their place
      const stepped = readInOneStep(source);
      return {
        ...stepped,
        olderSteps: (after, limit) => this.noting(stepped.olderSteps(after, limit)),
      };
    });
  }

  /** The list shown at `instant` with `conditions` (time travel's: the trader alerts the rules raised by then). */
  scope(instant: ReadInstant, conditions: LiveItems): KeysetStrip<AlertItem, AlertKey> {
    this.conditions = conditions;
    const stamp = [...conditions.connection, ...conditions.sync, ...conditions.rules]
      .map((c) => `${c.marker}${c.when}${c.message}`)
      .join('|');
    return this.list.scope(instant, undefined, stamp);
  }

  /** The newest alert id when the list's rows were last read (read now if they never were). */
  newestId(): number {
    this.newest ??= { version: this.hub.version(['alerts']), id: this.cache.alerts.newestId() };
    return this.newest.id;
  }

  warm(cache: Cache, inputs: Pick<PaneInputs, 'height'>): undefined {
    return this.list.warm(cache, inputs);
  }

  stop(): void {
    this.list.stop();
    this.traderAlerts.stop();
  }

  /** A read of the rows, noting the newest alert id with it (once a version of the table). */
  private *noting(read: Generator<void, AlertItem[], void>): Generator<void, AlertItem[], void> {
    const rows = yield* read;
    const version = this.hub.version(['alerts']);
    if (this.newest?.version !== version) this.newest = { version, id: this.cache.alerts.newestId() };
    return rows;
  }
}

export const alertsStore = (hub: ChangeHub, cache: Cache) => new AlertsStore(hub, cache);
