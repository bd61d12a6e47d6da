import type { CacheTopic } from '../topics.js';

/**
 * A committed change: `table` is the export NAME of what changed (`cities`, `current`, `forecasts`, `no24`,
 * `yescore`, `svc-max-picks`, `fusion-locks`, `historical/<table>`, `webhook-events`, `insurance-picks`,
 * `edge-trades`, `alerts`) or `streams`; `ids` are the row ids (city_id for cities, current and forecasts; the
 * record, lock, row, event, pick, trade or alert id; the stream name). cache/topics.ts lists the names (CACHE_TOPICS)
 * and which SQL table announces which (TABLE_TOPICS).
 */
export interface ChangeEvent {
  table: CacheTopic;
  ids: (string | number)[];
}

export type ChangeListener = (event: ChangeEvent) => void;

/** The cache's change events: every repository announces its commits here, and the TUI listens. */
export class ChangeEvents {
  private readonly listeners = new Set<ChangeListener>();

  /** Returns the unsubscribe function. */
  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Whether anyone listens: writers collect the ids of the rows they change only then. */
  get heard(): boolean {
    return this.listeners.size > 0;
  }

  /**
   * After a commit: every listener hears the event, synchronously; one that throws does not stop the others, and
   * the first error is rethrown to the writer (the data is committed either way).
   */
  emit(event: ChangeEvent): void {
    let failure: unknown;
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        failure ??= error;
      }
    }
    if (failure !== undefined) throw failure;
  }

  /**
   * Like `emit`, for writers whose caller must not see a listener's failure (the receiver would refuse events that
   * are committed): it becomes a process warning, and the other events are still announced.
   */
  emitQuietly(events: readonly ChangeEvent[]): void {
    for (const event of events) {
      try {
        this.emit(event);
      } catch (error) {
        process.emitWarning(
          `a cache change listener failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }
}
