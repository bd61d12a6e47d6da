/**
 * DESIGN 3's `retention.detail_days` when the config does not say: two weeks of every row, older days thinned to the
 * hour (DESIGN 4 "retention"). Here rather than beside the schema (contract/config.ts), which would load TypeBox into
 * every command that reads the config.
 */
export const DEFAULT_DETAIL_DAYS = 14;

/** The days kept whole: the config's value (null keeps everything), or the default when it names none. */
export const detailDaysOf = (configured: number | null | undefined): number | null =>
  configured === undefined ? DEFAULT_DETAIL_DAYS : configured;
