import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/client/api-client.js';
import { apiKeyProblem, baseUrlProblem } from '../../src/client/api-key.js';
import { Cancelled, RequestNotSent, ServiceUnreachable } from '../../src/client/errors.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc.close();
});

/** A key as a key file saved with Windows line ends gives it: undici refuses the header. */
const CRLF_KEY = `${TEST_KEY}\r\n`;
const quick = { timeoutMs: 300, retry: { attempts: 2, baseMs: 1, capMs: 2 } };

describe('a request undici refuses or that never settles', () => {
  it('is an error or a timeout, every time, and never shows the key', async () => {
    const client = new ApiClient({ baseUrl: svc.baseUrl, apiKey: CRLF_KEY, ...quick });
    const errors: unknown[] = [];
    // undici keeps a connection slot for each request it refuses: past its 8 slots a request would wait for ever
    for (let i = 0; i < 10; i++) errors.push(await client.cities().catch((e: unknown) => e));
    expect(errors[0]).toBeInstanceOf(RequestNotSent);
    expect((errors[0] as Error).message).toBe('GET /cities: the request could not be sent: invalid x-api-key header');
    for (const error of errors) {
      if (!(error instanceof RequestNotSent)) {
        expect(error).toBeInstanceOf(ServiceUnreachable);
        expect((error as Error).message).toBe(
          'GET /cities: no answer after 2 attempts (last: no answer within 300 ms)',
        );
      }
      expect((error as Error).message).not.toContain(TEST_KEY);
    }
    await client.close();
  });

  it('never lets a process end by running out of work', async () => {
    // the built client in a process of its own, with nothing else to keep it alive
    const module = fileURLToPath(new URL('../../dist/client/api-client.js', import.meta.url));
    const script = `
      const { ApiClient } = await import(${JSON.stringify(module)});
      const client = new ApiClient({ baseUrl: process.argv[1], apiKey: ${JSON.stringify(CRLF_KEY)}, timeoutMs: 300,
        retry: { attempts: 2, baseMs: 1, capMs: 2 } });
      let settled = 0;
      for (let i = 0; i < 10; i++) { await client.cities().catch(() => undefined); settled++; }
      await client.close();
      console.log('settled ' + settled);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, svc.baseUrl], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    const code = await new Promise<number | null>((done) => child.on('close', done));
    // before: exit 13 (a top-level await never settled) after the eighth request
    expect({ code, stdout: stdout.trim() }).toEqual({ code: 0, stdout: 'settled 10' });
  });

  it('cancel ends a request the service never answers, and every retry wait, at once', async () => {
    const proxy = await startFaultProxy(svc.baseUrl);
    proxy.setPlan(() => 'hang');
    const client = new ApiClient({ baseUrl: proxy.baseUrl, apiKey: TEST_KEY });
    try {
      const pending = client.cities().catch((e: unknown) => e);
      while (proxy.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
      const started = performance.now();
      client.cancel();
      const error = await pending;
      expect(error).toBeInstanceOf(Cancelled);
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(await client.forecasts('nyc').catch((e: unknown) => e)).toBeInstanceOf(Cancelled);
    } finally {
      await client.close();
      await proxy.close();
    }
  });
});

describe('the key and the address, checked before any request', () => {
  it('refuses line breaks, control characters, characters beyond Latin-1 and outer spaces, without quoting the key', () => {
    expect(apiKeyProblem(TEST_KEY)).toBeUndefined();
    expect(apiKeyProblem('clé-ümlaut')).toBeUndefined();
    expect(apiKeyProblem(CRLF_KEY)).toBe('contains a line break (a key file saved with Windows line ends?)');
    expect(apiKeyProblem('abc\ndef')).toBe('contains a line break (a key file saved with Windows line ends?)');
    expect(apiKeyProblem('abc\u0000def')).toBe('contains a control character');
    expect(apiKeyProblem('key€')).toBe('contains a character outside Latin-1 (header values cannot carry it)');
    expect(apiKeyProblem(' key')).toBe('starts or ends with a space');
    expect(apiKeyProblem('')).toBe('is empty');
  });

  it('takes only http and https addresses', () => {
    expect(baseUrlProblem('http://127.0.0.1:8787')).toBeUndefined();
    expect(baseUrlProblem('https://svc.example/api/public/v1')).toBeUndefined();
    expect(baseUrlProblem('ftp://svc.example')).toBe('is not an http:// or https:// URL');
    expect(baseUrlProblem('svc.example:8787')).toBe('is not an http:// or https:// URL');
    expect(baseUrlProblem('not a url')).toBe('is not a URL (it must look like https://host[:port])');
  });
});
