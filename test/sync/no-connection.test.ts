import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Cache, openCache } from '../../src/cache/index.js';
import { ApiClient } from '../../src/client/api-client.js';
import { SyncEngine } from '../../src/sync/sync-engine.js';
import { freePort } from '../helpers/listener-harness.js';

/**
 * `sync --once` against a base URL where nothing listens: the first stream's retries say so, and the ten after it are
 * not tried (each waited out the same retries: 24 s before the command could say the service was down). A service
 * that answers, even only with errors, has every stream tried.
 */
const STREAMS = [
  'cities',
  'current',
  'forecasts',
  'no24',
  'yescore',
  'svc-max-picks',
  'fusion-locks',
  'metar',
  'mkta-buckets',
  'mktb-buckets',
  'daily',
];
const root = mkdtempSync(join(tmpdir(), 'svc-no-connection-'));
const caches: Cache[] = [];
afterAll(() => {
  for (const cache of caches) cache.close();
  rmSync(root, { recursive: true, force: true });
});
const cacheAt = (name: string) => {
  const cache = openCache(join(root, name));
  caches.push(cache);
  return cache;
};
const fastRetries = { attempts: 3, baseMs: 1, capMs: 2 };

describe('a pass of every stream', () => {
  it('stops asking after the first stream could not connect, and records each stream failed', async () => {
    const cache = cacheAt('refused.db');
    const client = new ApiClient({ baseUrl: `http://127.0.0.1:${await freePort()}`, apiKey: 'k', retry: fastRetries });
    const summary = await new SyncEngine({ client, cache }).runOnce();

    expect(summary.errors.map((e) => e.stream)).toEqual(STREAMS);
    expect(summary.errors[0]).toEqual({
      stream: 'cities',
      kind: 'unreachable',
      noConnection: true,
      error: 'GET /cities: no answer after 3 attempts (last: ECONNREFUSED)',
    });
    for (const error of summary.errors.slice(1))
      expect(error).toEqual({
        stream: error.stream,
        kind: 'unreachable',
        error: 'not tried: cities could not connect to the service',
      });
    // the status bar's record: every stream failed this pass
    expect(
      cache.streams
        .states()
        .filter((s) => s.last_error !== null)
        .map((s) => s.stream),
    ).toEqual([...STREAMS].sort());
  });

  it('tries every stream when the service answers, even if only with errors', async () => {
    const paths: string[] = [];
    const server = createServer((request, response) => {
      paths.push(new URL(request.url ?? '/', 'http://x').pathname);
      response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"down"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = new ApiClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'k', retry: fastRetries });
      const summary = await new SyncEngine({ client, cache: cacheAt('503.db') }).runOnce();
      expect(summary.errors.map((e) => e.stream)).toEqual(STREAMS);
      for (const error of summary.errors) {
        expect(error.kind, error.stream).toBe('unreachable');
        expect(error.error, error.stream).toMatch(/no answer after 3 attempts \(last: HTTP 503\)$/);
        expect(error.noConnection, error.stream).toBeUndefined();
      }
      // every stream made its three attempts
      expect(paths.length).toBeGreaterThanOrEqual(33);
      expect(paths).toContain('/api/public/v1/fusion-locks');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
