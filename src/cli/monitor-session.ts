import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Cache, MONITOR_PAGE_CACHE_MIB, openCache } from '../cache/index.js';
import { STREAM_NAMES } from '../contract/names.js';
import type { MonitorStatus } from '../tui/types.js';
import type { Connection } from './config.js';
import { type DemoService, demoDir, startDemoService } from './demo-service.js';
import { usageError } from './exit-codes.js';
import { marketClockOf } from './market-clock.js';
import { MonitorStatusStore, NO_LISTENER } from './monitor-status.js';
import { dataDir } from './paths.js';
import { SessionSource, startSessionThread } from './session/thread.js';

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
  /** The market's clock (DESIGN 4): the host's plus the service's offset, the world's in the demo. */
  now: () => Date;
  /** That offset (ms; null: unknown), for the status bar. */
  clockOffsetMs: () => number | null;
  streamIntervalsMs?: Record<string, number>;
  close(): Promise<void>;
}

/** Where the monitor's listener logs while the TUI has the screen. */
const logFile = (): string => join(dataDir(), 'monitor.log');

/** Demo polls often, because its world runs DEMO_SPEED (demo-service.ts) times faster than the wall clock. */
const DEMO_INTERVAL_MS = 5_000;

/**
 * Opens a session in one of DESIGN 3's modes. Offline: the cache alone (it must exist). Live: the configured
 * service, sync running, the listener when `--listen` is given. Demo: the reference service in-process with its
 * own cache under `<data dir>/demo/`, a listener always (registered with the service, so every event type flows).
 * Live and demo run their network half (sync, alerts, listener, fill) on a thread of its own (session/thread.ts):
 * the screen's thread only reads the cache and draws.
 */
export async function openSession(
  mode: MonitorMode,
  connection: Connection,
  flags: SessionFlags,
): Promise<MonitorSession> {
  if (mode === 'offline') {
    if (!existsSync(connection.dbPath))
      throw usageError(`no cache at ${connection.dbPath}: run svc-monitor sync first, or pass --db`);
    const cache = openCache(connection.dbPath, 'read', MONITOR_PAGE_CACHE_MIB);
    // the service's clock as the cache last knew it: a cache synced from a fast service is reviewed on its clock
    const clock = marketClockOf(cache);
    const status = new MonitorStatusStore({
      mode,
      host: null,
      connection: { state: 'offline' },
      listener: NO_LISTENER,
    });
    const close = async () => {
      cache.close();
    };
    return { cache, status, refresh: () => {}, now: clock.now, clockOffsetMs: () => clock.offsetMs(), close };
  }
  // a listener needs a secret to verify with: refused before anything starts
  const listen = mode === 'demo' || flags.listen !== undefined;
  if (listen && mode !== 'demo' && connection.webhookSecrets.length === 0)
    throw usageError('--listen needs a webhook secret: set SVC_WEBHOOK_SECRET or webhook_secrets in the config file');
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
    const dbPath = demo ? join(demoDir(), 'cache.db') : connection.dbPath;
    // the screen's connection: it opens the file first, as a writer, so a damaged or foreign file is refused here
    const cache = openCache(dbPath, 'write', MONITOR_PAGE_CACHE_MIB);
    closers.push(() => {
      cache.close();
    });
    // the screen's clock: the offset the cache kept, then each one the session's answers bring (the demo's too)
    const clock = marketClockOf(cache);
    const tokenFile = demo?.adminTokenFile;
    const status = new SessionSource({
      mode,
      host: new URL(baseUrl).host,
      connection: { state: 'connecting' },
      listener: NO_LISTENER,
      ...(demo && tokenFile ? { accountPages: { url: demo.accountUrl, tokenFile } } : {}),
    });
    // the sync, the alerts, the listener and the demo's fill on a thread of their own (session/worker.ts)
    const thread = await startSessionThread(
      {
        dbPath,
        baseUrl,
        apiKey,
        auth: connection.auth,
        listen: listen ? { port: flags.listen ?? 0, secrets } : null,
        notify: flags.notify,
        alerts: connection.alerts,
        settlement: connection.settlement,
        intervals: demo
          ? Object.fromEntries(STREAM_NAMES.map((name) => [name, DEMO_INTERVAL_MS]))
          : connection.intervals,
        historyHours: connection.historyHours,
        fill: demo !== undefined,
        ...(demo ? {} : { detailDays: connection.detailDays }),
        logFile: logFile(),
      },
      status,
      clock,
    );
    closers.push(() => thread.close());
    // the demo's book holds insurance picks from the registration on (DESIGN 4 "the book's horizon")
    if (thread.listenerUrl && demo) cache.inbox.recordRegistration(await demo.registerListener(thread.listenerUrl));
    // the status bar judges a stream stale on the host's clock, where the demo's passes are timed too
    const streamIntervalsMs = demo
      ? Object.fromEntries(STREAM_NAMES.map((name) => [name, DEMO_INTERVAL_MS]))
      : connection.intervals;
    return {
      cache,
      status,
      refresh: () => thread.refresh(),
      now: clock.now,
      clockOffsetMs: () => clock.offsetMs(),
      streamIntervalsMs,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
