import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A pass-through proxy in front of the real reference service that can hold answers: a held request is forwarded
 * at once (its answer is what the service held at that moment) and answered only on release, so a test decides when
 * a stream's pass is "running". It counts requests, and the most in flight at once, per path; `down` drops every
 * connection, as a service that cannot be reached.
 */
export async function startGateProxy(targetBaseUrl: string) {
  const target = new URL(targetBaseUrl);
  const seen: string[] = [];
  const inFlight = new Map<string, number>();
  const mostInFlight = new Map<string, number>();
  const gates: { match: (path: string) => boolean; open: Promise<void> }[] = [];
  let down = false;

  const server = createServer(async (request, response) => {
    const path = (request.url ?? '/').slice(target.pathname.length);
    if (down) return void request.socket.destroy();
    seen.push(path);
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
      for (const gate of gates) if (gate.match(path)) await gate.open;
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
    /** Resolves once `n` matching requests have arrived. */
    async waitFor(match: (path: string) => boolean, n = 1): Promise<void> {
      for (let i = 0; count(match) < n; i++) {
        if (i > 3000) throw new Error(`fewer than ${n} matching requests in 30 s; seen ${seen.slice(-5).join(' ')}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
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
