import type { SqliteDb } from '../sqlite/open-database.js';
import { statementCache } from '../sqlite/statement-cache.js';
import { AlertRepository, AlertRows } from './alerts.js';
import { ChangeEvents, type ChangeListener } from './db/change-events.js';
import { CountedQueries, type ReadStats } from './db/counted-queries.js';
import { BULK_PAGE_CACHE_MIB, type CacheAccess, cachePathOf, openCacheFile } from './db/open-cache-file.js';
import { ExportRepository } from './export.js';
import { FeedRepository } from './feed/feed.js';
import { HealthRepository } from './health.js';
import { HistoryRepository } from './history/history.js';
import { InboxRepository } from './inbox/inbox.js';
import { MarketRepository } from './market/market.js';
import { PositionRepository } from './positions/positions.js';
import { ResourceRepository } from './resources.js';
import { RetentionRepository } from './retention/retention.js';
import { StreamRepository } from './streams.js';

/**
 * Opens the cache file at `path` (db/open-cache-file.ts says how each access is checked, and what each page cache is
 * for) as a Cache.
 */
export function openCache(path: string, access: CacheAccess = 'write', pageCacheMib = BULK_PAGE_CACHE_MIB): Cache {
  return new Cache(openCacheFile(path, access, pageCacheMib));
}

/**
 * The monitor's cache: the only SQL of the monitor, one repository per concern. Writes are one transaction each
 * and announce their commit as change events (`onChange`); the panes' reads are counted (`readStats`). The
 * connection itself stays in here: what other layers need of it has a name below.
 */
export class Cache {
  /** The API's resources as synced: their writes, and the reads of them that are not a pane's list. */
  readonly resources: ResourceRepository;
  /** Each stream's checkpoint and last success or failure. */
  readonly streams: StreamRepository;
  /** The webhook inbox: accepted events and what they become, rejected deliveries, kill notices. */
  readonly inbox: InboxRepository;
  /** Stored alerts: raised, acknowledged, listed by segment. */
  readonly alerts: AlertRepository;
  /** The Signals feed. */
  readonly feed: FeedRepository;
  /** Open positions. */
  readonly positions: PositionRepository;
  /** Quotes and METAR readings. */
  readonly market: MarketRepository;
  /** The History pane's pages and summaries. */
  readonly history: HistoryRepository;
  /** `svc-monitor export`. */
  readonly export: ExportRepository;
  /** Retention and the file's upkeep (`cache prune|backup|check`, retention/). */
  readonly retention: RetentionRepository;
  /** `svc-monitor status`: the file's size and rows, a day's growth, a failing notify command. */
  readonly health: HealthRepository;
  private readonly changes = new ChangeEvents();
  private readonly counted: CountedQueries;
  private busyTimeoutMs: number | undefined;

  constructor(private readonly db: SqliteDb) {
    const prepared = statementCache(db);
    this.counted = new CountedQueries(prepared);
    this.streams = new StreamRepository(prepared, this.changes);
    this.resources = new ResourceRepository(db, prepared, this.streams, this.changes);
    const alertRows = new AlertRows(prepared);
    this.alerts = new AlertRepository(db, prepared, alertRows, this.counted, this.changes);
    this.inbox = new InboxRepository(db, prepared, alertRows, this.changes);
    this.feed = new FeedRepository(this.counted);
    this.positions = new PositionRepository(this.counted);
    this.market = new MarketRepository(this.counted);
    this.history = new HistoryRepository(this.counted, db);
    this.export = new ExportRepository(prepared);
    this.retention = new RetentionRepository(db, prepared);
    this.health = new HealthRepository(db, prepared);
  }

  /** The file's path (`:memory:` for an in-memory cache). */
  get file(): string {
    // a cache in a read-only folder is read through a private copy (db/open-cache-file.ts): named by its own path
    return cachePathOf(this.db);
  }

  /** The WAL file that holds the commits not yet checkpointed into the file; null in memory, which has none. */
  get walFile(): string | null {
    return this.db.memory ? null : `${this.file}-wal`;
  }

  /**
   * Subscribes to change events; returns the unsubscribe function. Listeners run synchronously after the commit;
   * one that throws does not stop the others (change-events.ts says where its error goes).
   */
  onChange(listener: ChangeListener): () => void {
    return this.changes.subscribe(listener);
  }

  /** Queries run and rows read so far by the panes' reads (feed, history, positions, market, alerts). */
  get readStats(): Readonly<ReadStats> {
    return this.counted.stats;
  }

  /**
   * SQLite's `data_version`: it changes when another connection (a `sync` or `listen` in another process) commits
   * to the file. Change events only come from this connection's own writes; the TUI polls this for the rest.
   */
  dataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }

  /**
   * Calls `onCommit` each time another connection has committed to the file, looked at every `everyMs`
   * (`dataVersion`): how the screen and the session hear of a `sync` or `listen` in another process. Returns the stop,
   * to call before the cache closes. The timer does not keep the process alive.
   */
  watchDataVersion(onCommit: () => void, everyMs: number): () => void {
    let seen = this.dataVersion();
    const poll = setInterval(() => {
      // a cache closed before its watcher was stopped (a screen torn down after its cache) has nothing to tell
      if (!this.db.open) {
        clearInterval(poll);
        return;
      }
      const now = this.dataVersion();
      if (now === seen) return;
      seen = now;
      onCommit();
    }, everyMs);
    poll.unref();
    return () => clearInterval(poll);
  }

  /**
   * Runs `work` with another wait for a write lock held by another connection (`busy_timeout`), then puts back the
   * connection's own. Synchronous, so nothing else can run on the connection in between.
   */
  withBusyTimeout<T>(ms: number, work: () => T): T {
    // set by a PRAGMA each time, not a prepared statement run again: SQLite applies busy_timeout when the PRAGMA is
    // compiled, so re-running a kept statement does not set it
    this.busyTimeoutMs ??= this.db.pragma('busy_timeout', { simple: true }) as number;
    this.db.pragma(`busy_timeout = ${ms}`);
    try {
      return work();
    } finally {
      this.db.pragma(`busy_timeout = ${this.busyTimeoutMs}`);
    }
  }

  /** Copies the WAL into the file and truncates it: the file alone then holds everything (to copy it, say). */
  checkpoint(): void {
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  close(): void {
    this.db.close();
  }
}
