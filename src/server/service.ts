import type { FastifyInstance } from 'fastify';
import { API_PREFIX, LIMITS } from '../contract/limits.js';
import { isoUtc } from '../domain/city-time.js';
import { DEFAULT_SEED, ServiceConfigError } from './errors.js';
import { ACCOUNT_PREFIX, buildApp } from './http/app.js';
import { AdminTokenError, adminTokenPath, loadAdminToken } from './store/admin-token.js';
import { ApiReads } from './store/api-reads.js';
import { lockDataDir } from './store/data-dir-lock.js';
import { KeyStore } from './store/keys.js';
import { type Db, openStore, setMeta } from './store/open-store.js';
import { WebhookStore } from './store/webhooks.js';
import { WorldStore } from './store/world-store.js';
import type { Resolver } from './webhooks/address-guard.js';
import { Dispatcher } from './webhooks/dispatcher.js';
import { loadCities, publicCity } from './world/cities.js';
import { World, WorldClock } from './world/world.js';

export interface ServiceOptions {
  dataDir: string;
  host?: string;
  port?: number;
  seed?: number;
  /** Simulated seconds per real second. */
  speed?: number;
  /** Simulated start instant (ms); defaults to where the data dir's world stopped, or now on a fresh one. */
  start?: number;
  apiKey?: string;
  /** `--admin-token`: the account pages' sign-in token; otherwise the one kept in `DIR/admin-token`. */
  adminToken?: string;
  /** `--allow-private-webhooks`: deliveries may go to private, loopback and link-local addresses. */
  allowPrivateWebhooks?: boolean;
  /** Hostname resolution for webhook targets (tests answer from a table). */
  resolve?: Resolver;
  rateLimitPerMinute?: number;
  /** How often the world catches up with its clock (real ms). */
  tickMs?: number;
  logLevel?: 'error' | 'warn' | 'info' | 'silent';
  /**
   * SQLite's page cache for the store, in MiB (better-sqlite3's 16 when not given). The demo's world keeps 4: a
   * 30-day store (180 MB) fills a 16 MB cache and keeps it resident, and the fill takes about as long with 4
   * (docs/benchmarks.md, issue 34).
   */
  storePageCacheMib?: number;
}

export interface RunningService {
  /** `http://HOST:PORT/api/public/v1` */
  baseUrl: string;
  /** `http://HOST:PORT/account/`: the account pages */
  accountUrl: string;
  /** Where the admin token is kept, unless `--admin-token` gave it. */
  adminTokenFile?: string;
  port: number;
  db: Db;
  world: World;
  clock: WorldClock;
  app: FastifyInstance;
  dispatcher: Dispatcher;
  close(): Promise<void>;
}

function adminTokenOf(opts: ServiceOptions): string {
  try {
    return loadAdminToken(opts.dataDir, opts.adminToken);
  } catch (error) {
    if (error instanceof AdminTokenError) throw new ServiceConfigError(error.message);
    throw error;
  }
}

/**
 * Takes the data dir (one server each), opens its store, brings the world up to its clock, and serves the v1
 * interface.
 */
export async function startService(opts: ServiceOptions): Promise<RunningService> {
  const lock = await lockDataDir(opts.dataDir);
  let db: Db | undefined;
  try {
    db = openStore(opts.dataDir, opts.storePageCacheMib);
    const cities = loadCities();
    const world = new World(new WorldStore(db), cities, opts.seed ?? DEFAULT_SEED);
    // an interrupted first fill counts as done up to where it aimed: a restart finishes it, and no --start before it
    const resumesAt = world.resumesAt();
    const start = opts.start ?? resumesAt ?? Date.now();
    if (resumesAt !== undefined && start < resumesAt) {
      throw new ServiceConfigError(
        `--start ${isoUtc(start)} is before this data dir's world (already at ${isoUtc(resumesAt)}); worlds do not run backwards`,
      );
    }
    if (resumesAt === undefined) world.initialise(start);
    else world.advanceTo(start);

    const keys = new KeyStore(db);
    if (opts.apiKey) keys.ensure(opts.apiKey);
    const adminToken = adminTokenOf(opts);
    const adminTokenFile = opts.adminToken === undefined ? adminTokenPath(opts.dataDir) : undefined;
    const webhooks = new WebhookStore(db);
    let dispatcher: Dispatcher | undefined;
    const clock = new WorldClock(start, opts.speed ?? 1);
    const app = await buildApp({
      // the world's present (DESIGN 4 "the monitor's clock"): every job before the processed instant has run, so
      // a row of an instant at or before the header's second is published (a job at exactly that instant is not yet)
      now: () => (world.processedUntil() ?? clock.now()) - 1,
      cities: cities.map(publicCity),
      reads: new ApiReads(db),
      keys,
      rateLimitPerMinute: opts.rateLimitPerMinute ?? LIMITS.rateLimitPerMinute,
      logLevel: opts.logLevel,
      pages: {
        keys,
        webhooks,
        adminToken,
        allowPrivateWebhooks: opts.allowPrivateWebhooks ?? false,
        resolve: opts.resolve,
        onQueued: () => dispatcher?.wake(),
      },
    });
    const host = opts.host ?? '127.0.0.1';
    await app.listen({ host, port: opts.port ?? 8787 });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : (opts.port ?? 8787);

    // admin commands (`server webhooks add`) read this to know whether private targets are allowed here
    setMeta(db, 'allow_private_webhooks', opts.allowPrivateWebhooks ? '1' : '0');
    dispatcher = new Dispatcher({
      store: webhooks,
      clock,
      allowPrivate: opts.allowPrivateWebhooks ?? false,
      resolve: opts.resolve,
      log: (line) => app.log.warn(line),
    });
    const running = dispatcher;
    running.start();

    const tick = setInterval(() => {
      try {
        if (world.advanceTo(clock.now()) > 0) running.wake();
      } catch (error) {
        app.log.error({ err: error }, 'the world could not advance');
      }
    }, opts.tickMs ?? 250);

    const shownHost = host.includes(':') ? `[${host}]` : host;
    const store = db;
    return {
      baseUrl: `http://${shownHost}:${port}${API_PREFIX}`,
      accountUrl: `http://${shownHost}:${port}${ACCOUNT_PREFIX}/`,
      adminTokenFile,
      port,
      db: store,
      world,
      clock,
      app,
      dispatcher: running,
      async close() {
        clearInterval(tick);
        await running.stop();
        await app.close();
        store.close();
        lock.release();
      },
    };
  } catch (error) {
    if (db?.open) db.close();
    lock.release();
    throw error;
  }
}
