import { EventEmitter } from 'node:events';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { render } from 'ink-testing-library';
import type { ReactElement } from 'react';
import { expect } from 'vitest';
import { INBOX_ALERT_RULES } from '../../src/alerts/kill-alert.js';
import { rejectedWebhookAlert } from '../../src/alerts/rejected-webhook-alert.js';
import { type Cache, type InboxEntry, openCache } from '../../src/cache/index.js';
import { ApiClient } from '../../src/client/api-client.js';
import type { EventType, WebhookEvent } from '../../src/contract/events.js';
import { HISTORICAL_TABLES, type HistoricalRow, type HistoricalTable } from '../../src/contract/historical.js';
import { replayKey } from '../../src/receiver/identity.js';
import { SyncEngine } from '../../src/sync/sync-engine.js';
import type { MonitorSource, MonitorStatus } from '../../src/tui/render-monitor.js';
import { startTestService, TEST_KEY } from '../helpers/service.js';
import { TEMPLATE_START } from '../helpers/world-template.js';

const HOUR = 3_600_000;

/** The monitor's "now" in these tests: 15:00 UTC on the template's day (10:00 in New York, evening in Europe). */
export const NOW_MS = TEMPLATE_START + 3 * HOUR;
export const now = () => new Date(NOW_MS);

/** Historical tables copied from the reference server into the cache, all rows (mkta: about 100,000). */
const COPIED: HistoricalTable[] = [
  'forecast_accuracy_daily',
  'model_forecasts_daily',
  'edge_resolved',
  'market_brief_daily',
  'metar_observations_history',
  'mkta_buckets_history',
];

export interface Filled {
  /** A checkpointed cache file; `copy()` gives each test its own. */
  file: string;
  root: string;
  copy(): Cache;
  /** The same cache before any historical table was copied in: what a monitor that never backfilled holds. */
  copyWithoutHistory(): Cache;
  close(): void;
}

/**
 * Left for test/tui/forecasts.test.tsx only, whose move onto a hand-built cache (helpers/monitor-scene.ts,
 * helpers/cache-builder.ts) is another change's: every other test of the monitor takes no value from the simulated
 * world, and this goes once that file has moved.
 *
 * One cache filled the way the monitor fills it: a real sync pass against the reference service at `NOW_MS`, every
 * webhook event the world sent (30 days of picks, addons, kills and edge trades) through the inbox's intake, all
 * rows of some historical tables through `upsertHistorical`, a rejected webhook and a failing stream.
 */
