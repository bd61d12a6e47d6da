import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does with one request. */
export type Fault = 'pass' | '503' | 'hang' | '429' | 'malformed' | 'bad-row';

export interface ProxiedRequest {
  path: string;
  index: number;
  fault: Fault;
}

/**
 * A proxy in front of the real reference service that injects faults per request: 5xx bursts, hung responses,
 * 429 with `Retry-After`, truncated JSON, and rows that break the contract. `plan` decides per request.
 */
export async function startFaultProxy(targetBaseUrl: string) {
  const target = new URL(targetBaseUrl);
  const requests: ProxiedRequest[] = [];
  let plan: (path: string, index: number) => Fault = () => 'pass';
  /** Rewrites the JSON body of passed-through answers (a row a real service might send), when set. */
  let rewrite: ((path: string, body: any) => unknown) | undefined;
  const hung = new Set<ServerResponse>();

  const forward = async (request: IncomingMessage) => {
    const headers = new Headers();
    for (const name of ['x-api-key', 'authorization']) {
      const value = request.headers[name];
      if (typeof value === 'string') headers.set(name, value);
    }
    const response = await fetch(`${target.origin}${request.url}`, { headers });
    return { status: response.status, headers: response.headers, text: await response.text() };
  };

  const server = createServer(async (request, response) => {
    const path = request.url ?? '/';
    const fault = plan(path, requests.length);
    requests.push({ path, index: requests.length, fault });
    if (fault === 'hang') {
      hung.add(response);
      return;
    }
    if (fault === '503')
      return void response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"upstream failure"}');
    if (fault === '429') {
      return void response
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' })
        .end('{"error":"slow down"}');
    }
    const upstream = await forward(request);
    let text = upstream.text;
    if (fault === 'malformed') text = text.slice(0, Math.floor(text.length / 2));
    if (fault === 'bad-row') text = breakFirstRow(text);
    if (fault === 'pass' && rewrite && upstream.status === 200) text = JSON.stringify(rewrite(path, JSON.parse(text)));
    response
      .writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' })
      .end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    requests,
    setPlan(next: (path: string, index: number) => Fault) {
      plan = next;
    },
    setRewrite(next: ((path: string, body: any) => unknown) | undefined) {
      rewrite = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hung) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Gives the first row of `data` (or `data` itself) a field of the wrong type: `city_id` becomes a number. */
function breakFirstRow(text: string): string {
  const body = JSON.parse(text) as { data: unknown };
  const row = Array.isArray(body.data) ? body.data[0] : body.data;
  if (row && typeof row === 'object') (row as Record<string, unknown>).city_id = 42;
  return JSON.stringify(body);
}
