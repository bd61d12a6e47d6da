import { existsSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { listenerDownAlert } from '../alerts/listener-down-alert.js';
import { desktopNotify } from '../alerts/notifier.js';
import { type AlertMessage, COMMAND_TIMEOUT_MS } from '../alerts/notify-command.js';
import { TraderAlerts } from '../alerts/trader-alerts.js';
import { type Cache, openCache } from '../cache/index.js';
import { ApiClient } from '../client/api-client.js';
import { AuthRejected } from '../client/errors.js';
import { startListener, type WebhookListener } from '../receiver/listener.js';
import { fillHistory } from '../sync/history-fill.js';
import { STREAMS } from '../sync/streams.js';
import { type StreamOutcome, SyncEngine } from '../sync/sync-engine.js';
import type { MonitorStatus } from '../tui/types.js';
import type { Connection } from './config.js';
import { DEMO_SPEED, type DemoService, demoDir, startDemoService } from './demo-service.js';
import { usageError } from './exit-codes.js';
import { ConnectionTracker, MonitorStatusStore } from './monitor-status.js';
import { dataDir } from './paths.js';

export type MonitorMode = MonitorStatus['mode'];

export interface SessionFlags {
  listen?: number;
  notify: boolean;
  db?: string;
}

/** Everything the TUI is shown and driven by, for one run of `svc-monitor monitor`. */
export interface MonitorSession {
  cache: Cache;
  status: MonitorStatusStore;
  /** `r` in the TUI: a full sync pass now (nothing offline). */
  refresh(): void;
  /** The clock the TUI shows: the simulated world's in demo mode. */
  now: () => Date;
  streamIntervalsMs?: Record<string, number>;
  close(): Promise<void>;
}

/** Where the monitor's listener logs while the TUI has the screen. */
const logFile = (): string => join(dataDir(), 'monitor.log');

/** Demo polls often, because its world runs DEMO_SPEED times faster than the wall clock. */
const DEMO_INTERVAL_MS = 5_000;
const noListener: MonitorStatus['listener'] = { state: 'off', accepted: 0, duplicates: 0, rejected: 0 };

/**
 * Opens a session in one of DESIGN 3's modes. Offline: the cache alone (it must exist). Live: the configured
 * service, sync running, the listener when `--listen` is given. Demo: the reference service in-process with its
 * own cache under `<data dir>/demo/`, a listener always (registered with the service, so every event type flows).
 */
export async function openSession(
  mode: MonitorMode,
  connection: Connection,
  flags: SessionFlags,
): Promise<MonitorSession> {
  if (mode === 'offline') {
    if (!existsSync(connection.dbPath))
      throw usageError(`no cache at ${connection.dbPath}: run svc-monitor sync first, or pass --db`);
    const cache = openCache(connection.dbPath, 'read');
    const status = new MonitorStatusStore({
      mode,
      host: null,
      connection: { state: 'offline' },
      listener: noListener,
    });
    const close = async () => {
      cache.close();
    };
    return { cache, status, refresh: () => {}, now: () => new Date(), close };
  }
  const closers: (() => Promise<void> | void)[] = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer();
  };
  try {
    let demo: DemoService | undefined;
    let baseUrl = connection.baseUrl as string;
    let apiKey = connection.apiKey as string;
    let secrets = connection.webhookSecrets;
    if (mode === 'demo') {
      demo = await startDemoService();
      closers.push(() => demo?.close());
      baseUrl = demo.baseUrl;
      apiKey = demo.apiKey;
      // configured secrets still verify: a sender of your own can post to the demo's listener too
      secrets = [demo.webhookSecret, ...connection.webhookSecrets];
    }
    const now = demo ? () => new Date((demo as DemoService).now()) : () => new Date();
    const cache = openCache(demo ? join(demoDir(), 'cache.db') : connection.dbPath);
    closers.push(() => {
      cache.close();
    });
    const tokenFile = demo?.adminTokenFile;
    const status = new MonitorStatusStore({
      mode,
      host: new URL(baseUrl).host,
      connection: { state: 'connecting' },
      listener: noListener,
      ...(demo && tokenFile ? { accountPages: { url: demo.accountUrl, tokenFile } } : {}),
    });

    const log = (line: string) =>
      appendFile(logFile(), `${new Date().toISOString()} ${line}\n`, { mode: 0o600 }).catch(() => {});
    const alerts = new TraderAlerts({
      cache,
      settings: connection.alerts,
      settlement: connection.settlement,
      now,
      notify: flags.notify ? desktopNotify : null,
      log,
    });
    // after the listener and the sync have stopped: the notify commands under way get their time limit
    closers.push(() => alerts.close(COMMAND_TIMEOUT_MS + 1_000));
    // `alerts.notify.kill: false` silences kills as --no-notify does, and keeps them from the notify command
    const kill = connection.alerts.notify.kill;
    const listener = await maybeListen(
      mode,
      { ...flags, notify: flags.notify && kill },
      { secrets, cache, status, log, forward: kill ? (alert) => alerts.forward(alert) : undefined },
    );
    if (listener) {
      closers.push(() => listener.close());
      await demo?.registerListener(listener.url);
    }

    const client = new ApiClient({ baseUrl, apiKey, auth: connection.auth });
    closers.push(() => client.close());
    const intervals = demo ? Object.fromEntries(STREAMS.map((s) => [s.name, DEMO_INTERVAL_MS])) : connection.intervals;
    const engine = new SyncEngine({
      client,
      cache,
      intervals,
      now,
      historyHours: connection.historyHours,
      onStored: () => alerts.request(),
    });
    // stopping cancels the requests in flight and waits for the passes to settle, before the cache closes
    closers.push(() => engine.stop());
    const tracker = new ConnectionTracker();
    const onOutcome = (outcome: StreamOutcome) =>
      status.update((s) => ({ ...s, connection: tracker.record(outcome, now().toISOString()) }));
    engine.start(onOutcome).catch((error: unknown) => {
      const state = error instanceof AuthRejected ? 'auth-rejected' : 'unreachable';
      // never the key: AuthRejected's message only says it was rejected
      const message = error instanceof Error ? error.message : String(error);
      status.update((s) => ({ ...s, connection: { ...tracker.current(), state, message } }));
    });
    if (demo) closers.push(startHistoryFill(client, cache, now, status));
    // a press while a stream runs is coalesced by the engine: one more pass of it after the running one, at most
    const refresh = () => {
      engine.runOnce().catch(() => undefined);
    };
    const streamIntervalsMs = demo
      ? Object.fromEntries(STREAMS.map((s) => [s.name, DEMO_INTERVAL_MS * DEMO_SPEED]))
      : connection.intervals;
    return { cache, status, refresh, now, streamIntervalsMs, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The demo's history fill in the background (issue 13): its progress on the status bar, the panes usable meanwhile.
 * Returns its closer: no next table, the requests in flight cancelled, and the fill settled before the cache closes.
 */
function startHistoryFill(
  client: ApiClient,
  cache: Cache,
  now: () => Date,
  status: MonitorStatusStore,
): () => Promise<void> {
  let stopped = false;
  const show = (fill: NonNullable<MonitorStatus['fill']>) => status.update((s) => ({ ...s, fill }));
  const running = fillHistory(
    client,
    cache,
    now,
    (p) => show({ state: p.table === null ? 'done' : 'filling', ...p }),
    () => stopped,
  ).catch((error: unknown) => {
    if (stopped) return;
    const message = error instanceof Error ? error.message : String(error);
    const last = status.getStatus().fill;
    show({ table: null, tablesDone: 0, tables: 0, rows: 0, ...last, state: 'failed', message });
  });
  return async () => {
    stopped = true;
    client.cancel();
    await running;
  };
}

interface ListenerWiring {
  secrets: readonly string[];
  cache: Cache;
  status: MonitorStatusStore;
  log: (line: string) => void;
  forward?: (alert: AlertMessage) => void;
}

/** The listener of `--listen PORT` (always in demo). One that cannot start is an alert, not the end of the TUI. */
async function maybeListen(
  mode: MonitorMode,
  flags: SessionFlags,
  { secrets, cache, status, log, forward }: ListenerWiring,
): Promise<WebhookListener | undefined> {
  if (mode !== 'demo' && flags.listen === undefined) return undefined;
  if (secrets.length === 0)
    throw usageError('--listen needs a webhook secret: set SVC_WEBHOOK_SECRET or webhook_secrets in the config file');
  try {
    const listener = await startListener({
      cache,
      secrets,
      port: flags.listen ?? 0,
      notify: flags.notify ? desktopNotify : null,
      // the screen belongs to the TUI: the listener's lines (stored, duplicate, notification failures) go to a file
      log,
      forward,
    });
    const show = () =>
      status.update((s) => ({
        ...s,
        listener: {
          state: 'listening',
          url: listener.url,
          accepted: listener.counts.accepted,
          duplicates: listener.counts.duplicates,
          rejected: listener.counts.rejected,
        },
      }));
    listener.subscribe(show);
    show();
    return listener;
  } catch (error) {
    cache.alerts.add(listenerDownAlert(flags.listen ?? 0, error, new Date()));
    status.update((s) => ({ ...s, listener: { ...noListener, state: 'down' } }));
    return undefined;
  }
}
