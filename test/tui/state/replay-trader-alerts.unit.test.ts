import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cache } from '../../../src/cache/index.js';
import { ReplayTraderAlerts } from '../../../src/tui/state/replay-trader-alerts.js';
import { PARIS } from '../../helpers/cache-builder.js';
import { REPLAY_DAY, repricedReplayDay } from '../../helpers/replay-day.js';

/**
 * The Alerts pane's store of time travel's trader alerts: the rules' replay (test/alerts/trader-alert-replay.unit.test.ts
 * works its alerts by hand on this Paris day) run in the background, the last result answered meanwhile.
 */
let cache: Cache;
let store: ReplayTraderAlerts;
beforeEach(() => {
  cache = repricedReplayDay();
  store = new ReplayTraderAlerts();
});
afterEach(() => {
  store.stop();
  cache.close();
});

const at = (hhmm: string) => Date.parse(`${REPLAY_DAY}T${hhmm}:00Z`);
const ask = (hhmm: string) =>
  store.at(cache, [PARIS], { atMs: at(hhmm), date: REPLAY_DAY }, 0.08, {}).map((a) => `${a.created_at} ${a.kind}`);

/** Waits for the store to tell its watchers a new result is in. */
const worked = () =>
  new Promise<void>((resolve) => {
    const stop = store.subscribe(() => {
      stop();
      resolve();
    });
  });

describe('time travel’s trader alerts in the Alerts pane’s store', () => {
  it('answer at once with nothing, then the instant’s alerts once worked out in the background', async () => {
    const done = worked();
    const before = store.getSnapshot();
    // the first ask runs no rule in the render: nothing yet, working
    expect(ask('11:30')).toEqual([]);
    expect(store.working()).toBe(true);
    await done;
    expect(store.getSnapshot()).toBe(before + 1);
    expect(store.working()).toBe(false);
    // 11:30Z: the 11:00Z dying bucket and edge, the 10:00Z dying bucket (worked by hand in trader-alert-replay's test)
    expect(ask('11:30')).toEqual([
      '2026-11-20T11:00:00Z dying-bucket',
      '2026-11-20T11:00:00Z edge',
      '2026-11-20T10:00:00Z dying-bucket',
    ]);
    expect(store.working()).toBe(false);
  });

  it('a step back shows the last result while the new instant is worked out, then the new one', async () => {
    let done = worked();
    ask('11:30');
    await done;
    done = worked();
    // 11:30Z's three meanwhile, less the two raised at 11:00Z, after 10:30Z: the board as of an instant (DESIGN 4)
    expect(ask('10:30')).toEqual(['2026-11-20T10:00:00Z dying-bucket']);
    expect(store.working()).toBe(true);
    await done;
    expect(ask('10:30')).toEqual(['2026-11-20T10:00:00Z dying-bucket']);
  });

  it('a step back to the instant worked out cancels the read of the step ahead: nothing after it comes in', async () => {
    const results: number[] = [];
    let done = worked();
    ask('11:30');
    await done;
    store.subscribe(() => results.push(store.getSnapshot()));
    // 12:00Z asked, then back to 11:30Z before it is in: 11:30Z's own result, current, not working
    ask('12:00');
    expect(store.working()).toBe(true);
    const eleven = [
      '2026-11-20T11:00:00Z dying-bucket',
      '2026-11-20T11:00:00Z edge',
      '2026-11-20T10:00:00Z dying-bucket',
    ];
    expect(ask('11:30')).toEqual(eleven);
    expect(store.working()).toBe(false);
    // the next read asked is the next told: 12:00Z's, cancelled, never came in between
    done = worked();
    ask('09:00');
    await done;
    expect(results).toEqual([2]);
    expect(ask('09:00')).toEqual([]);
  });

  it('a new instant asked before the last is in cancels it: only the newest is told', async () => {
    const results: number[] = [];
    store.subscribe(() => results.push(store.getSnapshot()));
    ask('12:00');
    ask('09:00');
    const done = worked();
    await done;
    expect(results).toEqual([1]);
    // 09:00Z: nothing raised yet
    expect(ask('09:00')).toEqual([]);
    expect(store.working()).toBe(false);
  });
});
