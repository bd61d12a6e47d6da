import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exportBoard } from '../../src/board/board-export.js';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { BOARD_NOW, boardCache } from './board-fixture.js';
import { lines, renderTui, statusSource } from './fixtures.js';

const root = mkdtempSync(join(tmpdir(), 'board-export-agree-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A board row's cells, read back from the screen (120 columns: every column shown). */
function cellsOf(row: string) {
  const m = row.match(
    /^[› ] (.{13}) (\d\d:\d\d) (\S+) +(—|[\d.]+±[\d.]+°[FC]) +(—|[\d.]+)(?: (—|\+[\d.]+))? +(\S+) +(—|[+-][\d.]+ (?:YES|NO) \S+ [\d.]+ mkt[ab]) +(—|[+-][\d.]+)(.*)$/,
  );
  if (!m) throw new Error(`not a board row: ${row}`);
  return {
    name: m[1]?.trim(),
    local: m[2],
    phase: m[3],
    forecast: m[4],
    high: m[5],
    // no running high: the cell is one —, for both
    next: m[6] ?? '—',
    edge: m[8],
    pnl: m[9],
    flags: (m[10] ?? '').trim().split(/\s+/).filter(Boolean),
  };
}

describe('the board on screen and export board, at one instant', () => {
  it('carry the same figures for every city', async () => {
    const cache = boardCache(root, 0);
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={() => new Date(BOARD_NOW)} />, {
      columns: 120,
      rows: 40,
    });
    // priced, and laid out at 120 columns (the forecast and P&L columns shown)
    const frame = await app.until((f) => f.includes('+12.0 YES') && f.includes(' P&L '), 'the priced board');
    const exported = exportBoard(cache, { atMs: BOARD_NOW, replay: false, cities: cache.resources.cities() });
    expect(exported).toHaveLength(3);
    const fixed = (v: number) => v.toFixed(1);
    for (const city of exported) {
      const row = lines(frame).find((l) => l.slice(2).startsWith(city.city_name));
      expect(row, city.city_id).toBeDefined();
      const cells = cellsOf(row as string);
      // the export's figures written as the board writes them: the same instant, the same numbers
      expect(cells.local).toBe(city.local_time);
      expect(cells.phase).toBe(city.phase);
      expect(cells.forecast).toBe(
        city.mu === null || city.sigma === null ? '—' : `${fixed(city.mu)}±${fixed(city.sigma)}°${city.unit}`,
      );
      const high =
        city.running_high_c === null
          ? null
          : city.unit === 'F'
            ? (city.running_high_c * 9) / 5 + 32
            : city.running_high_c;
      expect(cells.high).toBe(high === null ? '—' : fixed(high));
      expect(cells.next).toBe(city.next === null ? '—' : `+${fixed(city.next)}`);
      const e = city.best_edge;
      const label = e && city.buckets.find((b) => b.bucket_slug === e.bucket_slug)?.bucket_label;
      expect(cells.edge).toBe(
        e ? `${e.edge >= 0 ? '+' : ''}${fixed(e.edge * 100)} ${e.side} ${label} ${e.price.toFixed(2)} ${e.venue}` : '—',
      );
      expect(cells.pnl).toBe(city.pnl === null ? '—' : `${city.pnl >= 0 ? '+' : ''}${city.pnl.toFixed(2)}`);
      expect(cells.flags).toEqual(city.flags);
    }
    // and what they hold, worked by hand (board.test.tsx's comment): New York's edge, P&L and flag
    const nyc = exported.find((c) => c.city_id === 'nyc');
    expect(nyc?.best_edge).toMatchObject({ venue: 'mktb', side: 'YES', price: 0.28 });
    expect(nyc?.pnl).toBe(-0.1);
    expect(nyc?.flags).toEqual(['DEAD']);
    app.unmount();
    cache.close();
  });
});
