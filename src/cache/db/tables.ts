import type { HistoricalTable } from '../../contract/historical.js';
import type { StrategyFamily } from '../../contract/strategies.js';

/** The SQL table of a whitelisted historical table: one table each (migrations.ts says why). */
export const historicalSqlTable = (table: HistoricalTable): string => `h_${table}`;

/** The SQL table of a strategy family's records. */
export const strategySqlTable = (family: StrategyFamily): string => `s_${family.replaceAll('-', '_')}`;
