/**
 * The live and demo monitor's network half, on a worker thread of the monitor's process (thread.ts starts
 * it): the sync engine, the trader alerts, the webhook listener and the demo's history fill, over a cache connection
 * of their own. Their requests, validation, page writes and rule passes run on this thread's event loop and heap,
 * never delaying a key of the screen. The screen is told what was committed here (the tables, so the panes read
 * them again), that another connection committed (SQLite's `data_version`: another process, or the screen's own
 * writes), and the status bar's states (connection, listener, fill).
 */
import { appendFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { listenerDownAlert } from '../../alerts/listener-down-alert.js';
import { desktopNotify } from '../../alerts/notifier.js';
import { COMMAND_TIMEOUT_MS } from '../../alerts/notify-command.js';
import { TraderAlerts } from '../../alerts/trader-alerts.js';
import { type Cache, type CacheTopic, MONITOR_PAGE_CACHE_MIB, openCache } from '../../cache/index.js';
import { ApiClient } from '../../client/api-client.js';
import { AuthRejected } from '../../client/errors.js';
import { startListener, type WebhookListener } from '../../receiver/listener.js';
import { fillHistory } from '../../sync/history-fill.js';
import { type StreamOutcome, SyncEngine } from '../../sync/sync-engine.js';
import type { MonitorStatus } from '../../tui/types.js';
import { pruneDaily } from '../daily-prune.js';
import { marketClockOf } from '../market-clock.js';
import { ConnectionTracker, NO_LISTENER } from '../monitor-status.js';
import type { FromSession, SessionStart, ToSession } from './protocol.js';

/** How often another connection's commits are looked for: the TUI's own poll did it as often. */
const EXTERNAL_POLL_MS = 1_000;

const send = (message: FromSession) => parentPort?.postMessage(message);
const closers: (() => Promise<void> | void)[] = [];
let refresh: () => void = () => {};

/** The cache's change events, sent in one message a turn of the loop (a page's write announces several tables). */
function forwardChanges(cache: Cache): () => void {
  const pending = new Set<CacheTopic>();
  let flush: NodeJS.Immediate | undefined;
  const detach = cache.onChange((event) => {
    pending.add(event.table);
    flush ??= setImmediate(() => {
      flush = undefined;
      send({ type: 'changes', tables: [...pending] });
      pending.clear();
    });
  });
  const unwatch = cache.watchDataVersion(() => send({ type: 'external' }), EXTERNAL_POLL_MS);
  return () => {
    detach();
    unwatch();
    if (flush) clearImmediate(flush);
  };
}

async function start(options: SessionStart): Promise<void> {
  // the screen's connection opened the file first, as a writer: identified, checked, migrated, in WAL mode; this
  // one takes it as it is (no second quick_check of every page) and writes through it all the same
  const cache = openCache(options.dbPath, 'read', MONITOR_PAGE_CACHE_MIB);
  closers.push(() => cache.close());
  closers.push(forwardChanges(cache));
  const log = (line: string) =>
    appendFile(options.logFile, `${new Date().toISOString()} ${line}\n`, { mode: 0o600 }).catch(() => {});
  // the market's clock, live and demo alike: the host's plus the service's offset at its last good answer
  const clock = marketClockOf(cache, {
    log,
    onOffset: (offsetMs) => send({ type: 'clock', offsetMs }),
  });
  const now = clock.now;
  const alerts = new TraderAlerts({
    cache,
    settings: options.alerts,
    settlement: options.settlement,
    now,
    notify: options.notify ? desktopNotify : null,
    log,
    // how late an alert may be found and still notify (alert-timing.ts): the intervals the sync polls at
    intervals: options.intervals,
  });
  // after the listener and the sync have stopped: the notify commands under way get their time limit
  closers.push(() => alerts.close(COMMAND_TIMEOUT_MS + 1_000));
  const listener = options.listen ? await listen(cache, options, alerts, log, now) : undefined;
  if (listener) closers.push(() => listener.close());

  const client = new ApiClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, auth: options.auth, clock });
  closers.push(() => client.close());
  const engine = new SyncEngine({
    client,
    cache,
    intervals: options.intervals,
    historyHours: options.historyHours,
    onStored: () => alerts.request(),
  });
  // stopping cancels the requests in flight and waits for the passes to settle, before the cache closes
  closers.push(() => engine.stop());
  const tracker = new ConnectionTracker();
  const onOutcome = (outcome: StreamOutcome) =>
    send({ type: 'status', status: { connection: tracker.record(outcome, now().toISOString()) } });
  engine.start(onOutcome).catch((error: unknown) => {
    const state = error instanceof AuthRejected ? 'auth-rejected' : 'unreachable';
    // never the key: AuthRejected's message only says it was rejected
    const message = error instanceof Error ? error.message : String(error);
    send({ type: 'status', status: { connection: { ...tracker.current(), state, message } } });
  });
  if (options.fill) closers.push(startHistoryFill(client, cache, now));
  // a live monitor keeps its cache small as a sync daemon does (DESIGN 3 `cache prune`)
  if (options.detailDays !== undefined) closers.push(pruneDaily(cache, clock, options.detailDays, log));
  // a press while a stream runs is coalesced by the engine: one more pass of it after the running one, at most
  refresh = () => {
    engine.runOnce().catch(() => undefined);
  };
  send({ type: 'started', listener: listener ? { url: listener.url } : null });
}

