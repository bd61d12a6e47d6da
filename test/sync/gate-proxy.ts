import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A pass-through proxy in front of the real reference service that can hold answers: a held request is forwarded
 * at once (its answer is what the service held at that moment) and answered only on release, so a test decides when
 * a stream's pass is "running". It counts requests, and the most in flight at once, per path; `down` drops every
 * connection, as a service that cannot be reached. A request that has arrived is not yet answered by the service:
 * `waitForHeld` waits until the service's answer is in the proxy's hands, so what changes at the service from then
 * on is surely not in it.
 */
export async function startGateProxy(targetBaseUrl: string) {
  const target = new URL(targetBaseUrl);
  const seen: string[] = [];
  /** The paths whose answer the service gave and a gate holds (or held). */
  const held: string[] = [];
  /** Called at every arrival and every held answer: the waits below look at the counts again. */
  const changed = new Set<() => void>();
  const note = () => {
    for (const listener of [...changed]) listener();
  };
  const inFlight = new Map<string, number>();
  const mostInFlight = new Map<string, number>();
  const gates: { match: (path: string) => boolean; open: Promise<void> }[] = [];
  let down = false;

  const server = createServer(async (request, response) => {
    const path = (request.url ?? '/').slice(target.pathname.length);
    if (down) return void request.socket.destroy();
    seen.push(path);
    note();
    const now = (inFlight.get(path) ?? 0) + 1;
    inFlight.set(path, now);
    mostInFlight.set(path, Math.max(now, mostInFlight.get(path) ?? 0));
    try {
      const headers = new Headers();
      for (const name of ['x-api-key', 'authorization']) {
        const value = request.headers[name];
        if (typeof value === 'string') headers.set(name, value);
      }
      const upstream = await fetch(`${target.origin}${request.url}`, { headers });
      const text = await upstream.text();
      const gated = gates.filter((gate) => gate.match(path));
      if (gated.length > 0) {
        held.push(path);
        note();
      }
      for (const gate of gated) await gate.open;
      response
        .writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' })
        .end(text);
    } finally {
      inFlight.set(path, (inFlight.get(path) ?? 1) - 1);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = (server.address() as AddressInfo) ?? {};
  const count = (match: (path: string) => boolean) => seen.filter(match).length;
  /** Resolves once `reached()` is true, looking again at each arrival and each held answer. */
  const until = (reached: () => boolean): Promise<void> =>
    new Promise((resolve) => {
      const look = () => {
        if (!reached()) return;
        changed.delete(look);
        resolve();
      };
      changed.add(look);
      look();
    });
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    seen,
    count,
    /** The most requests for `path` that were in flight at once. */
    mostInFlight: (path: string) => mostInFlight.get(path) ?? 0,
    /** Holds the answers of matching requests until the returned function is called. */
    hold(match: (path: string) => boolean): () => void {
      let release: () => void = () => undefined;
      const open = new Promise<void>((resolve) => {
        release = resolve;
      });
      gates.push({ match, open });
      return () => release();
    },
    /** Resolves once `n` matching requests have arrived (the service may not have answered them yet). */
    waitFor: (match: (path: string) => boolean, n = 1): Promise<void> => until(() => count(match) >= n),
    /** Resolves once the service's answers to `n` matching requests are held by a gate. */
    waitForHeld: (match: (path: string) => boolean, n = 1): Promise<void> =>
      until(() => held.filter(match).length >= n),
    setDown(value: boolean) {
      down = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type GateProxy = Awaited<ReturnType<typeof startGateProxy>>;
