import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PATIENCE_MS } from './patience.js';

export interface Received {
  /** the request's headers, plus `x-svc-path`: the path it was sent to */
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** performance.now() when the request's body had arrived */
  at: number;
}

export type Responder = (request: Received, index: number, response: ServerResponse) => void;

export const answer =
  (status: number, headers: Record<string, string> = {}): Responder =>
  (_request, _index, response) => {
    response.writeHead(status, headers).end();
  };

/** A real webhook receiver on loopback that records every request and answers as the test says. */
export async function startReceiver(responder: Responder = answer(200)) {
  const received: Received[] = [];
  let respond = responder;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers = { ...request.headers, 'x-svc-path': request.url };
      const entry = { headers, body: Buffer.concat(chunks), at: performance.now() };
      received.push(entry);
      respond(entry, received.length - 1, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    respondWith(next: Responder) {
      respond = next;
    },
    /** Resolves once `count` requests have arrived (or rejects after `timeoutMs`). */
    async waitFor(count: number, timeoutMs = PATIENCE_MS): Promise<Received[]> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`only ${received.length} of ${count} requests arrived`);
        await new Promise((r) => setTimeout(r, 5));
      }
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
