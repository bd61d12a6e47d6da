import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { type RunningService, type ServiceOptions, startService } from '../../src/server/service.js';
import { SECOND_TEMPLATE_SEED, TEMPLATE_SEED, TEMPLATE_START } from './world-template.js';

export const TEST_KEY = 'test-key-0123456789';

export interface TestService {
  service: RunningService;
  baseUrl: string;
  dataDir: string;
  /** GET with the test key in X-API-Key unless `headers` says otherwise; parses JSON bodies. */
  get(path: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: any; text: string }>;
  close(): Promise<void>;
}

/**
 * A real reference service on a free loopback port, over a private copy of the template world of its `seed` (the
 * global setup fills TEMPLATE_SEED's and SECOND_TEMPLATE_SEED's; any other seed fills a world of its own on start:
 * tens of seconds). The world clock runs at speed 1 from the template's instant, so nothing moves during a test
 * unless the test advances it.
 */
export async function startTestService(options: Partial<ServiceOptions> = {}): Promise<TestService> {
  const root = mkdtempSync(join(tmpdir(), 'svc-test-'));
  const dataDir = join(root, 'server');
  const seed = options.seed ?? TEMPLATE_SEED;
  if (seed === TEMPLATE_SEED) cpSync(inject('templateDir'), dataDir, { recursive: true });
  if (seed === SECOND_TEMPLATE_SEED) cpSync(inject('secondTemplateDir'), dataDir, { recursive: true });
  const service = await startService({
    dataDir,
    port: 0,
    seed: TEMPLATE_SEED,
    start: TEMPLATE_START,
    speed: 1,
    apiKey: TEST_KEY,
    rateLimitPerMinute: 1_000_000,
    tickMs: 60_000,
    logLevel: 'silent',
    ...options,
  });
  return {
    service,
    baseUrl: service.baseUrl,
    dataDir,
    async get(path, init = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has('x-api-key') && !headers.has('authorization') && !path.includes('api_key=')) {
        headers.set('x-api-key', TEST_KEY);
      }
      const response = await fetch(`${service.baseUrl}${path}`, { ...init, headers });
      const text = await response.text();
      let body: any;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      return { status: response.status, headers: response.headers, body, text };
    },
    async close() {
      await service.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
