import { connect, createServer, type Socket } from 'node:net';

export interface DelayProxy {
  /** The service's address with the proxy's port: same path, every byte delayed. */
  url: string;
  close(): Promise<void>;
}

/**
 * A TCP proxy on loopback that holds every chunk `delayMs` in each direction, in order: a link with that one-way
 * latency and no bandwidth limit, so a request's round trip costs at least twice the delay, as it does for a user
 * draining over a network.
 */
export function startDelayProxy(target: string, delayMs: number): Promise<DelayProxy> {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  const relay = (from: Socket, to: Socket) => {
    from.on('data', (chunk) => {
      setTimeout(() => {
        if (!to.destroyed) to.write(chunk);
      }, delayMs);
    });
    from.on('end', () => setTimeout(() => to.end(), delayMs));
    from.on('error', () => to.destroy());
    from.on('close', () => setTimeout(() => to.destroy(), delayMs));
  };
  const server = createServer((client) => {
    const service = connect(Number(upstream.port), upstream.hostname);
    for (const s of [client, service]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.setNoDelay(true);
    }
    relay(client, service);
    relay(service, client);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const url = new URL(target);
      url.port = String(port);
      resolve({
        url: url.toString().replace(/\/$/, ''),
        close: () =>
          new Promise((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
