import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Compile } from 'typebox/compile';
import { afterAll, describe, expect, it } from 'vitest';
import { openCache } from '../../src/cache/index.js';
import { type StatusReport, StatusReport as StatusSchema } from '../../src/contract/status.js';
import { cLeg, HandCache, NYC, PARIS, pickEvent } from '../helpers/cache-builder.js';
import { configHomes } from '../helpers/config-home.js';
import { leg, testEvent } from '../helpers/webhook-events.js';
import { runCli } from './run-cli.js';

/**
 * `status --offline` on caches built by hand (DESIGN 4 "the book's horizon"). The cache keeps the service's clock
 * offset so that the monitor's now is 2026-11-21T15:00Z (plus the seconds the test takes): Paris' day (UTC+1) began
 * at 2026-11-20T23:00Z, New York's (UTC-5) at 05:00Z. Each cache holds an addon of Paris whose pick never arrived
 * and a kill of New York whose pick never arrived either.
 */
const root = mkdtempSync(join(tmpdir(), 'svc-status-book-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const home = configHomes(root)({});
const env = {
  ...home.env,
  SVC_BASE_URL: 'http://127.0.0.1:9/api/public/v1',
  SVC_API_KEY: 'status-book-key-0042',
  SVC_DB: '',
};
const check = Compile(StatusSchema);
const NOW_MS = Date.parse('2026-11-21T15:00:00Z');
let n = 0;

function cacheWith(write: (hand: HandCache) => void): string {
  const file = join(root, `cache-${++n}.db`);
  const cache = openCache(file);
  try {
    const hand = new HandCache(cache).cities(NYC, PARIS);
    write(hand);
    // the service's clock ahead of the host's by what brings now to 15:00Z
    cache.streams.recordClockOffset(NOW_MS - Date.now());
  } finally {
    cache.close();
  }
  return file;
}

function pickedBook(hand: HandCache, firstDelivery: string): void {
  hand.deliver([testEvent()], firstDelivery);
  hand.deliver([
    pickEvent('insurance.addon.created', {
      pickId: '77777777-7777-4777-8777-777777777777',
      parent: '99999999-9999-4999-8999-999999999999',
      city: PARIS,
      date: '2026-11-21',
      at: '2026-11-21T14:20:00Z',
      legs: [cLeg('C', 14)],
    }),
    pickEvent('insurance.pick.killed', {
      pickId: '88888888-8888-4888-8888-888888888888',
      city: NYC,
      date: '2026-11-21',
      at: '2026-11-21T14:10:00Z',
      legs: [leg('A', 50), leg('B', 52)],
    }),
  ]);
}

async function status(db: string): Promise<{ json: StatusReport; text: string }> {
  const json = await runCli(['status', '--offline', '--json', '--db', db], env);
  const report = JSON.parse(json.stdout) as StatusReport;
  expect(check.Check(report), JSON.stringify([...check.Errors(report)].slice(0, 3))).toBe(true);
  const text = await runCli(['status', '--offline', '--db', db], env);
  return { json: report, text: text.stdout };
}

describe('status: the book’s horizon', () => {
  it('while a city’s day began before the first verified delivery: insurance picks since it, and what stands apart', async () => {
    const { json, text } = await status(cacheWith((h) => pickedBook(h, '2026-11-21T13:00:00Z')));
    expect(json.insurance_picks_since).toBe('2026-11-21T13:00:00Z');
    expect(json.book).toEqual({
      horizon_from: 'delivery',
      note: 'insurance picks since 2026-11-21T13:00:00Z',
      addons_not_received: 1,
      kills_not_received: 1,
    });
    expect(text).toContain(
      'book      insurance picks since 2026-11-21T13:00:00Z\n' +
        '          from the first verified delivery: picks made before it never reached the monitor\n' +
        '          pick not received: 1 addon, 1 kill (shown apart in Positions)\n',
    );
  });

  it('once every city’s day began after it: no horizon line, the book whole today', async () => {
    const { json, text } = await status(cacheWith((h) => pickedBook(h, '2026-11-20T22:00:00Z')));
    expect(json.insurance_picks_since).toBe('2026-11-20T22:00:00Z');
    expect(json.book.note).toBeNull();
    expect(text).not.toContain('insurance picks since');
    expect(text).toContain(
      "book      whole today: every city's day began after the first verified delivery (2026-11-20T22:00:00Z)\n",
    );
  });

  it('the demo’s registration stands for the horizon; with none at all, no pick can have been received', async () => {
    const registered = await status(cacheWith((h) => h.cache.inbox.recordRegistration('2026-11-21T12:00:00.000Z')));
    expect(registered.json.book).toMatchObject({
      horizon_from: 'registration',
      note: 'insurance picks since 2026-11-21T12:00:00.000Z',
    });
    expect(registered.text).toContain("          from the listener's registration: picks made before it");
    const none = await status(cacheWith(() => undefined));
    expect(none.json.insurance_picks_since).toBeNull();
    expect(none.json.book).toEqual({
      horizon_from: null,
      note: 'insurance picks: none received (no listener)',
      addons_not_received: 0,
      kills_not_received: 0,
    });
    expect(none.text).toContain('book      insurance picks: none received (no listener)\n');
  });
});