/** The listener; one that cannot start is an alert and a `down` on the status bar, not the end of the TUI. */
async function listen(
  cache: Cache,
  options: SessionStart,
  alerts: TraderAlerts,
  log: (line: string) => void,
  now: () => Date,
): Promise<WebhookListener | undefined> {
  const port = options.listen?.port ?? 0;
  // `alerts.notify.kill: false` silences kills as --no-notify does, and keeps them from the notify command
  const kill = options.alerts.notify.kill;
  try {
    const listener = await startListener({
      cache,
      secrets: options.listen?.secrets ?? [],
      port,
      notify: options.notify && kill ? desktopNotify : null,
      log,
      now,
      forward: kill ? (alert) => alerts.forward(alert) : undefined,
    });
    const show = () =>
      send({
        type: 'status',
        status: {
          listener: {
            state: 'listening',
            url: listener.url,
            accepted: listener.counts.accepted,
            duplicates: listener.counts.duplicates,
            rejected: listener.counts.rejected,
          },
        },
      });
    listener.subscribe(show);
    show();
    return listener;
  } catch (error) {
    cache.alerts.add(listenerDownAlert(port, error, now()));
    send({ type: 'status', status: { listener: { ...NO_LISTENER, state: 'down' } } });
    return undefined;
  }
}

/**
 * The demo's history fill in the background (issue 13): its progress on the status bar, the panes usable meanwhile.
 * Returns its closer: no next table, the requests in flight cancelled, and the fill settled before the cache closes.
 */
function startHistoryFill(client: ApiClient, cache: Cache, now: () => Date): () => Promise<void> {
  let stopped = false;
  let last: MonitorStatus['fill'];
  const show = (fill: NonNullable<MonitorStatus['fill']>) => {
    last = fill;
    send({ type: 'status', status: { fill } });
  };
  const running = fillHistory(
    client,
    cache,
    now,
    (p) => show({ state: p.table === null ? 'done' : 'filling', ...p }),
    () => stopped,
  ).catch((error: unknown) => {
    if (stopped) return;
    const message = error instanceof Error ? error.message : String(error);
    show({ table: null, tablesDone: 0, tables: 0, rows: 0, ...last, state: 'failed', message });
  });
  return async () => {
    stopped = true;
    client.cancel();
    await running;
  };
}

async function close(): Promise<void> {
  refresh = () => {};
  for (const closer of closers.reverse()) await closer();
  closers.length = 0;
  send({ type: 'closed' });
  // nothing left on the thread's loop: it ends
  parentPort?.close();
}

/** Whether `start` came: one session a thread (its closers and `refresh` are the thread's). */
let started = false;

parentPort?.on('message', (message: ToSession) => {
  if (message.type === 'start' && started) send({ type: 'failed', message: 'the session thread was started already' });
  else if (message.type === 'start') {
    started = true;
    start(message).catch(async (error: unknown) => {
      const text = error instanceof Error ? error.message : String(error);
      for (const closer of closers.reverse()) await Promise.resolve(closer()).catch(() => undefined);
      closers.length = 0;
      send({ type: 'failed', message: text });
    });
  } else if (message.type === 'refresh') refresh();
  else void close();
});
