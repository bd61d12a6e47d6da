import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { INBOX_ALERT_RULES } from '../alerts/kill-alert.js';
import type { Notify } from '../alerts/notifier.js';
import { rejectedWebhookAlert } from '../alerts/rejected-webhook-alert.js';
import { type Cache, type InboxEntry, type IntakeOutcome, shortBusyWrites, writeWhenFree } from '../cache/index.js';
import type { InsuranceEvent } from '../contract/events.js';
import { verifySignature } from '../domain/signature.js';
import { MAX_BODY_BYTES, readBody } from './body.js';
import { ConnectionGuard, MAX_BODY_BYTES_IN_FLIGHT } from './connection-guard.js';
import { COMMIT_DEADLINE_MS, GroupCommit } from './group-commit.js';
import { KillNotifier, type KillNotifierOptions } from './kill-notifier.js';
import { parseDelivery } from './parse-delivery.js';
import { describeRequest, RefusalLog, refusedRequest } from './refusal-log.js';
import { RefusalRecorder } from './refusal-recorder.js';
import { replayReason } from './replay.js';
import { walSync } from './wal-sync.js';

export interface ListenerOptions {
  /** The cache the inbox writes to (WAL mode); each group commit is fsynced before it is acknowledged. */
  cache: Cache;
  /** Every secret that may sign (current and previous, for rotation); any match accepts. */
  secrets: readonly string[];
  host?: string;
  port?: number;
  /**
   * Desktop notification for kill signals and a listener refusing (listener-refusing-alert.ts); null turns them off
   * (`--no-notify`), and the kills taken in meanwhile count as notified: none pops up later.
   */
  notify?: Notify | null;
  /** Each kill alert, and a refusing alert, to the config's notify command (kill-notifier.ts); none when absent. */
  forward?: KillNotifierOptions['forward'];
  /** One line per event or failure; never given a secret or a body. */
  log?: (line: string) => void;
  now?: () => Date;
  /**
   * Far below Node's defaults (60 s for headers, 300 s a request): a slow sender cannot hold sockets open. 10 s a
   * request: the service gives up on a delivery after 8 s (spec 6.2), so a request still arriving then is no
   * delivery anyone waits for.
   */
  timeouts?: { headersMs?: number; requestMs?: number; keepAliveMs?: number };
}

export interface ListenerCounts {
  accepted: number;
  duplicates: number;
  rejected: number;
  notified: number;
  notifyFailures: number;
}

export interface WebhookListener {
  /** `http://HOST:PORT/`, the address to register with the service. */
  url: string;
  counts: Readonly<ListenerCounts>;
  commits: GroupCommit['stats'];
  /** Called after every change of the counts; returns the unsubscribe function. */
  subscribe(onChange: () => void): () => void;
  /** Stops accepting, answers what is in flight, commits it, then resolves. */
  close(): Promise<void>;
}

const JSON_HEADERS = { 'content-type': 'application/json' };
/**
 * How long stopping waits for the kill notifications under way: notify-send returns in milliseconds; one that
 * hangs longer is not marked, and is shown again at the next start rather than lost.
 */
const NOTIFY_WAIT_ON_CLOSE_MS = 5_000;
/** At most one log line this often about connections dropped under a flood (each drop would be hundreds). */
const DROP_LOG_EVERY_MS = 10_000;

/**
 * The webhook listener (spec 6.2-6.5): node:http so the signature is checked over the exact bytes before anything
 * parses them. Order of refusal: path 404, method 405, size 413, signature 401 (logged and kept without the body,
 * refusal-log.ts, refusal-recorder.ts), then a signed request that is not the contract 400 (kept, with an alert), then
 * a replay 409 (replay.ts); what passes is committed in a group and only then answered 200. Each kill is notified
 * once after its commit; at start, the kills a crash kept from being notified are (kill-notifier.ts).
 */
