import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Agent, request } from 'undici';
import { type Cache, openCache } from '../../src/cache/index.js';
import { type ListenerOptions, startListener, type WebhookListener } from '../../src/receiver/listener.js';
import { fixtureNow } from './fixture-clock.js';
import { PATIENCE_MS } from './patience.js';
import { type Delivery, PRIMARY_SECRET } from './webhook-events.js';

/** The receiver's tables a delivery can leave a row in. */
export const INBOX_TABLES = [
  'webhook_events',
  'rejected_webhooks',
  'insurance_picks',
  'edge_trades',
  'alerts',
] as const;

export interface TempListener {
  dir: string;
  dbFile: string;
  cache: Cache;
  listener: WebhookListener;
  url: string;
  port: number;
  logs: string[];
  /** A separate read-only connection to the cache file: what another process would see. */
  inspect: Inspector;
  close(): Promise<void>;
}

/** startListener on a free loopback port over a fresh durable cache file in a temp dir. */
export async function startTempListener(options: Partial<ListenerOptions> = {}): Promise<TempListener> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-listener-'));
  const dbFile = join(dir, 'cache.db');
  const cache = openCache(dbFile);
  const logs: string[] = [];
  const listener = await startListener({
    cache,
    secrets: [PRIMARY_SECRET],
    host: '127.0.0.1',
    port: 0,
    notify: null,
    log: (line) => logs.push(line),
    // the fixtures' day, not the host's: else they are replays (fixture-clock.ts)
    now: fixtureNow,
    ...options,
  });
  const inspect = new Inspector(dbFile);
  return {
    dir,
    dbFile,
    cache,
    listener,
    url: listener.url,
    port: Number(new URL(listener.url).port),
    logs,
    inspect,
    async close() {
      await listener.close();
      inspect.close();
      cache.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Reads the cache file through its own connection (never through the code under test). */
export class Inspector {
  readonly db: Database.Database;

  constructor(file: string) {
    this.db = new Database(file, { readonly: true, fileMustExist: true });
  }

  counts(): Record<(typeof INBOX_TABLES)[number], number> {
    return Object.fromEntries(
      INBOX_TABLES.map((t) => [t, this.db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number]),
    ) as Record<(typeof INBOX_TABLES)[number], number>;
  }

  /** `identity`: what makes the event unique, its replay key or else its event id (src/receiver/identity.ts). */
  events(): { event_id: string; identity: string; event_type: string; delivery_id: string; body: string }[] {
    return this.db
      .prepare(
        `SELECT event_id, coalesce(replay_key, 'event:' || event_id) AS identity, event_type, delivery_id, body
         FROM webhook_events ORDER BY seq`,
      )
      .all() as { event_id: string; identity: string; event_type: string; delivery_id: string; body: string }[];
  }

  rejected(): { reason: string; event_type: string | null; event_id: string | null; body: Buffer }[] {
    return this.db.prepare('SELECT reason, event_type, event_id, body FROM rejected_webhooks ORDER BY id').all() as {
      reason: string;
      event_type: string | null;
      event_id: string | null;
      body: Buffer;
    }[];
  }

  alerts(): { severity: string; kind: string; ref: string | null; city_id: string | null; message: string }[] {
    return this.db.prepare('SELECT severity, kind, ref, city_id, message FROM alerts ORDER BY id').all() as {
      severity: string;
      kind: string;
      ref: string | null;
      city_id: string | null;
      message: string;
    }[];
  }

  close(): void {
    this.db.close();
  }
}

export interface Answer {
  status: number;
  body: string;
  json: any;
}

/** One HTTP client for a test file: keep-alive connections, as the service's dispatcher uses. */
export function httpClient(connections = 128) {
  const agent = new Agent({ connections, keepAliveTimeout: 1_000, pipelining: 0 });
  return {
    async post(
      url: string,
      delivery: Pick<Delivery, 'body' | 'headers'> | { body: Buffer | string; headers: Record<string, string> },
    ): Promise<Answer> {
      const response = await request(url, {
        method: 'POST',
        headers: delivery.headers,
        body: delivery.body,
        dispatcher: agent,
      });
      const body = await response.body.text();
      let json: any;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      return { status: response.statusCode, body, json };
    },
    async send(url: string, method: string, headers: Record<string, string>, body?: string | Buffer): Promise<Answer> {
      const response = await request(url, { method: method as 'POST', headers, body, dispatcher: agent });
      const text = await response.body.text();
      return { status: response.statusCode, body: text, json: undefined };
    },
    close: () => agent.close(),
  };
}

/** Runs `fn` over `items` with at most `limit` in flight; results in input order. */
export async function pool<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>) {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export interface RawOutcome {
  /** status code of the first response, if one came */
  status?: number;
  /** everything the server sent */
  data: string;
  /** the connection ended (by the server, or after `end`) */
  closed: boolean;
  error?: string;
}

export interface RawStep {
  bytes?: string | Buffer;
  /** wait this long before the next step (ms) */
  pauseMs?: number;
}

/**
 * A raw TCP exchange for what fetch cannot express: the steps are written in order, then the socket is half-closed
 * (`end`), destroyed (`destroy`) or left open until the server closes it or `waitMs` passes. Resolves with what the
 * server answered; never rejects.
 */
export function rawExchange(
  port: number,
  steps: RawStep[],
  opts: { after?: 'end' | 'destroy' | 'open'; waitMs?: number; stopOnResponse?: boolean } = {},
): Promise<RawOutcome> {
  const { after = 'open', waitMs = 5_000 } = opts;
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    let done = false;
    let error: string | undefined;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const match = data.match(/^HTTP\/1\.[01] (\d{3})/);
      resolve({ status: match ? Number(match[1]) : undefined, data, closed, error });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (d: Buffer) => {
      data += d.toString('latin1');
      if (opts.stopOnResponse && /\r\n\r\n/.test(data)) finish(false);
    });
    socket.on('close', () => finish(true));
    socket.on('error', (e) => {
      error = e.message;
    });
    socket.on('connect', async () => {
      for (const step of steps) {
        if (done || socket.destroyed) return;
        if (step.bytes !== undefined) {
          const ok = socket.write(step.bytes);
          if (!ok) await new Promise((r) => socket.once('drain', r).once('close', r));
        }
        if (step.pauseMs) await new Promise((r) => setTimeout(r, step.pauseMs));
      }
      if (done || socket.destroyed) return;
      if (after === 'end') socket.end();
      else if (after === 'destroy') finish(true);
    });
  });
}

