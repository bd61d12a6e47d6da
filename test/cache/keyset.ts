/**
 * Keyset paging, checked the same way for every reader: walking a list page by page in either direction must give
 * exactly the list read in one go, with no row skipped or repeated, whatever the page size.
 */

/** Every row, `limit` at a time, from the first: each page continues after the last row of the one before. */
export function walkOlder<T, K>(
  older: (after: K | null, limit: number) => T[],
  keyOf: (row: T) => K,
  limit: number,
): T[] {
  const all: T[] = [];
  let page = older(null, limit);
  while (page.length > 0) {
    all.push(...page);
    if (page.length < limit) break;
    page = older(keyOf(page[page.length - 1] as T), limit);
  }
  return all;
}

/** Every row before `from`, nearest first, `limit` at a time. */
export function walkNewer<T, K>(
  newer: (before: K, limit: number) => T[],
  keyOf: (row: T) => K,
  from: T,
  limit: number,
): T[] {
  const all: T[] = [];
  let page = newer(keyOf(from), limit);
  while (page.length > 0) {
    all.push(...page);
    page = newer(keyOf(page[page.length - 1] as T), limit);
  }
  return all;
}