export async function startListener(options: ListenerOptions): Promise<WebhookListener> {
  const { cache, secrets, log = () => {}, now = () => new Date() } = options;
  // an empty secret would let anyone sign
  if (secrets.length === 0 || secrets.some((secret) => secret.length === 0))
    throw new Error('the webhook listener needs at least one secret, and no empty one');
  const counts: ListenerCounts = { accepted: 0, duplicates: 0, rejected: 0, notified: 0, notifyFailures: 0 };
  const watchers = new Set<() => void>();
  const changed = () => {
    for (const watcher of watchers) watcher();
  };
  const wal = walSync(cache.walFile);
  // at most so many connections and so many bytes of unfinished bodies; when full, the slowest sender goes
  let droppedLogged = 0;
  let lastDropLog = Number.NEGATIVE_INFINITY;
  const guard = new ConnectionGuard({
    onDrop(why) {
      // a flood drops hundreds a second: one line every DROP_LOG_EVERY_MS says it is happening and how much
      if (Date.now() - lastDropLog < DROP_LOG_EVERY_MS) return;
      lastDropLog = Date.now();
      const full =
        why === 'connections'
          ? `${guard.connectionLimit} connections`
          : `${MAX_BODY_BYTES_IN_FLIGHT / 1024 / 1024} MiB of unfinished bodies`;
      log(`${guard.dropped - droppedLogged} slow connection(s) dropped to make room (${full})`);
      droppedLogged = guard.dropped;
    },
  });
  // every write of the listener waits for another process's lock from a timer, never inside SQLite (cache/db/busy-writes.ts)
  const write = shortBusyWrites(cache);
  const kills = new KillNotifier({
    cache,
    notify: options.notify ?? null,
    forward: options.forward,
    write,
    log,
    onResult(shown) {
      if (shown) counts.notified++;
      else counts.notifyFailures++;
      changed();
    },
  });
  // refused deliveries: a line at most a second of each kind, and kept (without bodies) for status and the screen
  const signatureLines = new RefusalLog(log);
  const replayLines = new RefusalLog(log);
  const refusals = new RefusalRecorder({ cache, write, log, raised: () => kills.notifyRefusing() });
  const commits = new GroupCommit(
    (entries) => write(() => cache.inbox.intake(entries, INBOX_ALERT_RULES)),
    wal.sync,
    (entries, outcomes) => afterCommit(entries, outcomes),
  );

  function afterCommit(entries: InboxEntry[], outcomes: IntakeOutcome[]): void {
    const picks: string[] = [];
    for (const [i, entry] of entries.entries()) {
      const stored = outcomes[i] === 'stored';
      if (stored) counts.accepted++;
      else counts.duplicates++;
      log(`${stored ? 'stored' : 'duplicate'} ${entry.eventType} ${entry.eventId}`);
      if (stored && entry.eventType.startsWith('insurance.')) picks.push((entry.event as InsuranceEvent).trade.pick_id);
    }
    // a kill with its addons' legs, or an addon that came after its parent's kill: their alerts not yet shown
    kills.notifyAbout(picks);
    changed();
  }

  function refuse(res: ServerResponse, status: number, error: string, headers: Record<string, string> = {}): void {
    res.writeHead(status, { ...JSON_HEADERS, ...headers }).end(JSON.stringify({ error }));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // the service's 8 s run from when it sent the request: the commit's deadline counts from its arrival
    const deadline = Date.now() + COMMIT_DEADLINE_MS;
    // a connection that carried a signed delivery is the service's: kept over slow strangers (connection-guard.ts)
    let signedDelivery = false;
    res.on('finish', () => guard.answered(req.socket, signedDelivery));
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/') return refuse(res, 404, 'not found: deliveries go to /');
    if (req.method !== 'POST') return refuse(res, 405, 'method not allowed', { allow: 'POST' });
    const body = await readBody(req, MAX_BODY_BYTES, (bytes) => guard.hold(req.socket, bytes));
    guard.bodyRead(req.socket, body.kind === 'body');
    if (body.kind === 'aborted') return;
    if (body.kind === 'too-large') {
      counts.rejected++;
      changed();
      // answer at once, then drop the connection rather than read the rest
      res.on('finish', () => setTimeout(() => req.socket.destroy(), 200).unref());
      req.resume();
      return refuse(res, 413, 'body over 1 MiB', { connection: 'close' });
    }
    const signature = req.headers['x-svc-signature'];
    if (!verifySignature(secrets, body.bytes, typeof signature === 'string' ? signature : undefined)) {
      counts.rejected++;
      changed();
      const who = refusedRequest(req);
      signatureLines.refused(`refused a delivery ${describeRequest(who)}: no configured secret matches`);
      refusals.record({ cause: 'signature', receivedAt: now().toISOString(), ...who });
      return refuse(res, 401, 'signature missing or wrong');
    }
    signedDelivery = true;
    const receivedAt = now().toISOString();
    const parsed = parseDelivery(req.headers, body.bytes, receivedAt);
    if (!parsed.ok) {
      counts.rejected++;
      changed();
      keepRejected(req, body.bytes, receivedAt, parsed.reason, deadline);
      return refuse(res, 400, parsed.reason);
    }
    // signed right, but older than any retry of the service's: a captured delivery replayed (replay.ts). 409, not
    // 400: the body is the contract, and it is not kept as a rejected webhook
    const replay = replayReason(parsed.entry.event, Date.parse(receivedAt));
    if (replay) {
      counts.rejected++;
      changed();
      const who = refusedRequest(req);
      replayLines.refused(`refused as a replay: ${replay} ${describeRequest(who)}`);
      refusals.record({ cause: 'replay', receivedAt, ...who });
      return refuse(res, 409, `refused as a replay: ${replay}`);
    }
    let outcome: IntakeOutcome;
    try {
      outcome = await commits.submit(parsed.entry, deadline);
    } catch (error) {
      log(`inbox commit failed: ${error instanceof Error ? error.message : String(error)}`);
      return refuse(res, 503, 'could not store the event; retry');
    }
    res.writeHead(200, JSON_HEADERS).end(JSON.stringify({ status: outcome }));
  }

  function keepRejected(req: IncomingMessage, bytes: Buffer, receivedAt: string, reason: string, deadline: number) {
    const text = (name: string) => {
      const value = req.headers[name];
      return typeof value === 'string' ? value.slice(0, 200) : undefined;
    };
    const rejected = {
      reason,
      eventType: text('x-svc-event'),
      eventId: text('x-svc-event-id'),
      deliveryId: text('x-svc-delivery'),
      receivedAt,
      body: bytes,
    };
    // kept now when the lock is free (before the 400 goes out), else from a timer once it is
    const alert = rejectedWebhookAlert(rejected);
    writeWhenFree(write, () => cache.inbox.reject(rejected, alert), deadline).then(
      () => log(`rejected ${rejected.eventType ?? 'event'}: ${reason}`),
      (error: unknown) =>
        log(`could not keep a rejected webhook: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  const timeouts = options.timeouts ?? {};
  const server = createServer(
    {
      headersTimeout: timeouts.headersMs ?? 5_000,
      requestTimeout: timeouts.requestMs ?? 10_000,
      keepAliveTimeout: timeouts.keepAliveMs ?? 5_000,
      // the timeouts above are only enforced when this check runs (Node's default is every 30 s)
      connectionsCheckingInterval: 500,
      maxHeaderSize: 16 * 1024,
    },
    (req, res) => {
      handle(req, res).catch((error: unknown) => {
        log(`listener error: ${error instanceof Error ? error.message : String(error)}`);
        if (!res.headersSent) refuse(res, 500, 'internal error');
        else res.destroy();
      });
    },
  );
  server.on('connection', (socket: Socket) => guard.admit(socket));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8788, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // the kills a crash kept from being shown (committed and acknowledged, the notifier not yet returned)
  kills.notifyPending();
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}/`,
    counts,
    commits: commits.stats,
    subscribe(onChange) {
      watchers.add(onChange);
      return () => watchers.delete(onChange);
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const force = setTimeout(() => server.closeAllConnections(), 10_000);
      await closed;
      clearTimeout(force);
      await commits.idle();
      signatureLines.close();
      replayLines.close();
      await refusals.close();
      await kills.close(NOTIFY_WAIT_ON_CLOSE_MS);
      await wal.close();
    },
  };
}
