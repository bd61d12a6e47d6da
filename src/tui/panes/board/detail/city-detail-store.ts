import type { BoardRow } from '../../../../board/board-row.js';
import { CITY_DAY_TOPICS, type CityDayRead, readCityDay } from '../../../../board/city-detail.js';
import type { City } from '../../../../contract/cities.js';
import type { ChangeHub } from '../../../state/change-hub.js';
import { instantAsk, type PaneInputs, PaneStore, type PaneStoreSpec } from '../../../state/pane-store.js';

export interface CityDetailParams {
  city: City;
  date: string;
  /** The instant the board is of (now, or time travel's), and the book's (time travel's only: DESIGN 4). */
  atMs: number;
  asOf: number | undefined;
}

/** What the strip asks with: the panes' inputs and the board's selected row (its city and its market day). */
export interface CityDetailInputs extends PaneInputs {
  selected: Pick<BoardRow, 'cityId' | 'date'> | undefined;
}

/** What the strip draws from: the city-day's read, and the instant it is of (the hours to the peak and the lock). */
export interface CityDayAt {
  read: CityDayRead;
  atMs: number;
}

/**
 * The detail's store (state/pane-store.ts): the selected row's city-day (board/city-detail.ts `readCityDay`) as of the
 * board's instant, read again when its tables change or the minute moves; the last few rows chosen kept, so moving the
 * cursor back and forth draws from memory.
 */
export const CITY_DETAIL_STORE: PaneStoreSpec<CityDetailParams | null, CityDayAt | null, CityDetailInputs> = {
  topics: CITY_DAY_TOPICS,
  keep: 8,
  ask({ cities, selected, minute, nowMs, instant }) {
    const { key, stamp } = instantAsk(instant, minute);
    const city = cities.find((c) => c.city_id === selected?.cityId);
    return {
      key: JSON.stringify([selected?.cityId ?? null, selected?.date ?? null, key]),
      stamp,
      params: city && selected ? { city, date: selected.date, atMs: instant.atMs ?? nowMs, asOf: instant.atMs } : null,
    };
  },
  newRead() {
    // one city-day: a few indexed reads, a step of its own
    // biome-ignore lint/correctness/useYield: a read of one step
    return function* (cache, p) {
      return p === null ? null : { read: readCityDay(cache, p.city, p.date, p.atMs, p.asOf), atMs: p.atMs };
    };
  },
};

/** The strip's store's factory: the same function its hook looks it up with (pane-stores.ts `usePaneStore`). */
export const cityDetailStore = (hub: ChangeHub) => new PaneStore(hub, CITY_DETAIL_STORE);
