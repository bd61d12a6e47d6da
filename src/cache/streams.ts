import type { Statement } from 'better-sqlite3';
import { HISTORICAL_TIME_COLUMN, type HistoricalTable, isHistoricalTable } from '../contract/names.js';
import { CacheError } from './db/cache-error.js';
import type { ChangeEvents } from './db/change-events.js';
import { historicalSqlTable } from './db/tables.js';

export interface StreamState {
  stream: string;
  last_success_at: string | null;
  last_error_at: string | null;
  last_error: string | null;
  /** Rows the last successful poll of the stream delivered. */
  rows: number;
  /**
   * The service's clock at the first answer of the stream's last successful pass (ISO): everything the service had
   * published before it is in the cache. Null for a pass made before the cache kept it.
   */
  complete_at: string | null;
  /**
   * The host's clock (epoch ms) at the stream's last successful pass: its polls are timed on the host's clock, so
   * "has it polled lately" is judged on that one. Null for a pass recorded without it (a cache from before).
   */
  last_success_host_ms: number | null;
}

/** Where an incremental stream stopped: written with the page it follows, in the same transaction. */
export interface Checkpoint {
  stream: string;
  value: string;
}

/** The sync's own bookkeeping: each stream's checkpoint, and when it last succeeded or failed. */
export class StreamRepository {
  constructor(
    private readonly prepared: (sql: string) => Statement<unknown[]>,
    private readonly changes: ChangeEvents,
  ) {}

  /** The checkpoint as the server wrote it (handed back unchanged), or undefined before the first page. */
  checkpoint(stream: string): string | undefined {
    return this.prepared('SELECT value FROM checkpoints WHERE stream = ?').pluck().get(stream) as string | undefined;
  }

  /**
   * Run inside the caller's transaction when it goes with a page (resources.ts). A value equal to the stored one
   * writes nothing (a warm pass ends each live drain on `done` again).
   */
  setCheckpoint(stream: string, value: string): void {
    if (typeof value !== 'string') throw new CacheError(`checkpoint of ${stream} must be a string`);
    this.prepared(
      `INSERT INTO checkpoints (stream, value) VALUES (?, ?)
       ON CONFLICT (stream) DO UPDATE SET value = excluded.value WHERE value IS NOT excluded.value`,
    ).run(stream, value);
  }

  /**
   * The newest value of the table's time column stored, exactly as the server wrote it (a live history stream
   * resumes from it): one seek of the time index, rows without a time being sorted last.
   */
  newestTime(table: HistoricalTable): string | undefined {
    if (!isHistoricalTable(table)) throw new CacheError(`'${table}' is not a whitelisted historical table`);
    const name = historicalSqlTable(table);
    const path = `$.${HISTORICAL_TIME_COLUMN[table].column}`;
    const value = this.prepared(
      `SELECT json_extract(json, '${path}') FROM ${name} INDEXED BY ${name}_t WHERE t IS NOT NULL ORDER BY t DESC LIMIT 1`,
    )
      .pluck()
      .get();
    return typeof value === 'string' ? value : undefined;
  }

  /**
   * `at`: the service's clock at the pass's end; `completeAt`: the service's clock at the pass's first answer, null
   * (no request answered) keeps the last one; `hostMs`: the host's clock at the pass's end (null: not known).
   */
  recordSuccess(
    stream: string,
    at: string,
    rows: number,
    completeAt: string | null = null,
    hostMs: number | null = null,
  ): void {
    this.prepared(
      `INSERT INTO stream_state (stream, last_success_at, rows, complete_at, last_success_host_ms) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (stream) DO UPDATE SET last_success_at = excluded.last_success_at, rows = excluded.rows,
         complete_at = COALESCE(excluded.complete_at, complete_at), last_success_host_ms = excluded.last_success_host_ms`,
    ).run(stream, at, rows, completeAt, hostMs === null ? null : Math.round(hostMs));
    this.changes.emit({ table: 'streams', ids: [stream] });
  }

  /** The service's clock less the host's at the last good answer (ms); null before any, or in a cache from before. */
  clockOffset(): number | null {
    const value = this.prepared('SELECT offset_ms FROM service_clock WHERE id = 1').pluck().get();
    return typeof value === 'number' ? value : null;
  }

  /** Keeps the offset of the service's clock (a write only when it moved). */
  recordClockOffset(offsetMs: number): void {
    this.prepared(
      `INSERT INTO service_clock (id, offset_ms) VALUES (1, ?)
       ON CONFLICT (id) DO UPDATE SET offset_ms = excluded.offset_ms WHERE offset_ms IS NOT excluded.offset_ms`,
    ).run(Math.round(offsetMs));
  }

  recordError(stream: string, at: string, error: string): void {
    this.prepared(
      `INSERT INTO stream_state (stream, last_error_at, last_error) VALUES (?, ?, ?)
       ON CONFLICT (stream) DO UPDATE SET last_error_at = excluded.last_error_at, last_error = excluded.last_error`,
    ).run(stream, at, error);
    this.changes.emit({ table: 'streams', ids: [stream] });
  }

  /** Every stream that ever ran, by name. */
  states(): StreamState[] {
    return this.prepared(
      'SELECT stream, last_success_at, last_error_at, last_error, rows, complete_at, last_success_host_ms FROM stream_state ORDER BY stream',
    ).all() as StreamState[];
  }
}
