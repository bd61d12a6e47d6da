import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CacheTopic, ChangeEvent } from '../../../src/cache/index.js';
import { ChangeHub } from '../../../src/tui/state/change-hub.js';

/**
 * What the hub needs of a cache: its change events, and word of another connection's commit (the real watch polls
 * SQLite's data_version: test/cache/watch-data-version.test.ts). `polledEvery` is how often the hub asked it to look.
 */
function fakeCache() {
  let listener: ((event: ChangeEvent) => void) | undefined;
  let external: (() => void) | undefined;
  const fake = {
    polledEvery: 0,
    onChange(l: (event: ChangeEvent) => void) {
      listener = l;
      return () => {
        listener = undefined;
      };
    },
    watchDataVersion(onCommit: () => void, everyMs: number) {
      external = onCommit;
      fake.polledEvery = everyMs;
      return () => {
        external = undefined;
      };
    },
    commit: (table: CacheTopic) => listener?.({ table, ids: [] }),
    commitElsewhere: () => external?.(),
  };
  return fake;
}

describe('the change hub', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('releases a burst of commits once, after the coalescing window, and tells each listener', () => {
    const cache = fakeCache();
    const hub = new ChangeHub(cache, 150);
    hub.start();
    const heard = vi.fn();
    hub.subscribe(heard);
    for (let i = 0; i < 20; i++) cache.commit(i % 2 ? 'no24' : 'alerts');
    expect(hub.releases).toBe(0);
    vi.advanceTimersByTime(149);
    expect(heard).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(hub.releases).toBe(1);
    expect(heard).toHaveBeenCalledTimes(1);
    hub.stop();
  });

  it('while commits keep coming (a fill), releases once a second; after a quiet second, within the window again', () => {
    const cache = fakeCache();
    const hub = new ChangeHub(cache, 150);
    hub.start();
    cache.commit('historical/mkta_buckets_history');
    vi.advanceTimersByTime(150);
    expect(hub.releases).toBe(1);
    // a page every 40 ms for three seconds: a release at 1,000 ms after the first, and at 2,000 and 3,000
    for (let t = 40; t <= 3_000; t += 40) {
      vi.advanceTimersByTime(40);
      cache.commit('historical/mkta_buckets_history');
    }
    // 3,150 ms after the first commit: releases at 150, 1,150, 2,150 and 3,150
    expect(hub.releases).toBe(4);
    vi.advanceTimersByTime(1_000);
    expect(hub.releases).toBe(5); // the last page's, a second after the one before
    // quiet for more than a second: the next commit is released after the usual 150 ms
    vi.advanceTimersByTime(2_000);
    cache.commit('alerts');
    vi.advanceTimersByTime(149);
    expect(hub.releases).toBe(5);
    vi.advanceTimersByTime(1);
    expect(hub.releases).toBe(6);
    hub.stop();
  });

  it('moves the version of the topics that changed, and of no other', () => {
    const cache = fakeCache();
    const hub = new ChangeHub(cache, 150);
    hub.start();
    const alerts = hub.version(['alerts']);
    const streams = hub.version(['streams']);
    cache.commit('alerts');
    vi.advanceTimersByTime(150);
    expect(hub.version(['alerts'])).not.toBe(alerts);
    expect(hub.version(['streams', 'cities'])).toBe(streams);
    hub.stop();
  });

  it('moves every version when another process committed to the same file (polled each second)', () => {
    const cache = fakeCache();
    const hub = new ChangeHub(cache, 150);
    hub.start();
    const streams = hub.version(['streams']);
    expect(cache.polledEvery).toBe(1_000);
    cache.commitElsewhere();
    vi.advanceTimersByTime(150);
    expect(hub.version(['streams'])).not.toBe(streams);
    hub.stop();
  });

  it('hears nothing once stopped', () => {
    const cache = fakeCache();
    const hub = new ChangeHub(cache, 150);
    hub.start();
    hub.stop();
    cache.commit('alerts');
    cache.commitElsewhere();
    vi.advanceTimersByTime(5_000);
    expect(hub.releases).toBe(0);
  });
});
