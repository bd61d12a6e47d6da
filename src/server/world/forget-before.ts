const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Drops from a memo keyed by text that holds a local date (`city|date|slot`, `tmax|model|city|date|run`) every value
 * of a date before `date`: a day the world's windows no longer reach is never asked for again.
 */
export function forgetBefore(memo: Map<string, unknown>, date: string): void {
  for (const key of memo.keys()) {
    const day = key.split('|').find((part) => DATE.test(part));
    if (day !== undefined && day < date) memo.delete(key);
  }
}
