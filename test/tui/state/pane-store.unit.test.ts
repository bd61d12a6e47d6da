import { afterAll, describe, expect, it } from 'vitest';
import type { Cache } from '../../../src/cache/index.js';
import { PANE_REGISTRY, REGISTRY_STORES } from '../../../src/tui/panes/pane-registry.js';
import { createPaneStores } from '../../../src/tui/panes/pane-stores.js';
import { ChangeHub } from '../../../src/tui/state/change-hub.js';
import { KeysetStore } from '../../../src/tui/state/keyset-store.js';
import type { SteppedKeysetSource } from '../../../src/tui/state/keyset-strip.js';
import { LIVE, type PaneInputs, PaneStore, type PaneStoreSpec } from '../../../src/tui/state/pane-store.js';
import { city, memoryCaches, NYC } from '../../helpers/cache-builder.js';

const caches = memoryCaches();
afterAll(() => caches.close());

const PARIS = city('paris', 'Europe/Paris', 'FR', 'LFPG', 'Paris');
/** 2026-03-10 12:00 UTC, its minute, and an instant of time travel two hours before. */
const NOW_MS = Date.UTC(2026, 2, 10, 12);
const AT_MS = Date.UTC(2026, 2, 10, 10);

function inputs(over: Partial<PaneInputs> = {}): PaneInputs {
  return {
    cities: [NYC, PARIS],
    city: NYC,
    settlement: {},
    minute: NOW_MS / 60_000,
    nowMs: NOW_MS,
    instant: LIVE,
    width: 120,
    height: 40,
    ...over,
  };
}
const replaying = inputs({ instant: { atMs: AT_MS, date: '2026-03-10' } });

/**
 * A store over the cities table: its result names the scope asked for and the cities cached then, so a result read
 * in one scope cannot pass for the other's. `reads` counts the reads begun, `closed` those stopped or finished.
 */
function citiesStore(
  hub: ChangeHub,
  layOutAhead?: PaneStoreSpec<string, string>['layOutAhead'],
  /** A read that steps until it is stopped: one the monitor ends while it runs. */
  endless = false,
) {
  const counts = { reads: 0, closed: 0 };
  const spec: PaneStoreSpec<string, string> = {
    topics: ['cities'],
    ask: ({ instant, minute }) => {
      const scope = instant.atMs === undefined ? 'live' : `at ${new Date(instant.atMs).toISOString()}`;
      return { key: scope, stamp: String(minute), params: scope };
    },
    newRead: () =>
      function* (cache: Cache, scope: string) {
        counts.reads++;
        try {
          yield;
          while (endless) yield;
          return `${scope}: ${cache.resources
            .cities()
            .map((c) => c.city_id)
            .join(',')}`;
        } finally {
          counts.closed++;
        }
      },
    layOutAhead,
  };
  return { store: new PaneStore(hub, spec), counts };
}

function setup() {
  const hand = caches.open();
  hand.cities(NYC, PARIS);
  const hub = new ChangeHub(hand.cache, 10);
  return { cache: hand.cache, hub };
}

describe('a pane store', () => {
  it('keeps live and time travel apart: a replay read never answers live, and Esc finds the live result kept', () => {
    const { cache, hub } = setup();
    const { store, counts } = citiesStore(hub);
    const live = inputs();
    expect(store.scope(LIVE).get(cache, store.ask(live))).toBe('live: nyc,paris');
    expect(store.scope(replaying.instant).get(cache, store.ask(replaying))).toBe(
      'at 2026-03-10T10:00:00.000Z: nyc,paris',
    );
    // the two scopes are two reads of their own; back to live reads nothing
    expect(store.scope(LIVE)).not.toBe(store.scope(replaying.instant));
    expect(store.scope(LIVE).peek(store.ask(live))).toBe('live: nyc,paris');
    expect(store.scope(replaying.instant).peek(store.ask(live))).toBeUndefined();
    expect(counts.reads).toBe(2);
  });

  it('warms the live scope in the background, then lays out what the first frame shows at the size of then', async () => {
    const { cache, hub } = setup();
    const laidOut: [string, number][] = [];
    let done!: () => void;
    const arrived = new Promise<void>((resolve) => {
      done = resolve;
    });
    const { store, counts } = citiesStore(hub, (_store, value, { width }) => {
      laidOut.push([value, width]);
      done();
    });
    const size = { width: 120 };
    // warmed while replaying: still the live read (Esc comes back to it)
    const base = replaying;
    store.warm(cache, {
      ...base,
      get width() {
        return size.width;
      },
    });
    // nothing read in the caller's turn: a slice at a time, after it
    expect(counts.reads).toBe(0);
    size.width = 90;
    await arrived;
    expect(laidOut).toEqual([['live: nyc,paris', 90]]);
    expect(store.scope(LIVE).peek(store.ask(inputs()))).toBe('live: nyc,paris');
  });

  it('stops a background read with the monitor: the read is closed, nothing laid out', async () => {
    const { cache, hub } = setup();
    const laidOut: string[] = [];
    const { store, counts } = citiesStore(hub, (_store, value) => laidOut.push(value), true);
    store.warm(cache, inputs());
    // the read starts on the next turn of the event loop, and is still stepping when the monitor ends
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(counts.reads).toBe(1);
    store.stop();
    expect(counts.closed).toBe(1);
    expect(store.scope(LIVE).peek(store.ask(inputs()))).toBeUndefined();
    expect(laidOut).toEqual([]);
  });

  it('forgets on reset what it read and what its reads kept, and stops a read running then', async () => {
    const { cache, hub } = setup();
    const { store, counts } = citiesStore(hub, undefined, true);
    const live = inputs();
    store.warm(cache, live);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(counts.reads).toBe(1);
    store.reset();
    // the read running was closed, and nothing is kept for the ask it made
    expect(counts.closed).toBe(1);
    expect(store.scope(LIVE).peek(store.ask(live))).toBeUndefined();
    expect(store.scope(replaying.instant).peek(store.ask(replaying))).toBeUndefined();
    // a result read before the reset is read again after it
    const other = citiesStore(hub);
    expect(other.store.scope(LIVE).get(cache, other.store.ask(live))).toBe('live: nyc,paris');
    other.store.reset();
    expect(other.store.scope(LIVE).get(cache, other.store.ask(live))).toBe('live: nyc,paris');
    expect(other.counts.reads).toBe(2);
  });

  it('keeps at most four layouts of a result, the oldest going first', () => {
    const { hub } = setup();
    const { store } = citiesStore(hub);
    const result = { rows: 3 };
    const made: string[] = [];
    const layout = (key: string) =>
      store.layout(result, key, () => {
        made.push(key);
        return `lines at ${key}`;
      });
    for (const key of ['F 120x40', 'C 120x40', 'F 100x30', 'C 100x30', 'F 80x24']) layout(key);
    // the fifth pushed out the first; the other four are kept
    expect(layout('C 120x40')).toBe('lines at C 120x40');
    expect(layout('F 80x24')).toBe('lines at F 80x24');
    expect(made).toEqual(['F 120x40', 'C 120x40', 'F 100x30', 'C 100x30', 'F 80x24']);
    expect(layout('F 120x40')).toBe('lines at F 120x40');
    expect(made).toHaveLength(6);
    // another result's layouts are its own
    expect(store.layout({ rows: 3 }, 'F 80x24', () => 'other')).toBe('other');
  });
});

