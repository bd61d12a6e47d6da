import type { Worker } from 'node:worker_threads';
import type { CacheTopic } from '../../cache/index.js';
import type { ServiceClock } from '../../client/service-clock.js';
import type { MonitorStatus } from '../../tui/types.js';
import { MonitorStatusStore } from '../monitor-status.js';
import { askWorker, startModuleWorker } from '../worker-module.js';
import type { FromSession, SessionStart, ToSession } from './protocol.js';

/**
 * The session thread's young generation, in MB: its garbage (response bodies, validated pages) is short-lived, and
 * V8's default lets it grow to 48 MB, all of it resident, before it collects. Small costs no CPU the sync misses
 * (docs/benchmarks.md, the live start).
 */
const YOUNG_GENERATION_MB = 2;

/**
 * The status bar's source for a live or demo session: the states the session's thread reports (connection,
 * listener, fill) and the commits it made, so the panes read again what changed (the TUI's ChangeHub subscribes).
 */
export class SessionSource extends MonitorStatusStore {
  private readonly changeWatchers = new Set<(tables: readonly CacheTopic[] | null) => void>();

  subscribeCacheChanges = (onChange: (tables: readonly CacheTopic[] | null) => void): (() => void) => {
    this.changeWatchers.add(onChange);
    return () => this.changeWatchers.delete(onChange);
  };

  /** Tables another connection of this process committed to; null: any table (another process committed). */
  announce(tables: readonly CacheTopic[] | null): void {
    for (const watcher of this.changeWatchers) watcher(tables);
  }
}

export interface SessionThread {
  /** The listener's address, when the session runs one that started. */
  listenerUrl: string | null;
  /** `r` in the TUI: a full sync pass now. */
  refresh(): void;
  /** Stops the sync, the fill, the listener and the alerts, and closes the thread's cache connection. */
  close(): Promise<void>;
}

/**
 * Starts the session's network half on a worker thread (worker.ts), reporting into `source` and setting the
 * screen's `clock` by the service's answers there; resolves once
 * it runs (its listener up, or down with an alert). A thread that cannot start rejects with its reason, and is gone.
 */
export async function startSessionThread(
  start: Omit<SessionStart, 'type'>,
  source: SessionSource,
  clock: ServiceClock,
): Promise<SessionThread> {
  const worker: Worker = startModuleWorker('session/worker', {
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  });
  const exited = new Promise<void>((done) => worker.once('exit', () => done()));
  let running = true;
  worker.once('exit', () => {
    running = false;
  });
  worker.on('message', (message: FromSession) => {
    if (message.type === 'status') source.update((s) => ({ ...s, ...message.status }));
    else if (message.type === 'changes') source.announce(message.tables);
    else if (message.type === 'external') source.announce(null);
    else if (message.type === 'clock') clock.follow(message.offsetMs);
  });
  // a failure of the thread after it started (a bug): the status bar says the sync stopped, the screen stays
  worker.on('error', (error) => {
    const connection: MonitorStatus['connection'] = {
      ...source.getStatus().connection,
      state: 'unreachable',
      message: `the sync stopped: ${error.message}`,
    };
    source.update((s) => ({ ...s, connection }));
  });
  const close = async () => {
    if (running) worker.postMessage({ type: 'close' } satisfies ToSession);
    await exited;
  };
  try {
    const started = await askWorker<FromSession>(
      worker,
      "the session's thread",
      { type: 'start', ...start } satisfies ToSession,
      'started',
      (reply) => new Error(reply.type === 'failed' ? reply.message : 'the session did not start'),
    );
    return {
      listenerUrl: started.type === 'started' ? (started.listener?.url ?? null) : null,
      refresh: () => {
        if (running) worker.postMessage({ type: 'refresh' } satisfies ToSession);
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
