import type { MarketUnit } from '../contract/common.js';
import type { SettlementConfig } from '../contract/config.js';
import type { Market } from './settlement.js';
import { marketUnitOf } from './units.js';

/**
 * A city's market: its unit (°F in the US and the UK, °C in continental Europe, spec 1) and the rule it settles by,
 * the config's `settlement` (DESIGN 3), `metar_c` for every city it does not name.
 */
export function cityMarket(
  city: { city_id: string; country?: string },
  settlement: SettlementConfig = {},
  unit: MarketUnit = marketUnitOf(city.country),
): Market {
  return { unit, rule: settlement[city.city_id] ?? 'metar_c' };
}