export async function fillCache(): Promise<Filled> {
  const root = mkdtempSync(join(tmpdir(), 'tui-test-'));
  const svc = await startTestService();
  svc.service.world.advanceTo(NOW_MS);
  const file = join(root, 'filled', 'cache.db');
  const bare = join(root, 'bare.db');
  const cache = openCache(file);
  const client = new ApiClient({ baseUrl: svc.baseUrl, apiKey: TEST_KEY });
  try {
    // the pass ran half a minute ago by the monitor's clock
    const summary = await new SyncEngine({ client, cache, now: () => new Date(NOW_MS - 30_000) }).runOnce();
    expect(summary.errors).toEqual([]);
    const events = svc.service.db
      .prepare('SELECT id, event_id, event_type, created_at, json FROM world_events ORDER BY id')
      .all() as { id: number; event_id: string; event_type: EventType; created_at: string; json: string }[];
    const entries: InboxEntry[] = events.map((e) => ({
      eventId: e.event_id,
      replayKey: replayKey(JSON.parse(e.json) as WebhookEvent),
      eventType: e.event_type,
      deliveryId: `delivery-${e.id}`,
      receivedAt: e.created_at,
      body: e.json,
      event: JSON.parse(e.json) as WebhookEvent,
    }));
    for (let i = 0; i < entries.length; i += 500) cache.inbox.intake(entries.slice(i, i + 500), INBOX_ALERT_RULES);
    cache.checkpoint();
    copyFileSync(file, bare);
    // the sync pass's live history streams filled their window; a monitor that never backfilled nor ran them holds
    // no historical row at all
    const bareDb = new Database(bare);
    for (const table of HISTORICAL_TABLES) bareDb.exec(`DELETE FROM h_${table}`);
    bareDb.exec("DELETE FROM checkpoints WHERE stream LIKE 'live/%'");
    bareDb.close();
    for (const table of COPIED) {
      const rows = (
        svc.service.db.prepare(`SELECT json FROM h_${table} ORDER BY id DESC`).pluck().all() as string[]
      ).map((json) => JSON.parse(json) as HistoricalRow);
      for (let i = 0; i < rows.length; i += 5000) cache.resources.upsertHistorical(table, rows.slice(i, i + 5000));
    }
    const rejected = {
      reason: 'body is not JSON',
      receivedAt: new Date(NOW_MS - HOUR).toISOString(),
      body: Buffer.from('{nope'),
    };
    cache.inbox.reject(rejected, {
      ...rejectedWebhookAlert(rejected),
      message: 'rejected a signed webhook delivery: body is not JSON',
    });
    // forecasts failed after their last success; current is three polls behind, fusion locks ten
    cache.streams.recordError(
      'forecasts',
      new Date(NOW_MS - 10_000).toISOString(),
      'service unreachable after 6 attempts',
    );
    cache.streams.recordSuccess('current', new Date(NOW_MS - 180_000).toISOString(), 52);
    cache.streams.recordSuccess('fusion-locks', new Date(NOW_MS - 300_000).toISOString(), 13);
    cache.checkpoint();
  } finally {
    cache.close();
    await client.close();
    await svc.close();
  }
  const opened: Cache[] = [];
  let copies = 0;
  const copyOf = (from: string) => {
    const path = join(root, `copy-${++copies}.db`);
    copyFileSync(from, path);
    const c = openCache(path);
    opened.push(c);
    return c;
  };
  return {
    file,
    root,
    copy: () => copyOf(file),
    copyWithoutHistory: () => copyOf(bare),
    close() {
      for (const c of opened) c.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export const LIVE: MonitorStatus = {
  mode: 'live',
  host: 'svc.example:443',
  connection: { state: 'ok' },
  listener: { state: 'listening', url: 'http://127.0.0.1:8788/', accepted: 12, duplicates: 3, rejected: 1 },
};

/** A MonitorSource whose status the test changes, the way the CLI's would. */
export function statusSource(initial: MonitorStatus = LIVE): MonitorSource & { set(next: MonitorStatus): void } {
  let status = initial;
  const listeners = new Set<() => void>();
  return {
    getStatus: () => status,
    subscribe(onChange) {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    set(next) {
      status = next;
      for (const l of listeners) l();
    },
  };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape sequences start with ESC
const ANSI = /\u001b\[[0-9;]*m/g;
export const plain = (frame: string | undefined) => (frame ?? '').replace(ANSI, '');

export const KEYS = {
  down: '\u001b[B',
  up: '\u001b[A',
  pageDown: '\u001b[6~',
  pageUp: '\u001b[5~',
  enter: '\r',
  escape: '\u001b',
  tab: '\t',
  shiftTab: '\u001b[Z',
  left: '\u001b[D',
  right: '\u001b[C',
  backspace: '\u007f',
} as const;

const settle = (ms = 30) => new Promise((r) => setTimeout(r, ms));

/** ink-testing-library plus what these tests do to it: keys, resizing, waiting for a frame. */
export async function renderTui(
  tree: ReactElement,
  size: { columns: number; rows: number } = { columns: 120, rows: 40 },
) {
  const app = render(tree);
  resize(app.stdout, size.columns, size.rows);
  await settle();
  /** Waits until the frame satisfies `check` (a coalesced re-query or a render away), or fails with the frame. */
  const until = async (check: (frame: string) => boolean, what = 'the expected frame'): Promise<string> => {
    for (let i = 0; i < 500; i++) {
      const f = plain(app.lastFrame());
      if (check(f)) return f;
      await settle(10);
    }
    throw new Error(`timed out waiting for ${what}; last frame:\n${plain(app.lastFrame())}`);
  };
  return {
    ...app,
    frame: () => plain(app.lastFrame()),
    until,
    /**
     * Presses a pane's number key and waits until the tab bar shows that pane chosen: a frame read right after a
     * key can still be the one before it on a busy machine.
     */
    async pane(key: string): Promise<string> {
      app.stdin.write(key);
      return until((f) => (f.split('\n')[0] ?? '').includes(`[${key} `), `pane ${key} on the tab bar`);
    },
    async press(...keys: string[]) {
      for (const k of keys) {
        app.stdin.write(k);
        await settle();
      }
    },
    async resize(columns: number, rows: number) {
      resize(app.stdout, columns, rows);
      await settle();
    },
  };
}

function resize(stdout: EventEmitter, columns: number, rows: number): void {
  Object.defineProperty(stdout, 'columns', { value: columns, configurable: true });
  Object.defineProperty(stdout, 'rows', { value: rows, configurable: true });
  stdout.emit('resize');
}

/** Lines of a frame, without trailing blanks. */
export const lines = (frame: string) => frame.split('\n').map((l) => l.trimEnd());

/** Streams enough like a terminal for Ink's `render`: what the CLI passes in. */
export function fakeTerminal() {
  const stdout = Object.assign(new EventEmitter(), {
    columns: 100,
    rows: 30,
    isTTY: true,
    written: [] as string[],
    write(chunk: string) {
      stdout.written.push(chunk);
      return true;
    },
  });
  const stdin = Object.assign(new EventEmitter(), {
    isTTY: true,
    data: null as string | null,
    write(data: string) {
      stdin.data = data;
      stdin.emit('readable');
      stdin.emit('data', data);
    },
    read() {
      const d = stdin.data;
      stdin.data = null;
      return d;
    },
    setEncoding() {},
    setRawMode() {},
    resume() {},
    pause() {},
    ref() {},
    unref() {},
  });
  return {
    stdout: stdout as unknown as NodeJS.WriteStream & { written: string[] },
    stdin: stdin as unknown as NodeJS.ReadStream & { write(d: string): void },
  };
}
