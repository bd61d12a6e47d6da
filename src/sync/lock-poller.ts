import type { Cache } from '../cache/index.js';
import type { ApiClient } from '../client/api-client.js';
import { LIMITS } from '../contract/limits.js';
import { addCounts, noCounts, type StreamCounts } from './counts.js';

export const LOCK_CHECKPOINT = 'fusion-locks/newest-locked-at';

/**
 * One cycle of spec 4.6: the first time a backfill without `since` (limit 500); afterwards `since` = the newest
 * `locked_at` the server has returned. Every `next_cursor` is followed at once; rows upsert by id. The checkpoint
 * moves only in the transaction of the chain's last page, so a crash anywhere re-fetches instead of skipping.
 *
 * `since` filters on `locked_at`, so a lock resolved after newer locks arrived would never come back through it:
 * each cycle also drains `resolved=true` since the oldest unresolved lock held (DESIGN.md section 4), passing the
 * server's own strings on unchanged.
 */
export async function pollFusionLocks(client: ApiClient, cache: Cache): Promise<StreamCounts> {
  const counts = noCounts();
  const since = cache.streams.checkpoint(LOCK_CHECKPOINT);
  let newest = since;
  let first = true;
  for await (const page of client.fusionLocks({ since, limit: LIMITS.maxFusionLockPageSize })) {
    const top = page.rows[0]?.locked_at;
    if (first && top !== undefined && (newest === undefined || top > newest)) newest = top;
    first = false;
    const last = page.nextCursor === null;
    const checkpoint = last && newest !== undefined ? { stream: LOCK_CHECKPOINT, value: newest } : undefined;
    addCounts(counts, page.rows.length, cache.resources.upsertFusionLocks(page.rows, checkpoint));
  }
  const oldestOpen = cache.resources.oldestUnresolvedLockedAt();
  if (oldestOpen !== undefined) {
    for await (const page of client.fusionLocks({
      resolved: 'true',
      since: oldestOpen,
      limit: LIMITS.maxFusionLockPageSize,
    })) {
      addCounts(counts, page.rows.length, cache.resources.upsertFusionLocks(page.rows));
    }
  }
  return counts;
}
