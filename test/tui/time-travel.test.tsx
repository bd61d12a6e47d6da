import { afterAll, describe, expect, it } from 'vitest';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { handCaches, PARIS } from '../helpers/cache-builder.js';
import { REPLAY_DAY, replayDay, repriceAtReadings } from '../helpers/replay-day.js';
import { KEYS, lines, plain, renderTui, statusSource } from './fixtures.js';

const caches = handCaches('tui-travel-');
afterAll(() => caches.close());

/**
 * Every pane as of time travel's instant, on the Paris day of helpers/replay-day.ts (its comment gives every row; Paris
 * is UTC+1), now 2026-11-25T12:00:00Z. The trader alerts' figures are worked in test/tui/state/replay-trader-alerts.
 */
const now = () => new Date('2026-11-25T12:00:00Z');
const at = (hhmm: string) => Date.parse(`${REPLAY_DAY}T${hhmm}:00Z`);

/**
 * The Alerts pane at 11:30Z (12:30 in Paris): the stored kill, then what the rules raised by then, newest first; the
 * city by its name (the messages stored and worked out say `paris`).
 */
const EXPECTED = [
  '!! KILL      11-20 11:10Z KILL Paris 2026-11-20: SELL AT MARKET: legs A 10°C, B 11°C',
  '!! DEAD      11-20 11:00Z Paris 2026-11-20: held bucket 11°C died',
  // the day's edge alert, once: its best side then
  '!  EDGE      11-20 11:00Z Paris 2026-11-20: edge +17.0 points on NO 11°C at 0.82',
  '!! DEAD      11-20 10:00Z Paris 2026-11-20: held bucket 10°C died',
];

type App = Awaited<ReturnType<typeof renderTui>>;
/** A pane's number key, waited for until the tab bar (under the banner while replaying) shows it chosen. */
const pane = (app: App, key: string, title: string) => {
  app.stdin.write(key);
  return app.until((f) => f.includes(`[${key} ${title}`), `pane ${title}`);
};
/** → or ←, waited for until the banner shows `local` (Paris). */
const step = async (app: App, key: string, local: string) => {
  await app.press(key);
  return app.until((f) => f.includes(`REPLAY ${REPLAY_DAY} ${local} `), `the banner at ${local}`);
};