describe('a pane store while its pane is shown', () => {
  it("reads a change of its tables with the params of the render after it, not with an earlier render's", async () => {
    const { cache, hub } = setup();
    hub.start();
    // the read's params are the clock's now, as the board's live read takes its instant: a change read with the
    // params of the render before it would be stored as current and never read again within the minute
    const spec: PaneStoreSpec<number, string> = {
      topics: ['cities'],
      ask: ({ nowMs }) => ({ key: 'live', stamp: 'minute', params: nowMs }),
      newRead: () =>
        function* (read: Cache, nowMs: number) {
          yield;
          return `${nowMs - NOW_MS}: ${read.resources
            .cities()
            .map((c) => c.city_id)
            .join(',')}`;
        },
    };
    const store = new PaneStore(hub, spec);
    const scope = store.scope(LIVE);
    let told = 0;
    const unwatch = scope.subscribe(() => told++);
    const first = store.ask(inputs());
    expect(scope.get(cache, first)).toBe('0: nyc,paris');
    scope.want(cache, first);
    // a city arrives: the shown pane is told, renders 30 s later on the clock, and asks with that render's now
    cache.resources.upsertCities([city('lon', 'Europe/London', 'GB', 'EGLL', 'London')]);
    await expect.poll(() => told, { timeout: 60_000 }).toBe(1);
    const after = store.ask(inputs({ nowMs: NOW_MS + 30_000 }));
    scope.want(cache, after);
    await expect.poll(() => scope.peek(after), { timeout: 60_000 }).toBe('30000: lon,nyc,paris');
    unwatch();
    hub.stop();
  });
});

describe('a keyset store', () => {
  const list = (label: string): SteppedKeysetSource<string, number> => ({
    *olderSteps(after, limit) {
      yield;
      return Array.from({ length: limit }, (_, i) => `${label} ${(after ?? 0) + i + 1}`);
    },
    *newerSteps() {
      yield;
      return [];
    },
    keyOf: (row) => Number(row.split(' ')[1]),
    compare: (a, b) => a - b,
  });

  it('keeps the live stretch for Esc, and makes a new one for each instant of time travel', () => {
    const { hub } = setup();
    const asked: (number | undefined)[] = [];
    const store = new KeysetStore(hub, ['alerts'], (atMs) => {
      asked.push(atMs);
      return list(atMs === undefined ? 'live' : 'then');
    });
    const live = store.scope(LIVE);
    expect(live.older(null, 2)).toEqual(['live 1', 'live 2']);
    const first = store.scope({ atMs: AT_MS, date: '2026-03-10' });
    expect(first.older(null, 1)).toEqual(['then 1']);
    // the same instant: the same stretch; another: a new list
    expect(store.scope({ atMs: AT_MS, date: '2026-03-10' })).toBe(first);
    expect(store.scope({ atMs: AT_MS + 60_000, date: '2026-03-10' })).not.toBe(first);
    expect(store.scope(LIVE)).toBe(live);
    expect(asked).toEqual([undefined, AT_MS, AT_MS + 60_000]);
  });
});

describe('the pane stores', () => {
  it('are one set a running monitor: two monitors share nothing', () => {
    const { cache, hub } = setup();
    const other = setup();
    const mine = createPaneStores(hub, cache, REGISTRY_STORES);
    const theirs = createPaneStores(other.hub, other.cache, REGISTRY_STORES);
    for (const pane of PANE_REGISTRY) {
      // one store a pane for a monitor's life, none shared with another monitor
      expect(mine.of(pane.store)).toBe(mine.of(pane.store));
      expect(mine.of(pane.store)).not.toBe(theirs.of(pane.store));
    }
    mine.stop();
    theirs.stop();
  });
});
