import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Notify } from '../alerts/notifier.js';
import { killNotification } from '../alerts/notifier.js';
import type { Cache } from '../cache/cache.js';
import type { InboxEntry, IntakeOutcome } from '../cache/inbox.js';
import type { InsuranceEvent } from '../contract/events.js';
import type { KillSignal } from '../domain/kill-signal.js';
import { verifySignature } from '../domain/signature.js';
import { readBody } from './body.js';
import { shortBusyWrites, writeWhenFree } from './busy.js';
import { COMMIT_DEADLINE_MS, GroupCommit } from './group-commit.js';
import { parseDelivery } from './parse-delivery.js';
import { walSync } from './wal-sync.js';

export interface ListenerOptions {
  /** The cache the inbox writes to (WAL mode); each group commit is fsynced before it is acknowledged. */
  cache: Cache;
  /** Every secret that may sign (current and previous, for rotation); any match accepts. */
  secrets: readonly string[];
  host?: string;
  port?: number;
  /** Desktop notification for kill signals; null turns them off (`--no-notify`). */
  notify?: Notify | null;
  /** One line per event or failure; never given a secret or a body. */
  log?: (line: string) => void;
  now?: () => Date;
  /** Far below Node's defaults (60 s for headers, 300 s a request): a slow sender cannot hold sockets open. */
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
 * The webhook listener (spec 6.2-6.5): node:http so the signature is checked over the exact bytes before anything
 * parses them. Order of refusal: path 404, method 405, size 413, signature 401, then a signed request that is not
 * the contract 400 (kept, with an alert); what passes is committed in a group and only then answered 200.
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
  const wal = walSync(cache.db);
  // every write of the listener waits for another process's lock from a timer, never inside SQLite (busy.ts)
  const write = shortBusyWrites(cache.db);
  const commits = new GroupCommit(
    (entries) => write(() => cache.intakeWebhooks(entries)),
    wal.sync,
    (entries, outcomes) => afterCommit(entries, outcomes),
  );

  function afterCommit(entries: InboxEntry[], outcomes: IntakeOutcome[]): void {
    for (const [i, entry] of entries.entries()) {
      const stored = outcomes[i] === 'stored';
      if (stored) counts.accepted++;
      else counts.duplicates++;
      log(`${stored ? 'stored' : 'duplicate'} ${entry.eventType} ${entry.eventId}`);
      if (!stored || !entry.eventType.startsWith('insurance.')) continue;
      // a kill with its addons' legs, or an addon that came after its parent's kill
      const notice = cache.inbox.killNotice(entry.event as InsuranceEvent);
      if (notice) notifyKill(notice);
    }
    changed();
  }

  function notifyKill(signal: KillSignal): void {
    if (!options.notify) return;
    options.notify(killNotification(signal)).then(
      () => {
        counts.notified++;
        changed();
      },
      (error: unknown) => {
        // the event and its alert are committed already; a missing daemon costs only the popup
        counts.notifyFailures++;
        log(`desktop notification failed: ${error instanceof Error ? error.message : String(error)}`);
        changed();
      },
    );
  }

  function refuse(res: ServerResponse, status: number, error: string, headers: Record<string, string> = {}): void {
    res.writeHead(status, { ...JSON_HEADERS, ...headers }).end(JSON.stringify({ error }));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // the service's 8 s run from when it sent the request: the commit's deadline counts from its arrival
    const deadline = Date.now() + COMMIT_DEADLINE_MS;
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/') return refuse(res, 404, 'not found: deliveries go to /');
    if (req.method !== 'POST') return refuse(res, 405, 'method not allowed', { allow: 'POST' });
    const body = await readBody(req);
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
      return refuse(res, 401, 'signature missing or wrong');
    }
    const receivedAt = now().toISOString();
    const parsed = parseDelivery(req.headers, body.bytes, receivedAt);
    if (!parsed.ok) {
      counts.rejected++;
      changed();
      keepRejected(req, body.bytes, receivedAt, parsed.reason, deadline);
      return refuse(res, 400, parsed.reason);
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
    writeWhenFree(write, () => cache.rejectWebhook(rejected, `webhook rejected (400): ${reason}`), deadline).then(
      () => log(`rejected ${rejected.eventType ?? 'event'}: ${reason}`),
      (error: unknown) =>
        log(`could not keep a rejected webhook: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  const timeouts = options.timeouts ?? {};
  const server = createServer(
    {
      headersTimeout: timeouts.headersMs ?? 5_000,
      requestTimeout: timeouts.requestMs ?? 15_000,
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
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8788, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
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
      await wal.close();
    },
  };
}
