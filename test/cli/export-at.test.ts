import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache } from '../../src/cache/index.js';
import { fillAsOfDay } from '../cache/as-of-day.js';
import { runCli } from './run-cli.js';

/**
 * `export board --at` and `export board-record` through the built CLI, on the hand-built New York day of
 * test/cache/as-of-day.ts (its comment gives every row), with the CLI's clock at 2026-11-25T12:00:00Z.
 */
const WORLD_CLOCK = fileURLToPath(new URL('../helpers/world-clock.mjs', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'export-at-'));
const db = join(root, 'cache.db');

beforeAll(() => {
  const cache = openCache(db);
  fillAsOfDay(cache);
  cache.close();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The built CLI's `export`, its clock at 2026-11-25T12:00:00Z (world-clock.mjs, preloaded through NODE_OPTIONS). */
const exportCli = (...args: string[]) =>
  runCli(['export', ...args, '--db', db], {
    NODE_OPTIONS: `--import ${WORLD_CLOCK}`,
    WORLD_CLOCK_START: '2026-11-25T12:00:00Z',
    XDG_CONFIG_HOME: join(root, 'config'),
  });

// the oldest row is the 04:30Z snapshot of the day before's market, the newest the 22:00Z METAR reading
const SPAN = 'the cache spans 2026-11-24T04:30:00Z to 2026-11-24T22:00:00Z';

describe('export board --at', () => {
  it('writes the board of that instant', async () => {
    const out = await exportCli('board', '--at', '2026-11-24T16:00:00Z');
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    const [nyc, ...others] = JSON.parse(out.stdout) as Record<string, any>[];
    expect(others).toEqual([]);
    // 16:00Z is 11:00 in New York: the 15:05Z desk run N(12.5, 0.8), METAR 5 and 9 °C so far, the 16:00Z snapshot.
    // 52-53°F holds 11 °C: Phi(-1.25) - Phi(-2.5) = 0.105650 - 0.006210 = 0.099440; 54-55°F holds 12 and 13 °C:
    // Phi(1.25) - Phi(-1.25) = 0.788700 (conditioned on X >= 8.5, which is 1 - Phi(-5): 0.9999997)
    // In °F: 12.5 °C = 54.5 °F, 0.8 °C = 1.44 °F; no models' spread in the polled range. The running high 9 °C (48 °F)
    // is in no listed bucket: no next. Open then, marked at the 16:00Z prices (52-53°F .35/.65, 54-55°F .45/.55):
    // no24 NO 54-55°F 12.5 x 0.55 - 10 = -3.125; svc-max-picks YES 54-55°F (entered 16:00Z) 16 x 0.45 - 10 = -2.80;
    // pick-1 A YES 52-53°F 40 x 0.35 - 10 = +4.00, B YES 54-55°F 40 x 0.45 - 10 = +8.00; edge trade 7 NO 52-53°F
    // 16.13 x 0.65 - 10 = +0.4845: 50 staked, +6.5595 -> +6.56; both buckets held; no flag
    expect(nyc).toEqual({
      city_id: 'nyc',
      city_name: 'New York',
      local_date: '2026-11-24',
      local_time: '11:00',
      phase: 'peak',
      unit: 'F',
      mu_c: 12.5,
      sigma_c: 0.8,
      mu: 54.5,
      sigma: 1.44,
      spread: null,
      running_high_c: 9,
      next: null,
      buckets: [
        {
          bucket_slug: '52-53f',
          bucket_label: '52-53°F',
          low: 52,
          high: 53,
          // 0.099440 at DESIGN 3's 4 decimals
          p: 0.0994,
          dead: false,
          held: true,
          mkta: { yes_price: 0.35, no_price: 0.65, snapshot_at: '2026-11-24T16:00:00Z' },
          mktb: null,
        },
        {
          bucket_slug: '54-55f',
          bucket_label: '54-55°F',
          low: 54,
          high: 55,
          p: 0.7887,
          dead: false,
          held: true,
          mkta: { yes_price: 0.45, no_price: 0.55, snapshot_at: '2026-11-24T16:00:00Z' },
          mktb: null,
        },
      ],
      // YES 54-55°F: 0.788700 - 0.45 - 0.01 = 0.3287, above NO 52-53°F's 0.900560 - 0.65 - 0.01 = 0.24056
      best_edge: { venue: 'mkta', bucket_slug: '54-55f', side: 'YES', price: 0.45, edge: 0.3287 },
      behind: null,
      staked: 50,
      pnl: 6.56,
      flags: [],
    });
  });

  it('after the day’s midnight: the next day’s board, the day before settled in the cache', async () => {
    const out = await exportCli('board', '--at', '2026-11-25T05:00:00Z', '--format', 'ndjson');
    expect(out.code).toBe(0);
    const nyc = JSON.parse(out.stdout.trim()) as Record<string, any>;
    expect([nyc.local_date, nyc.local_time, nyc.phase, nyc.running_high_c, nyc.buckets]).toEqual([
      '2026-11-25',
      '00:00',
      'early',
      null,
      [],
    ]);
  });

  it('refuses what is not an instant (before it opens the cache), before the cache’s first row or after now (naming the span)', async () => {
    for (const [at, why] of [
      ['2026-11-24', '--at must be an ISO 8601 instant with its offset, e.g. 2026-11-20T15:00:00Z'],
      ['2026-11-24T16:00:00', '--at must be an ISO 8601 instant with its offset'],
      ['not-an-instant-at-all', '--at must be an ISO 8601 instant with its offset'],
      ['2026-11-24T04:29:59Z', "--at is before the cache's first row"],
      ['2026-11-25T13:00:00Z', '--at is after now'],
    ] as const) {
      const out = await exportCli('board', '--at', at);
      expect(out.code, at).toBe(2);
      expect(out.stdout).toBe('');
      expect(out.stderr, at).toContain(why);
      // a value that is no instant is answered from the command line alone (export-flags.ts); a range, with the span
      if (!why.includes('ISO 8601')) expect(out.stderr, at).toContain(SPAN);
      expect(out.stderr.trim().split('\n'), at).toHaveLength(1);
    }
    // the value typed is never repeated
    expect((await exportCli('board', '--at', 'not-an-instant-at-all')).stderr).not.toContain('not-an-instant');
    // the cache's span holds its first row and every instant up to now (the CLI's clock), past its newest row too
    expect((await exportCli('board', '--at', '2026-11-24T04:30:00Z')).code).toBe(0);
    expect((await exportCli('board', '--at', '2026-11-25T11:00:00+01:00')).code).toBe(0);
  });

  it('applies to board only', async () => {
    const out = await exportCli('fusion-locks', '--at', '2026-11-24T16:00:00Z');
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('--at applies to board only');
  });
});

describe('export board-record', () => {
  it('writes one row a trade, DESIGN 3’s fields, in every format', async () => {
    const json = await exportCli('board-record');
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    const rows = JSON.parse(json.stdout) as Record<string, any>[];
    // the trades worked by hand in test/board/board-record.unit.test.ts: edge_min 0.08 by default
    expect(rows.map((r) => [r.local_hour, r.bucket_label, r.side, r.price, r.won, r.pnl])).toEqual([
      [9, '54-55°F', 'NO', 0.6, false, -10],
      [11, '52-53°F', 'NO', 0.65, true, 5.38],
      [11, '54-55°F', 'YES', 0.45, true, 12.22],
    ]);
    const csv = await exportCli('board-record', '--format', 'csv');
    const [header, ...records] = csv.stdout.trimEnd().split('\r\n');
    expect(header).toBe(
      'city_id,local_date,local_hour,venue,bucket_slug,bucket_label,side,price,p,edge,settled_value,won,pnl',
    );
    expect(records).toHaveLength(3);
    expect(records[0]).toMatch(/^nyc,2026-11-24,9,mkta,54-55f,54-55°F,NO,0\.6,0\.30\d+,0\.085\d+,55,false,-10$/);
    expect(JSON.parse((await exportCli('board-record', '--city', 'paris')).stdout)).toEqual([]);
    expect(JSON.parse((await exportCli('board-record', '--since', '2026-11-25')).stdout)).toEqual([]);
  });
});