/** A request head for rawExchange. */
export function head(
  method: string,
  path: string,
  headers: Record<string, string | number>,
  version = 'HTTP/1.1',
): string {
  const lines = [
    `${method} ${path} ${version}`,
    'Host: 127.0.0.1',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/**
 * A fake `notify-send` in its own folder: appends its arguments, one a line, then `--end--`, to `log`, in one write. Put the
 * folder first on PATH. The script uses shell builtins only, so PATH needs nothing else.
 */
export function fakeNotifySend(root: string): { bin: string; log: string; calls(): string[][] } {
  const bin = join(root, 'fake-bin');
  mkdirSync(bin, { recursive: true });
  const log = join(root, 'notify-send.log');
  const script = join(bin, 'notify-send');
  writeFileSync(
    script,
    // one printf, one append: calls running at once (a kill and a trader alert) do not interleave their lines
    `#!/bin/sh\nprintf '%s\\n' "$@" '--end--' >> '${log}'\n`,
  );
  chmodSync(script, 0o755);
  return {
    bin,
    log,
    calls() {
      if (!existsSync(log)) return [];
      const calls: string[][] = [];
      let current: string[] = [];
      for (const line of readFileSync(log, 'utf8').split('\n')) {
        if (line === '--end--') {
          calls.push(current);
          current = [];
        } else if (line !== '' || current.length > 0) current.push(line);
      }
      return calls;
    },
  };
}

/** Polls `check` until it returns a value other than undefined, or throws `what` after `timeoutMs`. */
export async function waitUntil<T>(what: string, check: () => T | undefined, timeoutMs = PATIENCE_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A temp folder with XDG dirs of its own, so a CLI child never sees the user's config or data. */
export function isolatedEnv(root: string): NodeJS.ProcessEnv {
  return {
    XDG_CONFIG_HOME: join(root, 'config'),
    XDG_DATA_HOME: join(root, 'data'),
    XDG_CACHE_HOME: join(root, 'cache-home'),
    XDG_STATE_HOME: join(root, 'state'),
    SVC_WEBHOOK_SECRET: undefined,
    SVC_API_KEY: undefined,
    SVC_BASE_URL: undefined,
    SVC_DB: undefined,
  };
}

/** A loopback port free a moment ago (for a child process that must be told its port up front). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
