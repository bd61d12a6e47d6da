/**
 * Every kind of alert the cache stores (`alerts.kind`, `export alerts`): one list, and every table over the kinds is
 * declared `satisfies Record<AlertKind, ...>`, so a new kind that a table misses does not compile.
 */
export const ALERT_KINDS = [
  'kill',
  'webhook-rejected',
  'listener-down',
  'listener-refusing',
  'notify-command-failed',
  'edge',
  'dying-bucket',
  'breakthrough',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** The kinds the trader alert rules raise (alerts/market-alerts.ts): a replay works them out again, never reads them. */
export const TRADER_ALERT_KINDS = ['edge', 'dying-bucket', 'breakthrough'] as const satisfies readonly AlertKind[];
export type TraderAlertKind = (typeof TRADER_ALERT_KINDS)[number];

/** Whether a kind read back from a cache file is one this version knows (a newer version may have written others). */
export const isAlertKind = (kind: string): kind is AlertKind => (ALERT_KINDS as readonly string[]).includes(kind);

export const isTraderAlertKind = (kind: string): kind is TraderAlertKind =>
  (TRADER_ALERT_KINDS as readonly string[]).includes(kind);

/** A kind as an SQL literal: the cache's queries name kinds through this, so a renamed kind breaks the build. */
export const sqlKind = (kind: AlertKind): string => `'${kind}'`;
