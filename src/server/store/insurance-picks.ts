import type { Statement } from 'better-sqlite3';
import type { Db } from './open-store.js';

/** The columns the store needs to find a pick again; the rest of the state rides along in `json`. */
export interface StoredPick {
  pick_id: string;
  city_id: string;
  local_date: string;
  open: boolean;
}

/**
 * The insurance engine's picks (`insurance_picks`): one row a primary pick, its state as JSON, `open` until it is
 * killed or its day ends. Keeping the state here (not in memory) is what lets a restarted world carry on exactly.
 */
class InsurancePicks<T extends StoredPick> {
  private readonly upsert: Statement<unknown[]>;
  private readonly openOfCity: Statement<unknown[]>;
  private readonly byId: Statement<unknown[]>;

  constructor(db: Db) {
    this.upsert = db.prepare(
      `INSERT INTO insurance_picks (pick_id, city_id, local_date, open, json) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (pick_id) DO UPDATE SET open = excluded.open, json = excluded.json`,
    );
    this.openOfCity = db
      .prepare('SELECT json FROM insurance_picks WHERE open = 1 AND city_id = ? ORDER BY local_date, pick_id')
      .pluck();
    this.byId = db.prepare('SELECT json FROM insurance_picks WHERE pick_id = ?').pluck();
  }

  put(pick: T): void {
    this.upsert.run(pick.pick_id, pick.city_id, pick.local_date, pick.open ? 1 : 0, JSON.stringify(pick));
  }

  openByCity(cityId: string): T[] {
    return (this.openOfCity.all(cityId) as string[]).map((json) => JSON.parse(json) as T);
  }

  get(pickId: string): T | undefined {
    const json = this.byId.get(pickId) as string | undefined;
    return json === undefined ? undefined : (JSON.parse(json) as T);
  }
}

const cache = new WeakMap<Db, InsurancePicks<StoredPick>>();

/** One instance a connection, so its prepared statements are compiled once however often the world asks. */
export function insurancePicks<T extends StoredPick>(db: Db): InsurancePicks<T> {
  let picks = cache.get(db);
  if (!picks) {
    picks = new InsurancePicks<StoredPick>(db);
    cache.set(db, picks);
  }
  return picks as unknown as InsurancePicks<T>;
}