describe('time travel on every pane', () => {
  it('signals, positions, alerts and the forecast as they stood, the trader alerts worked out again; Esc is now', async () => {
    const h = caches.open();
    const cache = replayDay(h);
    repriceAtReadings(h);
    // what the live alert pass stored: an edge alert of 10:30Z, not shown while replaying (worked out again instead)
    cache.alerts.add({
      severity: 'info',
      kind: 'edge',
      ref: 'paris|2026-11-20|12°C|YES',
      city_id: 'paris',
      created_at: `${REPLAY_DAY}T10:30:00Z`,
      message: 'as stored by the live pass',
    });
    // 07:30Z is 08:30 in Paris, before the pick (08:00Z)
    const app = await renderTui(
      <MonitorApp cache={cache} source={statusSource()} now={now} initialCity="paris" replayAt={at('07:30')} />,
    );
    await app.until((f) => f.includes(`REPLAY ${REPLAY_DAY} 08:30 `), 'the banner');
    expect(await pane(app, '2', 'Signals')).toContain('No signals cached yet');
    // 08:00Z: the pick's signal, from then on
    const picked = await step(app, KEYS.right, '09:00');
    expect(lines(picked)).toContainEqual(
      expect.stringMatching(/11-20 08:00Z 09:00 +Paris +2026-11-20 +PICK +A 10°C \+ B 11°C/),
    );
    // open then: its two legs, B marked to mkta's 11°C YES at .20: 40 x (0.20 - 0.25) = -2.00
    const open = lines(await pane(app, '3', 'Positions'));
    // leg A is not quoted: the pick, and so its day, unpriced
    expect(open).toContainEqual(expect.stringMatching(/^ {4}Paris 2026-11-20 {2}1 position, 0 priced +20\.00 +—$/));
    expect(open).toContainEqual(expect.stringMatching(/pick 55555555 +20\.00/));
    expect(open).toContainEqual(expect.stringMatching(/B YES 11°C +0\.250 +0\.200m +10\.00 +-2\.00$/));

    // 11:30Z (12:30 local): the kill received at 11:10Z is on Signals and Alerts; the pick is no longer open
    for (const local of ['09:30', '10:00', '10:30', '11:00', '11:30', '12:00', '12:30'])
      await step(app, KEYS.right, local);
    expect(await app.until((f) => f.includes('LIVE DAYS (today and ahead)'), 'positions')).toMatch(
      // the cache's first verified delivery (08:00Z) is after Paris's day began: the book's horizon is said
      /TOTAL {2}\d+ open .*\n +insurance picks since 11-20 08:00Z\n/,
    );
    expect(app.frame()).not.toContain('pick 55555555');
    const signals = lines(await pane(app, '2', 'Signals'));
    expect(signals.filter((l) => /^[› ] +11-20 /.test(l))).toEqual([
      expect.stringMatching(/11-20 11:10Z 12:10 +Paris +2026-11-20 +!! KILL +A 10°C \+ B 11°C/),
      expect.stringMatching(/11-20 08:00Z 09:00 +Paris +2026-11-20 +PICK/),
    ]);
    // the rules' replay runs in the background: the pane's first frame says `working out…`, then the alerts come
    const framesBefore = app.frames.length;
    await pane(app, '4', 'Alerts');
    const alerts = lines(await app.until((f) => !f.includes('working out…'), 'the trader alerts worked out'));
    const drawn = app.frames.slice(framesBefore).map(plain);
    expect(drawn.find((f) => f.includes('[4 Alerts'))).toContain('working out… the trader alerts');
    // the stored kill, then what the rules raise by then, newest first; not the stored edge alert
    // (each line's start: the messages in full are test/tui/state/replay-trader-alerts.unit.test.ts's)
    const shown = alerts.filter((l) => /^[› ] +!/.test(l)).map((l) => l.slice(2));
    expect(shown.map((l, i) => l.slice(0, EXPECTED[i]?.length))).toEqual(EXPECTED);
    // unacknowledged then: the kill and the three trader alerts the rules raised by then (the stored edge alert is
    // left out with the trader kinds: it is worked out again)
    expect(alerts[2]).toMatch(/^4 unacknowledged {2}!! 1 KILL to act on/);
    // a worked-out alert's detail says when it was raised
    await app.press(KEYS.down, KEYS.enter);
    const detail = await app.until((f) => f.includes('worked out again for the replay'), 'the alert in full');
    expect(detail).toContain(`raised   ${REPLAY_DAY}T11:00:00Z`);
    expect(detail).toContain('city     Paris (paris)');
    await app.press(KEYS.escape);
    await app.until((f) => !f.includes('worked out again for the replay'), 'the detail closed');
    expect(app.frame()).toContain(`REPLAY ${REPLAY_DAY} 12:30 `);
    // acknowledging is of now, not of the past: refused, and nothing written
    await app.press('a');
    await app.until((f) => f.includes('replaying: alerts are acknowledged now, not in the past'), 'the refusal');
    expect(cache.alerts.counts()).toEqual({ unacknowledged: 2, kills: 1 });

    // the pinned day's forecast page: the running high then, 12 °C (11:00Z), and the local clock then
    const page = await pane(app, '5', 'Forecasts');
    expect(page).toContain('local Fri 12:30 · forecast for 2026-11-20');
    expect(page).toContain('METAR high so far 12°C');

    // History is the whole cache, and says so; its tables turn with [ ] (← → step time)
    const history = lines(await pane(app, '6', 'History'));
    expect(history.find((l) => l.includes('◂'))).toMatch(/the whole cache, not as of the replay +\[ \] table · /);

    // Enter on the board's row opens the city on Forecasts; Esc steps back to the board, still replaying, then to now
    await pane(app, '1', 'Board');
    await app.press(KEYS.enter);
    await app.until((f) => f.includes('[5 Forecasts]') && f.includes('Paris (paris)'), 'Paris opened');
    await app.press(KEYS.escape);
    const back = await app.until((f) => f.includes('[1 Board]'), 'back on the board');
    expect(back).toContain(`REPLAY ${REPLAY_DAY} 12:30 `);

    // Esc: now; Alerts lists what is stored, the live pass's edge alert among it, and no alert worked out again
    await app.press(KEYS.escape);
    await app.until((f) => !f.includes('REPLAY'), 'live again');
    const live = await pane(app, '4', 'Alerts');
    expect(live).toContain('as stored by the live pass');
    expect(live).not.toContain('!! DEAD');
    expect(live).toMatch(/2 unacknowledged {2}!! 1 KILL to act on/);
    app.unmount();
  });

  it("History's Enter on a past day's row offers to replay it, and Enter there goes to the board then", async () => {
    const cache = replayDay(caches.open());
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} initialCity="paris" />);
    await app.pane('6');
    // the newest mkta row: 14°C or higher of mkta's 06:30Z snapshot (07:30 in Paris)
    await app.press(KEYS.enter);
    const detail = await app.until((f) => f.includes('mkta_buckets_history row'), 'the row in full');
    expect(detail).toContain('Enter replay this day · Esc back');
    expect(detail).toContain("Enter replay this day: paris's 2026-11-20 from 07:30 local");
    expect(detail).toContain('"bucket_label": "14°C or higher"');
    await app.press(KEYS.enter);
    const board = await app.until((f) => f.includes(`REPLAY ${REPLAY_DAY} 07:30  Paris UTC+1`), 'the replay');
    expect(board).toContain('[1 Board]');
    // 07:30 local: the desk fetched at 06:00Z, nothing read yet, before 10:00
    expect(lines(board)).toContainEqual(expect.stringMatching(/^› Paris +07:30 early +12\.0±1\.0°C/));
    app.unmount();
  });
});

