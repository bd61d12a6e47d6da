import type { Cache } from '../cache/cache.js';
import type { ApiClient } from '../client/api-client.js';
import { AuthRejected, InvalidResponse, RequestRefused, ServiceUnreachable } from '../client/errors.js';
import type { StreamCounts } from './counts.js';
import { PartialFailure, STREAMS } from './streams.js';

export interface SyncError {
  stream: string;
  error: string;
  /** `unreachable` (retries exhausted), `invalid` (broke the contract: nothing stored), `refused` (4xx) or `other`. */
  kind: 'unreachable' | 'invalid' | 'refused' | 'other';
}

export interface SyncSummary {
  streams: Record<string, StreamCounts>;
  errors: SyncError[];
}

const kindOf = (error: unknown): SyncError['kind'] =>
  error instanceof ServiceUnreachable
    ? 'unreachable'
    : error instanceof InvalidResponse
      ? 'invalid'
      : error instanceof RequestRefused
        ? 'refused'
        : 'other';

export interface SyncOptions {
  client: ApiClient;
  cache: Cache;
  /** Interval overrides by stream name (ms). */
  intervals?: Record<string, number>;
  now?: () => Date;
}

/**
 * Runs the polled streams: `runOnce` is one full pass (`sync --once`); `start` runs a pass at once and then each
 * stream on its own interval. A failing stream is recorded (last error, in the cache, for the status bar) and
 * retried on its next turn; a rejected key stops everything, because no later turn can succeed.
 */
export class SyncEngine {
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(private readonly opts: SyncOptions) {}

  async runOnce(): Promise<SyncSummary> {
    const summary: SyncSummary = { streams: {}, errors: [] };
    for (const stream of STREAMS) await this.runStream(stream, summary);
    return summary;
  }

  /** Runs until `stop`; resolves when stopped, rejects on a rejected key. */
  async start(onPass?: (summary: SyncSummary) => void): Promise<void> {
    onPass?.(await this.runOnce());
    // stopped while the first pass ran: no timers after stop
    if (this.stopped) return;
    await new Promise<void>((resolve, reject) => {
      this.resolveStop = resolve;
      for (const stream of STREAMS) {
        const every = this.opts.intervals?.[stream.name] ?? stream.everyMs;
        const loop = () => {
          const timer = setTimeout(async () => {
            this.timers.delete(timer);
            if (this.stopped) return;
            const summary: SyncSummary = { streams: {}, errors: [] };
            try {
              await this.runStream(stream, summary);
            } catch (error) {
              reject(error);
              return;
            }
            onPass?.(summary);
            loop();
          }, every);
          // the loop alone never keeps a process alive: whoever runs it decides when to stop
          timer.unref();
          this.timers.add(timer);
        };
        loop();
      }
    });
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.resolveStop?.();
  }

  private resolveStop?: () => void;

  private async runStream(stream: (typeof STREAMS)[number], summary: SyncSummary): Promise<void> {
    const { cache, client } = this.opts;
    const at = () => (this.opts.now?.() ?? new Date()).toISOString();
    try {
      const counts = await stream.pass(client, cache);
      summary.streams[stream.name] = counts;
      cache.recordStreamSuccess(stream.name, at(), counts.fetched);
    } catch (error) {
      if (error instanceof AuthRejected) throw error;
      // what was stored before the failure still counts
      if (error instanceof PartialFailure) summary.streams[stream.name] = error.counts;
      const message = error instanceof Error ? error.message : String(error);
      summary.errors.push({ stream: stream.name, error: message, kind: kindOf(error) });
      cache.recordStreamError(stream.name, at(), message);
    }
  }
}
