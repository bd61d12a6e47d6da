import type { FusionLock } from '../../contract/fusion-locks.js';
import type { StrategyRecord } from '../../contract/strategies.js';
import { lockAsOf, marketSettlesAt, recordAsOf } from '../../domain/market-times.js';
import type { CountedQueries } from '../db/counted-queries.js';
import { strategySqlTable } from '../db/tables.js';
import { NOW_UNBOUNDED } from '../db/time.js';
import { readNow, type SlicedRead } from '../sliced-read.js';
import type { CacheTopic } from '../topics.js';
import { DERIVED_INSTANT_SOURCES, type DerivedInstantSource } from './derived-instant-sources.js';
import { newerKeys, olderKeys } from './derived-scan.js';
import { mergeSorted } from './merge.js';
import { compareFeed, type FeedKey, type Signal, type Zones } from './signal.js';
import { STORED_INSTANT_SOURCES, type StoredInstantSource } from './stored-instant-sources.js';

/**
 * The tables the feed reads, as the cache's change events name them: each source's (a new source brings its own) and
 * the cities (their zones place each signal's local day). What a pane showing the feed watches.
 */
export const FEED_READ_TOPICS: readonly CacheTopic[] = [
  ...new Set<CacheTopic>([
    ...STORED_INSTANT_SOURCES.map((s) => s.topic),
    ...DERIVED_INSTANT_SOURCES.map((s) => s.topic),
    'cities',
  ]),
];

/** Signals a step of a page makes at most: about a millisecond of rows read whole and parsed (measured). */
const WHOLE_CHUNK = 100;

/** A record or lock as served; `then`: as it stood at the instant the feed is read at, when that differs. */
function asServed(what: string, json: string, then: object | undefined): SignalPayload {
  return then === undefined
    ? { label: `${what} as served`, text: json }
    : { label: `${what} as it stood then (settled since)`, text: JSON.stringify(then) };
}

/** A stored text behind a signal, for its detail view. */
export interface SignalPayload {
  label: string;
  text: string;
}

type Row = Record<string, unknown>;

/**
 * A signal that may make the page: its place in the feed, and what its signal is made from if it does (a stored
 * source's row as read, or a derived source's key, its row still to be read whole).
 */
type Candidate =
  | { key: FeedKey; stored: StoredInstantSource; row: Row }
  | { key: FeedKey; derived: DerivedInstantSource };

/** The feed's order, newest first, or its reverse (`newer`: nearest first). */
const newestFirst = (a: Candidate, b: Candidate): number => compareFeed(a.key, b.key);
const nearestFirst = (a: Candidate, b: Candidate): number => compareFeed(b.key, a.key);

/**
 * The Signals feed: picks, addons, kills, edge entries and exits, strategy records and fusion locks merged newest
 * first. Each source is read by keyset from its own index, at most `limit` rows past the cursor, and the sources
 * are merged here; so a page costs about `limit` rows a source however many rows the tables hold. Every read takes
 * an instant (`atMs`, now by default; DESIGN 4 "the board as of an instant"): a signal after it does not exist (the
 * instant bounds each source's index like a cursor), and a strategy record settled after it shows open.
 */
export class FeedRepository {
  constructor(private readonly q: CountedQueries) {}

  /** Up to `limit` signals after `after` in feed order (null: from the newest), as of `atMs`. */
  older(after: FeedKey | null, limit: number, atMs = NOW_UNBOUNDED): Signal[] {
    return readNow(this.olderSteps(after, limit, atMs));
  }

  /** Up to `limit` signals before `before` in feed order, nearest first, as of `atMs`. */
  newer(before: FeedKey, limit: number, atMs = NOW_UNBOUNDED): Signal[] {
    return readNow(this.newerSteps(before, limit, atMs));
  }

  /**
   * `older` a source at a time: each `yield` is a point where the caller may let other work run (a screen's keys)
   * before the next source is read (or the next chunk of a derived source's scan, SCAN_CHUNK rows), then before the
   * next source's signals of the page are made (WHOLE_CHUNK at most). The connection is free at each one: no scan
   * is left open across it.
   */
  olderSteps(after: FeedKey | null, limit: number, atMs = NOW_UNBOUNDED): SlicedRead<Signal[]> {
    return this.steps('older', after, limit, atMs);
  }

