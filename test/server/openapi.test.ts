/**
 * The OpenAPI 3.1 document the reference service serves at `/api/public/v1/openapi.json` (issue 46), over real HTTP
 * on loopback: it is a valid document, it lists every v1 route the server registers (as Fastify prints them) with GET
 * alone, every path in it answers, the service's answers and a real webhook delivery fit the schemas it gives, and
 * it is the one v1 path that needs no key.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Compile } from 'typebox/compile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookStore } from '../../src/server/store/webhooks.js';
import { queueTestEvent } from '../../src/server/webhooks/registration.js';
import { startReceiver } from '../helpers/receiver.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { oneOfEach } from '../helpers/webhook-events.js';

const V1 = '/api/public/v1';

// the document as JSON: its shape is what the test checks
type Json = any;

let svc: TestService;
let document: Json;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  svc = await startTestService({ allowPrivateWebhooks: true });
  receiver = await startReceiver();
  const answer = await svc.get('/openapi.json');
  expect(answer.status, answer.text).toBe(200);
  document = answer.body;
});
afterAll(async () => {
  await receiver?.close();
  await svc?.close();
});

/** The schema of a path's answer with `status`, as the document has it. */
const answerSchema = (path: string, status: string) =>
  document.paths[path].get.responses[status].content['application/json'].schema;

/** Every route the server registered, by path, with its methods (Fastify's own listing, one line a route). */
function registeredRoutes(): Map<string, string[]> {
  const routes = new Map<string, string[]>();
  for (const line of svc.service.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = line.match(/(\/\S*) \(([^)]+)\)$/);
    if (match?.[1] && match[2]) routes.set(match[1], match[2].split(', '));
  }
  return routes;
}