describe("History's BOARD'S RECORD", () => {
  it('the paper trades of the board’s edges on the settled day, in all and by band, venue, hour and city', async () => {
    const h = caches.open();
    const cache = replayDay(h);
    // mktb's snapshot at 11:00Z, 12:00 in Paris: the record's 12:00 hour (mkta's only snapshot, 06:30Z, is in no
    // hour's half hour). Each sums to 1.01 or 1.02: cost 0.01. At 12:00 the desk N(12, 1), high 12 °C:
    // P(X >= 11.5) = Phi(0.5) = 0.691462; 12°C 0.382925 / 0.691462 = 0.553790, 13°C 0.241731 / 0.691462 =
    // 0.349594, 14°C or higher 0.066807 / 0.691462 = 0.096617; 10°C or below and 11°C dead (p 0)
    //   YES 12°C  0.553790 - 0.40 - 0.01 = 0.143790 >= 0.08: taken at .40; settled 13: lost, -10
    //   YES 13°C  0.349594 - 0.25 - 0.01 = 0.089594 >= 0.08: taken at .25; won, 10 / 0.25 - 10 = +30
    //   NO 11°C 1 - 0.97 - 0.01 = 0.02, NO 10°C or below 1 - 0.99 - 0.01 = 0, NO 14°C+ 0.903383 - 0.90 - 0.01 < 0
    // all: 2 trades, 1 win (50.0%), 20.00 staked, +20.00 (ROI +100.0%); Brier of the side's p: 0.553790^2 = 0.306683
    // (lost), (1 - 0.349594)^2 = 0.423028 (won): mean 0.364856. 2 positions on the one city-day, which made all of it
    h.quotes('mktb', PARIS, REPLAY_DAY, `${REPLAY_DAY}T11:00:00Z`, [
      ['10°C or below', 0.02, 0.99],
      ['11°C', 0.05, 0.97],
      ['12°C', 0.4, 0.62],
      ['13°C', 0.25, 0.77],
      ['14°C or higher', 0.12, 0.9],
    ]);
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />, {
      columns: 120,
      rows: 90,
    });
    await app.pane('6');
    await app.press('s');
    const text = lines(await app.until((f) => f.includes("BOARD'S RECORD"), 'the record'));
    const from = text.findIndex((l) => l.startsWith("BOARD'S RECORD"));
    expect(text.slice(from + 3, from + 13)).toEqual([
      '  the whole cache',
      '  2 positions on 1 city-day',
      '  largest day paris 2026-11-20: +20.00 of +20.00 P&L (100%)',
      '  group            trades  wins    hit    staked       P&L     ROI  Brier',
      '  all                   2     1  50.0%     20.00    +20.00 +100.0%  0.365',
      '  edge min-0.10         1     1 100.0%     10.00    +30.00 +300.0%  0.423',
      '  edge 0.10-0.20        1     0   0.0%     10.00    -10.00 -100.0%  0.307',
      '  venue mktb            2     1  50.0%     20.00    +20.00 +100.0%  0.365',
      '  12:00 local           2     1  50.0%     20.00    +20.00 +100.0%  0.365',
      '  city paris            2     1  50.0%     20.00    +20.00 +100.0%  0.365',
    ]);
    expect(text[from + 1]).toContain('each bucket side with an effective edge of at least 0.08');
    // the History filter's city: its own block below
    await app.press('/', ...'paris'.split(''), KEYS.enter);
    const city = lines(await app.until((f) => f.includes('▸  city paris'), 'the city'));
    const block = city.indexOf('  city paris');
    expect(city.slice(block, block + 5)).toEqual([
      '  city paris',
      '  2 positions on 1 city-day',
      '  largest day paris 2026-11-20: +20.00 of +20.00 P&L (100%)',
      '  group            trades  wins    hit    staked       P&L     ROI  Brier',
      '  all                   2     1  50.0%     20.00    +20.00 +100.0%  0.365',
    ]);
    app.unmount();
  });
});
