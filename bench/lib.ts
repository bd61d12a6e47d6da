import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export const RESULTS = fileURLToPath(new URL('./results/', import.meta.url));

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
export const round1 = (v: number) => Math.round(v * 10) / 10;

/**
 * A process's resident memory now (VmRSS) and its high-water mark (VmHWM), in MB, from /proc: every thread of it (a
 * monitor's session thread and the demo's world too); null once it is gone.
 */
export function processMemoryMb(pid: number): { rss: number; hwm: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const mb = (key: string) => Number(status.match(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm'))?.[1] ?? 0) / 1024;
    return { rss: mb('VmRSS'), hwm: mb('VmHWM') };
  } catch {
    return null;
  }
}

/**
 * The resident memory of `pid` and every process under it (its children, theirs, ...), in MB: what a command costs
 * whatever it starts (a worker thread is in its process already; a child process, a notifier, are added). Null once
 * `pid` is gone.
 */
export function processTreeRssMb(pid: number): number | null {
  const root = processMemoryMb(pid);
  if (!root) return null;
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // the stat line is `pid (comm) state ppid ...`, and comm may hold spaces or parentheses: read after the last `)`
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  let total = root.rss;
  const queue = [...(children.get(pid) ?? [])];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    total += processMemoryMb(next)?.rss ?? 0;
    queue.push(...(children.get(next) ?? []));
  }
  return total;
}

export interface Spawned {
  url: string;
  stop(): Promise<void>;
}

/** Starts a fixture process and waits for its `ready URL` line. */
export function spawnReady(script: string, args: string[]): Promise<Spawned> {
  const path = fileURLToPath(new URL(`./fixtures/${script}`, import.meta.url));
  const child: ChildProcess = spawn(process.execPath, [path, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d) => {
      out += d;
      const url = out.match(/^ready (\S+)$/m)?.[1];
      if (url) {
        resolve({
          url,
          stop: () =>
            new Promise((done) => {
              child.once('close', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('close', (code) => reject(new Error(`${script} exited ${code} before it was ready`)));
  });
}

/** Runs a fixture process to its end and returns the JSON of its `ready {...}` line (its figures). */
export function runToResult<T>(script: string, args: string[]): Promise<T> {
  const path = fileURLToPath(new URL(`./fixtures/${script}`, import.meta.url));
  const child = spawn(process.execPath, [path, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d) => {
      out += d;
    });
    child.on('close', (code) => {
      const line = out.match(/^ready (.*)$/m)?.[1];
      if (code !== 0 || !line) reject(new Error(`${script} exited ${code}`));
      else resolve(JSON.parse(line) as T);
    });
  });
}

export interface Load {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  non2xx: number;
}

/** Loopback load from autocannon; a warm-up second is discarded. */
export async function load(
  url: string,
  opts: { connections: number; seconds: number; headers?: Record<string, string> },
): Promise<Load> {
  await autocannon({ url, connections: opts.connections, duration: 1, headers: opts.headers });
  const result = await autocannon({
    url,
    connections: opts.connections,
    duration: opts.seconds,
    headers: opts.headers,
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    non2xx: result.non2xx + result.errors + result.timeouts,
  };
}

export function writeResult(name: string, result: object): void {
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(
    `${RESULTS}${name}.json`,
    `${JSON.stringify({ name, measured_at: new Date().toISOString(), node: process.version, ...result }, null, 2)}\n`,
  );
}

/** The run with the median request rate. */
export function median(loads: Load[]): Load {
  return [...loads].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(loads.length / 2)] as Load;
}

export const ratio = (a: number, b: number): number => Math.round((a / b) * 1000) / 1000;

export interface Latency {
  requests: number;
  p50Ms: number;
  p95Ms: number;
  meanMs: number;
}

/**
 * Sequential keep-alive requests timed with performance.now(): sub-millisecond latencies autocannon rounds away.
 * `timeTo: 'first-byte'` stops each timing at the response's headers (a server that writes a page at once sends
 * them with its first byte); the body is still read. The first `warmup` requests are not timed.
 */
export async function sequentialLatency(
  url: string | ((i: number) => string),
  headers: Record<string, string>,
  requests: number,
  { timeTo = 'body', warmup = 50 }: { timeTo?: 'body' | 'first-byte'; warmup?: number } = {},
): Promise<Latency> {
  const { Pool } = await import('undici');
  // a function names each request's URL (a cursor of its own: the service reuses an answer asked for again)
  const urlOf = typeof url === 'string' ? () => url : url;
  const pool = new Pool(new URL(urlOf(0)).origin, { connections: 1 });
  const timings: number[] = [];
  try {
    for (let i = 0; i < requests + warmup; i++) {
      const { pathname, search } = new URL(urlOf(i));
      const path = `${pathname}${search}`;
      const started = performance.now();
      const response = await pool.request({ path, method: 'GET', headers });
      const firstByte = performance.now() - started;
      await response.body.arrayBuffer();
      if (response.statusCode !== 200) throw new Error(`${path} answered ${response.statusCode}`);
      if (i >= warmup) timings.push(timeTo === 'first-byte' ? firstByte : performance.now() - started);
    }
  } finally {
    await pool.close();
  }
  timings.sort((a, b) => a - b);
  const at = (q: number) => Math.round((timings[Math.floor(q * (timings.length - 1))] ?? 0) * 1000) / 1000;
  return {
    requests,
    p50Ms: at(0.5),
    p95Ms: at(0.95),
    meanMs: Math.round((timings.reduce((a, b) => a + b, 0) / timings.length) * 1000) / 1000,
  };
}

/** The mean of two rounds' p50, to the microsecond: interleaved rounds, so drift in load hits both sides alike. */
export const meanP50 = (a: Latency, b: Latency): number => Math.round(((a.p50Ms + b.p50Ms) / 2) * 1000) / 1000;