describe('the OpenAPI document', () => {
  it('answers without a key (any key, even a wrong one, is ignored); the data routes still want one', async () => {
    const bare = await fetch(`${svc.baseUrl}/openapi.json`);
    expect(bare.status).toBe(200);
    expect(bare.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(((await bare.json()) as Json).openapi).toBe('3.1.0');
    expect((await svc.get('/openapi.json', { headers: { 'x-api-key': 'not-a-key' } })).status).toBe(200);
    expect((await fetch(`${svc.baseUrl}/openapi.json?api_key=not-a-key`)).status).toBe(200);

    const cities = await fetch(`${svc.baseUrl}/cities`);
    expect(cities.status).toBe(401);
    expect(await cities.json()).toEqual({
      error: 'missing API key: send X-API-Key, Authorization: Bearer, or api_key=',
    });
    // only that path: the same file name elsewhere under the prefix is no route, and a data route with the
    // document's name in its query still wants a key
    expect((await fetch(`${svc.baseUrl}/historical/openapi.json`)).status).toBe(404);
    expect((await fetch(`${svc.baseUrl}/cities?openapi.json`)).status).toBe(401);
    // request lines as sent, not as fetch would tidy them: none reaches a data route without a key
    const base = new URL(svc.baseUrl);
    const raw = (path: string) =>
      new Promise<number>((resolve, reject) => {
        request({ host: base.hostname, port: base.port, path }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
          .on('error', reject)
          .end();
      });
    const sneaking = {
      [`${V1}/openapi.json/../cities`]: 404,
      [`${V1}/openapi.json%2f..%2fcities`]: 404,
      [`${V1}/openapi.json/`]: 404,
      [`${V1}//openapi.json`]: 404,
      [`${V1}/%6fpenapi.json`]: 401,
      [`${V1}/cities?x=${V1}/openapi.json`]: 401,
      [`${V1}/openapi.json?/../cities`]: 200, // the document itself: a query is no path
    };
    const answered: Record<string, number> = {};
    for (const path of Object.keys(sneaking)) answered[path] = await raw(path);
    expect(answered).toEqual(sneaking);
    // the method guard still answers first
    const post = await fetch(`${svc.baseUrl}/openapi.json`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
  });

  it('is valid OpenAPI 3.1, and a broken copy of it is not', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');

    const breakages: ((copy: Json) => void)[] = [
      (copy) => delete copy.info,
      (copy) => {
        copy.paths['/cities'].get.responses['200'] = 'a body';
      },
      (copy) => {
        copy.webhooks['webhook.test'].post.parameters[0].in = 'body';
      },
    ];
    for (const breakIt of breakages) {
      const copy = structuredClone(document);
      breakIt(copy);
      expect((await new Validator().validate(copy)).valid, String(breakIt)).toBe(false);
    }
  });

  it("names the service, the package's version, the base path and the three ways of presenting a key", () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(document.info.version).toBe(version);
    expect(document.info.title).toBe('Weather forecast and trade-signal service, v1');
    expect(document.servers).toEqual([{ url: V1, description: expect.any(String) }]);
    expect(document.components.securitySchemes).toEqual({
      ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      Bearer: { type: 'http', scheme: 'bearer', description: expect.any(String) },
      ApiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
    });
    expect(document.security).toEqual([{ ApiKeyHeader: [] }, { Bearer: [] }, { ApiKeyQuery: [] }]);
    // the document itself needs none, and says so; a data route keeps the global requirement
    expect(document.paths['/openapi.json'].get.security).toEqual([]);
    expect(document.paths['/openapi.json'].get.responses['401']).toBeUndefined();
    expect(document.paths['/cities'].get.security).toBeUndefined();
  });

  it('lists every v1 route the server registers, with GET alone, and no account page', () => {
    const routes = registeredRoutes();
    const v1 = [...routes.keys()].filter((path) => path.startsWith(`${V1}/`)).map((path) => path.slice(V1.length));
    // 11 historical tables, /cities, /current, /forecasts, three strategy lists, /fusion-locks, the document
    expect(v1).toHaveLength(19);
    expect(Object.keys(document.paths).sort()).toEqual(v1.sort());
    // registered for every method (the guard answers 405), documented as the GET they are
    expect(routes.get(`${V1}/cities`)).toEqual(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);
    for (const [path, item] of Object.entries(document.paths))
      expect(Object.keys(item as object), path).toEqual(['get']);
    // the account pages are routes of the same server, and no path of the document
    const account = [...routes.keys()].filter((path) => path.startsWith('/account'));
    expect(account.length).toBeGreaterThan(0);
    expect(Object.keys(document.paths).filter((path) => path.includes('account'))).toEqual([]);
  });

  it('gives each route the query parameters it validates with: limits, defaults, what is required', () => {
    const parameters = (path: string) =>
      Object.fromEntries(
        (document.paths[path].get.parameters ?? []).map((p: Json) => [p.name, { in: p.in, required: p.required }]),
      );
    const optional = { in: 'query', required: false };
    expect(parameters('/cities')).toEqual({});
    expect(parameters('/current')).toEqual({ city_id: { in: 'query', required: true } });
    expect(parameters('/historical/wxa_history')).toEqual({
      city_id: optional,
      since: optional,
      until: optional,
      limit: optional,
      cursor: optional,
    });
    expect(parameters('/no24')).toEqual({ city_id: optional, date: optional, status: optional, limit: optional });
    const limit = (path: string) =>
      document.paths[path].get.parameters.find((p: Json) => p.name === 'limit').schema as Json;
    expect(limit('/historical/wxa_history')).toEqual({ type: 'integer', minimum: 1, maximum: 1000, default: 100 });
    expect(limit('/fusion-locks')).toEqual({ type: 'integer', minimum: 1, maximum: 500, default: 100 });
    const status = document.paths['/no24'].get.parameters.find((p: Json) => p.name === 'status').schema;
    expect(status).toEqual({
      anyOf: [
        { type: 'string', const: 'open' },
        { type: 'string', const: 'resolved' },
      ],
    });
    // the failures: 404 only where an unknown city is one
    expect(Object.keys(document.paths['/current'].get.responses)).toEqual([
      '200',
      '400',
      '401',
      '404',
      '405',
      '429',
      '500',
    ]);
    expect(Object.keys(document.paths['/no24'].get.responses)).toEqual(['200', '400', '401', '405', '429', '500']);
  });

  it('every path in it answers 200 to a GET with a key (a city from /cities where one is required)', async () => {
    const city = (await svc.get('/cities')).body.data[0].city_id as string;
    for (const [path, item] of Object.entries(document.paths) as [string, Json][]) {
      const required = (item.get.parameters ?? []).filter((p: Json) => p.required).map((p: Json) => p.name);
      expect(
        required.filter((name: string) => name !== 'city_id'),
        path,
      ).toEqual([]);
      const query = required.length > 0 ? `?city_id=${encodeURIComponent(city)}` : '';
      const answer = await svc.get(`${path}${query}`);
      expect(answer.status, `${path}: ${answer.text.slice(0, 200)}`).toBe(200);
    }
  });

  it("the service's answers fit the document's schemas, and a broken answer does not", async () => {
    const city = (await svc.get('/cities')).body.data[0].city_id as string;
    const paths: [string, string][] = [
      ['/cities', ''],
      ['/current', `?city_id=${city}`],
      ['/forecasts', `?city_id=${city}`],
      ['/fusion-locks', '?limit=5'],
      ['/no24', '?limit=5'],
      ['/svc-max-picks', '?limit=5'],
      ['/historical/mkta_buckets_history', '?limit=5'],
    ];
    for (const [path, query] of paths) {
      const schema = Compile(answerSchema(path, '200'));
      const { body } = await svc.get(`${path}${query}`);
      expect(schema.Check(body), `${path}: ${JSON.stringify([...schema.Errors(body)].slice(0, 2))}`).toBe(true);
      expect(body.data, path).toBeDefined();
      const broken = structuredClone(body);
      delete broken.data;
      expect(schema.Check(broken), path).toBe(false);
    }
    // a row that breaks the contract: a price above 1 in the bucket history
    const page = (await svc.get('/historical/mkta_buckets_history?limit=1')).body;
    expect(page.data).toHaveLength(1);
    page.data[0].yes_price = 1.5;
    expect(Compile(answerSchema('/historical/mkta_buckets_history', '200')).Check(page)).toBe(false);

    // failures: the errors plugin's `{error}` bodies
    const unauthorised = await fetch(`${svc.baseUrl}/no24`);
    expect(Compile(answerSchema('/no24', '401')).Check(await unauthorised.json())).toBe(true);
    const bad = await svc.get('/no24?limit=0');
    expect(bad.status).toBe(400);
    expect(Compile(answerSchema('/no24', '400')).Check(bad.body)).toBe(true);
    const unknown = await svc.get('/current?city_id=atlantis');
    expect(unknown.status).toBe(404);
    expect(Compile(answerSchema('/current', '404')).Check(unknown.body)).toBe(true);
    expect(Compile(answerSchema('/current', '404')).Check({ error: 'x', detail: 1 })).toBe(false);
  });
});

describe("the document's webhooks", () => {
  const TYPES = [
    'insurance.pick.created',
    'insurance.addon.created',
    'insurance.pick.killed',
    'edge.trade.entered',
    'edge.trade.exited',
    'webhook.test',
  ];
  const bodySchema = (type: string) => document.webhooks[type].post.requestBody.content['application/json'].schema;

  it('has one POST per event type, with the headers sent and the signature scheme', () => {
    expect(Object.keys(document.webhooks)).toEqual(TYPES);
    for (const type of TYPES) {
      const post = document.webhooks[type].post;
      expect(Object.keys(document.webhooks[type])).toEqual(['post']);
      expect(post.parameters.map((p: Json) => [p.in, p.name, p.required])).toEqual([
        ['header', 'X-Svc-Event', true],
        ['header', 'X-Svc-Event-Id', true],
        ['header', 'X-Svc-Signature', true],
        ['header', 'X-Svc-Delivery', true],
        ['header', 'User-Agent', true],
      ]);
      expect(post.parameters[0].schema).toEqual({ type: 'string', const: type });
      expect(post.description).toContain('HMAC-SHA256 of the exact bytes of the request body');
      expect(post.description).toContain('64 lower-case hex digits');
      // the listener's replay window (LIMITS.webhookReplayWindowMs, 24 * 3_600_000 ms)
      expect(post.description).toContain('more than 24 h older');
      // LIMITS: 8 s, the five retry delays, disabled at the 10th failure
      expect(post.responses['2XX'].description).toBe(
        'Answer 2xx within 8 s. Any other status, a redirect (never followed) or no answer is a failure, retried ' +
          'after 1 min, 5 min, 30 min, 2 h, 12 h; the 10th consecutive failure disables the webhook.',
      );
    }
  });

  it("each event type's body schema takes that type's events and refuses another's", () => {
    const events = oneOfEach(41);
    expect(events.map((e) => e.type)).toEqual(TYPES);
    for (const [i, { type, event }] of events.entries()) {
      expect(Compile(bodySchema(type)).Check(event), type).toBe(true);
      // the next type's schema (the same family for all but the last of each): event_type is each entry's own
      const other = TYPES[(i + 1) % TYPES.length] as string;
      expect(Compile(bodySchema(other)).Check(event), `${type} as ${other}`).toBe(false);
    }
  });

  it('a real delivery fits the webhook.test entry: its headers, its body, its signature as described', async () => {
    const store = new WebhookStore(svc.service.db);
    const { id, secret } = store.add(receiver.url, ['webhook.test'], false);
    const queued = queueTestEvent(store, id);
    svc.service.dispatcher.wake();
    const [delivery] = await receiver.waitFor(1);
    if (!delivery || !queued.queued) throw new Error('no delivery');
    const post = document.webhooks['webhook.test'].post;
    for (const parameter of post.parameters) {
      const value = delivery.headers[parameter.name.toLowerCase()];
      expect(Compile(parameter.schema).Check(value), `${parameter.name}: ${value}`).toBe(true);
    }
    expect(delivery.headers['x-svc-event-id']).toBe(queued.eventId);
    const body = JSON.parse(delivery.body.toString('utf8'));
    expect(Compile(bodySchema('webhook.test')).Check(body)).toBe(true);
    expect(delivery.headers['x-svc-signature']).toBe(
      `sha256=${createHmac('sha256', secret).update(delivery.body).digest('hex')}`,
    );
  });
});
