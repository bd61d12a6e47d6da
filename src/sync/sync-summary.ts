import { InvalidResponse, RequestRefused, ServiceUnreachable } from '../client/errors.js';
import { PartialFailure, type StreamCounts } from './counts.js';

export interface SyncError {
  stream: string;
  error: string;
  /** `unreachable` (retries exhausted), `invalid` (broke the contract: nothing stored), `refused` (4xx) or `other`. */
  kind: 'unreachable' | 'invalid' | 'refused' | 'other';
  /** Unreachable without a connection (ServiceUnreachable.noConnection): no other endpoint answers either. */
  noConnection?: true;
  /** The answer was HTML or a 404 (ApiError.notTheApi): on every stream, the base URL is probably wrong. */
  notTheApi?: true;
}

/**
 * What a pass did: each stream's counts summed over every pass of it in the pass (its catch-ups too), and each
 * failing stream's latest failure.
 */
export interface SyncSummary {
  streams: Record<string, StreamCounts>;
  errors: SyncError[];
}

/** A pass's summary as `sync --json` prints it (`--once` and each pass of the daemon): the service's instant first. */
export const passLine = (pass: SyncSummary, at: Date): string =>
  `${JSON.stringify({ at: at.toISOString(), streams: pass.streams, errors: pass.errors })}\n`;

/** What one pass of one stream did: what it stored (also when it failed part way) and its failure, if any. */
export interface StreamOutcome {
  stream: string;
  counts?: StreamCounts;
  error?: SyncError;
}

/** A failure's kind; a stream that failed part way (PartialFailure) fails as its first failure did. */
export const kindOf = (error: unknown): SyncError['kind'] =>
  error instanceof PartialFailure && error.first !== undefined
    ? kindOf(error.first)
    : error instanceof ServiceUnreachable
      ? 'unreachable'
      : error instanceof InvalidResponse
        ? 'invalid'
        : error instanceof RequestRefused
          ? 'refused'
          : 'other';

/** One pass of a stream into a summary: its counts added to the stream's, its failure in place of an older one. */
export function addOutcome(summary: SyncSummary, outcome: StreamOutcome | undefined): SyncSummary {
  if (outcome?.counts) {
    const into = summary.streams[outcome.stream] ?? { fetched: 0, inserted: 0, updated: 0 };
    into.fetched += outcome.counts.fetched;
    into.inserted += outcome.counts.inserted;
    into.updated += outcome.counts.updated;
    summary.streams[outcome.stream] = into;
  }
  const { error } = outcome ?? {};
  if (error) summary.errors = [...summary.errors.filter((e) => e.stream !== error.stream), error];
  return summary;
}
