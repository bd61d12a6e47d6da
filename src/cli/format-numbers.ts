/**
 * Counts and sizes as every command writes them: 1,234,567 rows, 12.3 MB. By hand: the first Intl formatter loads
 * ICU's data, megabytes for three commas, in a process that may be the monitor (docs/architecture.md, Memory).
 */
export const count = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Bytes in decimal megabytes, one decimal. */
export const megabytes = (bytes: number): string => `${(bytes / 1_000_000).toFixed(1)} MB`;