  /** `newer` a source at a time (see olderSteps). */
  newerSteps(before: FeedKey, limit: number, atMs = NOW_UNBOUNDED): SlicedRead<Signal[]> {
    return this.steps('newer', before, limit, atMs);
  }

  private *steps(
    direction: 'older' | 'newer',
    cursor: FeedKey | null,
    limit: number,
    atMs: number,
  ): SlicedRead<Signal[]> {
    if (limit <= 0) return [];
    const zones = this.zones();
    const order = direction === 'older' ? newestFirst : nearestFirst;
    // a list a source, each in `order` (its SQL's, which compareFeed keeps to), stored sources first: the merge gives
    // a tie to the earlier list
    const lists: Candidate[][] = [];
    for (const source of STORED_INSTANT_SOURCES) {
      lists.push(this.storedInstant(source, cursor, limit, direction, atMs));
      yield;
    }
    for (const source of DERIVED_INSTANT_SOURCES) {
      // a scan of many rows yields between its chunks too
      const keys =
        direction === 'older'
          ? yield* olderKeys(this.q, source, cursor, limit, zones, atMs)
          : yield* newerKeys(this.q, source, cursor as FeedKey, limit, zones, atMs);
      // kept in `order` by `keep`
      lists.push(keys.map((key) => ({ key, derived: source })));
      yield;
    }
    return yield* this.page(mergeSorted(lists, limit, order), zones, atMs);
  }

  /**
   * The signals of a page's candidates, in the page's order: only the rows that made it are made signals (a stored
   * row's JSON parsed, a derived row read whole), a source at a time. Most candidates do not make the page, and
   * reading a row whole, its JSON parsed, is most of what a candidate costs.
   */
  private *page(page: Candidate[], zones: Zones, atMs: number): SlicedRead<Signal[]> {
    const bySource = new Map<StoredInstantSource | DerivedInstantSource, number[]>();
    page.forEach((c, i) => {
      const source = 'stored' in c ? c.stored : c.derived;
      const places = bySource.get(source);
      if (places) places.push(i);
      else bySource.set(source, [i]);
    });
    const signals: (Signal | undefined)[] = [];
    for (const all of bySource.values()) {
      // a long page of one source (a refresh's 400 rows) is made a part a step: a row read whole costs its parse
      for (let from = 0; from < all.length; from += WHOLE_CHUNK) {
        const places = all.slice(from, from + WHOLE_CHUNK);
        const made = this.signalsOf(
          places.map((i) => page[i] as Candidate),
          zones,
          atMs,
        );
        places.forEach((place, j) => {
          signals[place] = made[j];
        });
        yield;
      }
    }
    return signals.filter((signal) => signal !== undefined);
  }

  /** The signals of one source's candidates, in their order (undefined: a derived row gone since its scan). */
  private signalsOf(candidates: Candidate[], zones: Zones, atMs: number): (Signal | undefined)[] {
    const [first] = candidates;
    if (!first) return [];
    if ('stored' in first) return candidates.map((c) => ('stored' in c ? c.stored.toSignal(c.row, zones) : undefined));
    const kept = candidates.map((c) => c.key);
    const wholes = new Map(this.whole(first.derived, kept, zones, atMs).map((signal) => [signal.key, signal]));
    return candidates.map((c) => wholes.get(c.key.key));
  }

