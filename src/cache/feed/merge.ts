/**
 * The first `limit` entries of lists each already in `order`, merged: what a stable sort of their concatenation cut
 * at `limit` gives (on a tie, the earlier list's entry first, and within a list its own order), for about `limit`
 * times the number of lists comparisons however long the lists are. The feed merges a handful of sources a page,
 * so the lists' heads are scanned in turn rather than kept in a heap.
 */
export function mergeSorted<T>(lists: readonly (readonly T[])[], limit: number, order: (a: T, b: T) => number): T[] {
  const heads = lists.map(() => 0);
  const merged: T[] = [];
  while (merged.length < limit) {
    let from = -1;
    let first: T | undefined;
    for (let l = 0; l < lists.length; l++) {
      const list = lists[l] as readonly T[];
      const head = heads[l] as number;
      if (head >= list.length) continue;
      const entry = list[head] as T;
      // strictly first only: a tie stays with the earlier list
      if (from < 0 || order(entry, first as T) < 0) {
        from = l;
        first = entry;
      }
    }
    if (from < 0) break;
    merged.push(first as T);
    heads[from] = (heads[from] as number) + 1;
  }
  return merged;
}
