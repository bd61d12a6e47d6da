import type { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { rejectedWebhookAlert } from '../../src/alerts/rejected-webhook-alert.js';
import { Cache, CacheError, openCache, type RejectedWebhook } from '../../src/cache/index.js';
import { MonitorApp, renderMonitor } from '../../src/tui/render-monitor.js';
import { damagePage } from '../cli/damaged-cache.js';
import { fakeTerminal, LIVE, plain, renderTui, statusSource } from './fixtures.js';

const root = mkdtempSync(join(tmpdir(), 'tui-damaged-'));
const opened: Cache[] = [];
afterAll(() => {
  for (const cache of opened) cache.close();
  rmSync(root, { recursive: true, force: true });
});

let files = 0;
/** A small cache with an alert about a rejected webhook, `table` damaged on disk, opened the way a reader opens it. */
function damagedCache(table: string): { cache: Cache; file: string } {
  const file = join(root, `cache-${++files}.db`);
  const writer = openCache(file);
  const rejected: RejectedWebhook = {
    reason: 'body is not JSON',
    receivedAt: '2026-11-21T10:00:00.000Z',
    deliveryId: 'd-1',
    body: Buffer.from('{x'),
  };
  writer.inbox.reject(rejected, rejectedWebhookAlert(rejected));
  writer.streams.recordSuccess('forecasts', '2026-11-21T10:00:00.000Z', 0);
  writer.close();
  damagePage(file, table);
  const cache = openCache(file, 'read');
  opened.push(cache);
  return { cache, file };
}

/** The monitor on a fake terminal; resolves with how it ended (Ink's exit, with the error it was given). */
function run(cache: Cache) {
  const { stdin, stdout } = fakeTerminal();
  // vitest replaces the console, so Ink cannot patch it here
  const monitor = renderMonitor({ cache, source: statusSource(LIVE), stdin, stdout, patchConsole: false });
  const ended = monitor.waitUntilExit().then(
    () => ({ error: undefined as unknown }),
    (error: unknown) => ({ error }),
  );
  const screen = () => plain(stdout.written.join(''));
  /** Keys reach the monitor once Ink listens on its stdin (its input hook is mounted): a state, not a delay. */
  const listening = () => until(() => (stdin as unknown as EventEmitter).listenerCount('readable') > 0);
  return { stdin, screen, listening, ended };
}

/** Resolves once `check` holds, looking every 10 ms. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 10));
}

describe('a damaged cache in the terminal UI', () => {
  it('a pane whose read meets the damage ends the monitor with one CacheError naming the file, no error box', async () => {
    const { cache, file } = damagedCache('h_mktb_buckets_history');
    const tui = run(cache);
    await tui.listening();
    tui.stdin.write('6');
    // History opens on mkta_buckets_history, which reads fine; → goes to mktb_buckets_history, the damaged table
    await until(() => tui.screen().includes('◂ mkta_buckets_history ▸'));
    tui.stdin.write('\u001b[C');
    const { error } = await tui.ended;
    expect(error).toBeInstanceOf(CacheError);
    expect((error as Error).message).toBe(
      `${file} is damaged (database disk image is malformed): nothing is written to it; export what can still be read, then move it away`,
    );
    expect(tui.screen()).not.toMatch(/ERROR|\n\s+at |node_modules/);
  });

  it('a key whose handler meets the damage (Enter on a rejected webhook) ends it the same way', async () => {
    const { cache, file } = damagedCache('rejected_webhooks');
    const tui = run(cache);
    await tui.listening();
    tui.stdin.write('4');
    await until(() => tui.screen().includes('REJECTED'));
    tui.stdin.write('\r');
    const { error } = await tui.ended;
    expect(error).toBeInstanceOf(CacheError);
    expect((error as Error).message).toContain(`${file} is damaged`);
    expect(tui.screen()).not.toMatch(/ERROR|\n\s+at |node_modules/);
  });
});

describe('a cache this user cannot write, reviewed offline', () => {
  it('a (acknowledge) says it cannot, and the monitor goes on', async () => {
    const file = join(root, 'read-only.db');
    const writer = openCache(file);
    writer.alerts.add({
      severity: 'warning',
      kind: 'listener-down',
      message: 'stale stream',
      created_at: '2026-11-21T10:00:00Z',
    });
    writer.close();
    // a connection that cannot write, as a read-only file gives one (whoever runs the tests)
    const cache = new Cache(new Database(file, { readonly: true }));
    opened.push(cache);
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource({ ...LIVE, mode: 'offline' })} />);
    await app.press('4', 'a');
    const frame = await app.until((f) => f.includes('not acknowledged'), 'the notice');
    expect(frame).toContain('not acknowledged: the cache is read-only here');
    expect(frame).toContain('1 unacknowledged');
    await app.press('2');
    expect(app.frame()).toContain('[2 Signals]');
    app.unmount();
  });
});
