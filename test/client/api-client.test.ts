import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, receivedText, v1BaseUrl } from '../../src/client/api-client.js';
import { AuthRejected, InvalidResponse, RequestRefused, ServiceUnreachable } from '../../src/client/errors.js';
import { retryDelay } from '../../src/client/retry.js';
import { type Fault, startFaultProxy } from '../helpers/fault-proxy.js';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';

let svc: TestService;
let proxy: Awaited<ReturnType<typeof startFaultProxy>>;
const fast = { attempts: 5, baseMs: 10, capMs: 50, maxRetryAfterMs: 2_000 };

beforeAll(async () => {
  svc = await startTestService();
  proxy = await startFaultProxy(svc.baseUrl);
});
afterAll(async () => {
  await proxy.close();
  await svc.close();
});

/** A client through the proxy, whose first requests get the given faults and the rest pass. */
function clientWith(faults: Fault[], extra: { timeoutMs?: number } = {}) {
  const start = proxy.requests.length;
  proxy.setPlan((_path, index) => faults[index - start] ?? 'pass');
  return { client: new ApiClient({ baseUrl: proxy.baseUrl, apiKey: TEST_KEY, retry: fast, ...extra }), start };
}

describe('ApiClient', () => {
  it('appends /api/public/v1 to a bare address and reads every endpoint, validated', async () => {
    expect(v1BaseUrl('http://h:1/')).toBe('http://h:1/api/public/v1');
    expect(v1BaseUrl('http://h:1/api/public/v1')).toBe('http://h:1/api/public/v1');
    const client = new ApiClient({
      baseUrl: svc.baseUrl.replace('/api/public/v1', ''),
      apiKey: TEST_KEY,
      auth: 'bearer',
    });
    const cities = await client.cities();
    // every city the service holds, as its own answer says
    expect(cities).toEqual((await svc.get('/cities')).body.data);
    expect((await client.current('nyc')).city_id).toBe('nyc');
    expect((await client.forecasts('paris')).svc_pro_forecast.unit).toBe('F');
    expect((await client.strategy('no24', { limit: 5 })).length).toBe(5);
    let rows = 0;
    for await (const page of client.historical('forecast_accuracy_daily', { limit: 200 })) rows += page.rows.length;
    expect(rows).toBe(svc.service.db.prepare('SELECT count(*) FROM h_forecast_accuracy_daily').pluck().get());
    let locks = 0;
    for await (const page of client.fusionLocks({ limit: 100 })) locks += page.rows.length;
    expect(locks).toBe(svc.service.db.prepare('SELECT count(*) FROM fusion_locks').pluck().get());
    await client.close();
  });

  it('remembers the body each value it returned was parsed from, as the service sent it', async () => {
    const client = new ApiClient({ baseUrl: svc.baseUrl, apiKey: TEST_KEY });
    const raw = async (path: string) =>
      (await fetch(`${svc.baseUrl}${path}`, { headers: { 'x-api-key': TEST_KEY } })).text();
    const cities = await client.cities();
    expect(receivedText(cities)).toBe(await raw('/cities'));
    const records = await client.strategy('no24', { status: 'resolved', limit: 5 });
    expect(receivedText(records)).toBe(await raw('/no24?status=resolved&limit=5'));
    const pages = client.historical('forecast_accuracy_daily', { limit: 3 });
    const first = (await pages.next()).value;
    await pages.return(undefined);
    expect(receivedText(first.rows)).toBe(await raw('/historical/forecast_accuracy_daily?limit=3'));
    // only what the client returned: a row of it was not sent alone
    expect(receivedText(records[0] as object)).toBeUndefined();
    await client.close();
  });

  it('stops at once on 401 and never says the key', async () => {
    const client = new ApiClient({ baseUrl: proxy.baseUrl, apiKey: 'wrong-key-123', retry: fast });
    proxy.setPlan(() => 'pass');
    const before = proxy.requests.length;
    const error = await client.cities().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthRejected);
    expect(String((error as Error).message)).not.toContain('wrong-key-123');
    expect(proxy.requests.length - before).toBe(1);
  });

  it('treats a 400 as a bug to report, not to retry', async () => {
    const { client, start } = clientWith([]);
    const error = await client.strategy('no24', { limit: 5000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestRefused);
    expect((error as Error).message).toContain("'limit'");
    expect(proxy.requests.length - start).toBe(1);
  });

  it('rides out 5xx bursts and hung responses with retries', async () => {
    const { client, start } = clientWith(['503', '503', 'hang', '503'], { timeoutMs: 300 });
    expect(await client.cities()).toEqual((await svc.get('/cities')).body.data);
    expect(proxy.requests.length - start).toBe(5);
  });

  it('waits out a 429 for its Retry-After', async () => {
    const { client } = clientWith(['429']);
    const started = performance.now();
    await client.cities();
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('refuses malformed JSON and contract-breaking rows, naming the endpoint and the field', async () => {
    const malformed = await clientWith(['malformed'])
      .client.cities()
      .catch((e: unknown) => e);
    expect(malformed).toBeInstanceOf(InvalidResponse);
    expect((malformed as Error).message).toMatch(/^GET \/cities: response is not JSON/);
    const badRow = await clientWith(['bad-row'])
      .client.strategy('yescore', { limit: 3 })
      .catch((e: unknown) => e);
    expect(badRow).toBeInstanceOf(InvalidResponse);
    expect((badRow as Error).message).toMatch(/^GET \/yescore\?limit=3: response field \/data\/0\/city_id/);
  });

  it('gives up as unreachable after its attempts', async () => {
    const { client, start } = clientWith(['503', '503', '503', '503', '503']);
    const error = await client.cities().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnreachable);
    expect((error as Error).message).toContain('5 attempts (last: HTTP 503)');
    expect(proxy.requests.length - start).toBe(5);
  });

  it('draws full-jitter delays below the capped exponential bound', () => {
    const policy = { attempts: 5, baseMs: 100, capMs: 1_000, maxRetryAfterMs: 0 };
    expect(retryDelay(policy, 1, () => 0.999)).toBe(99);
    expect(retryDelay(policy, 3, () => 0.5)).toBe(200);
    expect(retryDelay(policy, 10, () => 0.999)).toBe(999);
    expect(retryDelay(policy, 4, () => 0)).toBe(0);
  });
});