  /**
   * What the signal was made from, as stored: the webhook body as received where there is one. As of `atMs`, a
   * strategy record or lock settled since is shown as it stood then (no outcome).
   */
  payloads(signal: Signal, atMs = NOW_UNBOUNDED): SignalPayload[] {
    switch (signal.kind) {
      case 'pick':
      case 'addon':
      case 'kill': {
        const column = signal.kind === 'kill' ? 'kill_json' : 'created_json';
        const json = this.q.get<{ json: string | null }>(
          `SELECT ${column} AS json FROM insurance_picks WHERE pick_id = ?`,
          signal.ref,
        )?.json;
        if (!json) return [];
        const eventId = (JSON.parse(json) as { event_id?: string }).event_id;
        const raw = this.q.get<{ body: string }>('SELECT body FROM webhook_events WHERE event_id = ?', eventId);
        return [{ label: 'webhook body as received', text: raw?.body ?? json }];
      }
      case 'edge-entry':
      case 'edge-exit': {
        const row = this.q.get<{ entry_json: string | null; exit_json: string | null }>(
          'SELECT entry_json, exit_json FROM edge_trades WHERE engine_trade_id = ?',
          Number(signal.ref),
        );
        const out: SignalPayload[] = [];
        if (row?.entry_json) out.push({ label: 'entry event', text: row.entry_json });
        if (row?.exit_json) out.push({ label: 'exit event', text: row.exit_json });
        return out;
      }
      case 'test': {
        const body = this.q.get<{ body: string }>('SELECT body FROM webhook_events WHERE seq = ?', Number(signal.ref));
        return body ? [{ label: 'webhook body as received', text: body.body }] : [];
      }
      case 'lock':
      case 'lock-resolved': {
        const json = this.q.get<{ json: string }>('SELECT json FROM fusion_locks WHERE id = ?', signal.ref)?.json;
        if (!json) return [];
        const lock = JSON.parse(json) as FusionLock;
        const then = lockAsOf(lock, marketSettlesAt(lock.local_date, signal.tz ?? 'UTC'), atMs);
        return [asServed('fusion lock', json, then === lock ? undefined : then)];
      }
      default: {
        const sql = `SELECT json FROM ${strategySqlTable(signal.kind)} WHERE id = ?`;
        const json = this.q.get<{ json: string }>(sql, Number(signal.ref))?.json;
        if (!json) return [];
        const record = JSON.parse(json) as StrategyRecord;
        const then = recordAsOf(record, signal.tz ?? 'UTC', atMs);
        return [asServed(`${signal.kind} record`, json, then === record ? undefined : then)];
      }
    }
  }

  /** Every city's zone: a handful of rows, read once a page, before its scans start. */
  private zones(): Zones {
    const rows = this.q.all<{ json: string }>('SELECT json FROM cities ORDER BY city_id');
    return new Map(
      rows.map((r) => JSON.parse(r.json) as { city_id: string; tz: string }).map((c) => [c.city_id, c.tz]),
    );
  }

  /** Up to `limit` rows of a stored source past `cursor` in the direction's order, as of `atMs`: candidates. */
  private storedInstant(
    s: StoredInstantSource,
    cursor: FeedKey | null,
    limit: number,
    direction: 'older' | 'newer',
    atMs: number,
  ): Candidate[] {
    const older = direction === 'older';
    const args: unknown[] = [atMs];
    let bound = '';
    if (cursor) {
      const [strict, loose] = older ? ['<', '<='] : ['>', '>='];
      if (s.rank === cursor.rank) {
        // the cursor is this source's own row (no two sources share a rank), so its key compares with the column;
        // a range on the index column first, so SQLite seeks instead of scanning
        bound = ` AND ${s.ms} ${loose} ? AND (${s.ms} ${strict} ? OR ${s.key} ${strict} ?)`;
        args.push(cursor.at, cursor.at, cursor.key);
      } else {
        // at the same instant a higher rank comes later in the feed
        const sameInstantIncluded = older === s.rank > cursor.rank;
        bound = ` AND ${s.ms} ${sameInstantIncluded ? loose : strict} ?`;
        args.push(cursor.at);
      }
    }
    const order = older ? 'DESC' : 'ASC';
    // the key and instant its signal will have: the key column (its JSON's id) and the indexed instant
    const sql = `SELECT ${s.columns}, ${s.ms} AS at_ms, ${s.key} AS feed_key FROM ${s.table}
      WHERE ${s.where} AND ${s.ms} <= ?${bound} ORDER BY ${s.ms} ${order}, ${s.key} ${order} LIMIT ?`;
    return this.q.all<Row>(sql, ...args, limit).map((row) => ({
      key: { at: Number(row.at_ms), rank: s.rank, key: row.feed_key as string | number },
      stored: s,
      row,
    }));
  }

  /** The signals of the keys a scan kept, in their order: only these rows are read whole. */
  private whole(s: DerivedInstantSource, kept: FeedKey[], zones: Zones, atMs: number): Signal[] {
    if (kept.length === 0) return [];
    const rows = this.q.all<Row>(s.rowsSql(kept.length), ...kept.map((k) => k.key));
    const byKey = new Map(rows.map((row) => [s.keyOf(row), row]));
    return kept.flatMap((k) => {
      const row = byKey.get(k.key);
      return row ? [s.toSignal(row, zones, atMs)] : [];
    });
  }
}
