import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORICAL_TABLES } from '../../src/contract/historical.js';
import { LIMITS } from '../../src/contract/limits.js';
import { STRATEGY_FAMILIES } from '../../src/contract/strategies.js';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';

/**
 * Random query strings and paths against the real server: whatever a client sends, the answer is 200, 400, 401 or
 * 404 (never 500), always JSON, and every non-200 body is exactly `{error: string}` (spec sections 4 and 7).
 */

// ---------------------------------------------------------------------------------------------------------------
// the interface under test

interface Endpoint {
  path: string;
  /** the `limit` maximum, for endpoints that page */
  limitMax?: number;
  /** `/current` and `/forecasts` require `city_id` */
  needsCity?: boolean;
}

const ENDPOINTS: Endpoint[] = [
  { path: '/cities' },
  { path: '/current', needsCity: true },
  { path: '/forecasts', needsCity: true },
  ...HISTORICAL_TABLES.map((t) => ({ path: `/historical/${t}`, limitMax: LIMITS.maxPageSize })),
  ...STRATEGY_FAMILIES.map((f) => ({ path: `/${f}`, limitMax: LIMITS.maxPageSize })),
  { path: '/fusion-locks', limitMax: LIMITS.maxFusionLockPageSize },
];

const REAL_PARAMS = ['city_id', 'since', 'until', 'limit', 'cursor', 'date', 'status', 'resolved', 'api_key'];
const JUNK_PARAMS = ['', 'foo', 'LIMIT', 'City_Id', 'limit[]', 'city_id[0]', '__proto__', 'constructor', 'toString'];
const ALLOWED_STATUSES = [200, 400, 401, 404];

/** Real `next_cursor` values, fetched once, so valid cursors are in the mix too. */
const realCursors: string[] = [];

// ---------------------------------------------------------------------------------------------------------------
// arbitraries

/** A query value and whether it goes into the URL as is (hand-made `%` sequences) or percent-encoded. */
interface Value {
  text: string;
  raw: boolean;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const base64url = (text: string | Uint8Array) => Buffer.from(text).toString('base64url');

const PERCENT_JUNK = [
  '%',
  '%%',
  '%2',
  '%zz',
  '%00',
  '%FF',
  '%C3%28',
  '%E0%A4%A',
  '%F0%9F%98%80',
  '%ED%A0%80',
  '%25',
  '%2B',
  '%26',
  '%3D',
  '%23',
  '+',
  '%20',
  '%0A',
  '%7F',
];

/** Raw text never carries `&`, `=` or `#`, so a value cannot invent parameters the oracles do not know about. */
const rawJunk = fc
  .array(fc.oneof(fc.constantFrom(...PERCENT_JUNK), fc.stringMatching(/^[A-Za-z0-9._~-]{0,3}$/)), {
    minLength: 1,
    maxLength: 5,
  })
  .map((parts) => parts.join(''));

const strings = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('paris', 'nyc', 'seattle', 'PARIS', ' paris', 'atlantis', 'open', 'resolved', TEST_KEY),
);

const numbers = fc.oneof(
  fc.integer().map(String),
  fc.integer({ min: -10, max: 1_100 }).map(String),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc.double().map(String),
  fc.constantFrom('1e3', '0x10', '1.0', '1.5', '+5', ' 5', '5 ', '٣', 'Infinity', 'NaN', '-0', '007', '1e400'),
);

const anyDate = fc.date({
  min: new Date('0001-01-01T00:00:00Z'),
  max: new Date('9999-12-31T23:59:59Z'),
  noInvalidDate: true,
});
const nearDate = fc.date({
  min: new Date('2026-09-01T00:00:00Z'),
  max: new Date('2026-12-31T00:00:00Z'),
  noInvalidDate: true,
});

const dates = fc.oneof(
  fc.oneof(anyDate, nearDate).map((d) => d.toISOString().slice(0, 10)),
  fc.oneof(anyDate, nearDate).map((d) => d.toISOString()),
  fc.tuple(nearDate, fc.integer({ min: -23, max: 23 }), fc.constantFrom('00', '30', '45')).map(([d, h, m]) => {
    const offset = `${h < 0 ? '-' : '+'}${pad(Math.abs(h), 2)}:${m}`;
    return `${d.toISOString().slice(0, 19)}${offset}`;
  }),
  // mostly unreal calendar dates and clock times in the right shape
  fc
    .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }))
    .map(([y, m, d]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`),
  fc
    .tuple(
      fc.integer({ min: 0, max: 99 }),
      fc.integer({ min: 0, max: 99 }),
      fc.integer({ min: 0, max: 99 }),
      fc.stringMatching(/^(\.\d{1,12})?$/),
      fc.constantFrom('Z', '+00:00', '-05:00', '+0530', '+99:99', '-24:00', ''),
    )
    .map(([h, m, s, frac, zone]) => `2026-11-15T${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}${frac}${zone}`),
  fc.constantFrom('2026-02-30', '2026-13-01', '2026-00-10', '0000-00-00', '2026-11-21T24:00:00Z', '2026-1-1', 'today'),
);

const cursors = fc.oneof(
  fc.uint8Array({ maxLength: 40 }).map(base64url),
  fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b).toString('base64')),
  fc.jsonValue().map((v) => base64url(JSON.stringify(v))),
  fc
    .tuple(fc.oneof(dates, fc.string()), fc.oneof(fc.string(), fc.integer()))
    .map(([at, id]) => base64url(JSON.stringify([at, id]))),
  // read when the value is drawn, after the service has handed the real ones out
  fc.nat().map((i) => realCursors[i % Math.max(1, realCursors.length)] ?? '1'),
);

const flags = fc.constantFrom('true', 'false', '1', '0', 'TRUE', 'False', 'yes', 'open', 'resolved', 'OPEN', 'null');

const value: fc.Arbitrary<Value> = fc.oneof(
  fc.oneof(strings, numbers, fc.constant(''), dates, cursors, flags).map((text) => ({ text, raw: false })),
  rawJunk.map((text) => ({ text, raw: true })),
);

interface Param {
  name: string;
  value: Value;
  /** `name` alone, without `=` */
  bare: boolean;
}

const paramName = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...REAL_PARAMS) },
  { weight: 1, arbitrary: fc.constantFrom(...JUNK_PARAMS) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
);

const param: fc.Arbitrary<Param> = fc.record({
  name: paramName,
  value,
  bare: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
});

/** Up to 8 parameters; names repeat often (few real names), and one may be sent twice on purpose. */
const params = fc
  .tuple(fc.array(param, { maxLength: 8 }), fc.option(param, { nil: undefined }))
  .map(([list, twice]) =>
    twice ? [...list, twice, { ...twice, value: { text: twice.value.text, raw: false } }] : list,
  );

type Auth = 'header' | 'bearer' | 'query' | 'none' | 'wrong-header' | 'wrong-bearer';
const auth = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Auth>('header') },
  { weight: 2, arbitrary: fc.constant<Auth>('bearer') },
  { weight: 2, arbitrary: fc.constant<Auth>('query') },
  { weight: 1, arbitrary: fc.constantFrom<Auth>('none', 'wrong-header', 'wrong-bearer') },
);

// ---------------------------------------------------------------------------------------------------------------
// requests and the checks every answer passes

/** encodeURIComponent, except that a lone surrogate goes in raw (the URL parser then writes it as U+FFFD). */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text;
  }
}

function queryString(list: readonly Param[], mode: Auth): string {
  const parts = list.map((p) =>
    p.bare ? encode(p.name) : `${encode(p.name)}=${p.value.raw ? p.value.text : encode(p.value.text)}`,
  );
  if (mode === 'query') parts.push(`api_key=${encode(TEST_KEY)}`);
  return parts.join('&');
}

function authHeaders(mode: Auth): Record<string, string> {
  switch (mode) {
    case 'header':
      return { 'x-api-key': TEST_KEY };
    case 'bearer':
      return { authorization: `Bearer ${TEST_KEY}` };
    case 'wrong-header':
      return { 'x-api-key': `${TEST_KEY}-not` };
    case 'wrong-bearer':
      return { authorization: 'Bearer not-a-key' };
    default:
      return {};
  }
}

interface Answer {
  url: string;
  status: number;
  contentType: string;
  allowOrigin: string | null;
  text: string;
}

async function send(svc: TestService, pathAndQuery: string, mode: Auth): Promise<Answer> {
  const url = `${svc.baseUrl}${pathAndQuery}`;
  const response = await fetch(url, { headers: authHeaders(mode) });
  return {
    url,
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    allowOrigin: response.headers.get('access-control-allow-origin'),
    text: await response.text(),
  };
}

/**
 * Spec 4 and 7: JSON always; 200, 400, 401 or 404; a non-200 body is exactly `{error: string}`; and the CORS
 * header DESIGN section 4 puts on every response.
 */
function checkAnswer(a: Answer): unknown {
  const where = `GET ${a.url} -> ${a.status} ${a.text.slice(0, 300)}`;
  expect(ALLOWED_STATUSES, where).toContain(a.status);
  expect(a.contentType, where).toMatch(/^application\/json/);
  let body: unknown;
  expect(() => {
    body = JSON.parse(a.text);
  }, where).not.toThrow();
  expect(typeof body === 'object' && body !== null && !Array.isArray(body), `${where}: the body is an object`).toBe(
    true,
  );
  if (a.status !== 200) {
    const error = body as Record<string, unknown>;
    expect(Object.keys(error), where).toEqual(['error']);
    expect(typeof error.error, where).toBe('string');
    expect(String(error.error).length, where).toBeGreaterThan(0);
  }
  // DESIGN section 4: CORS headers on every response
  expect(a.allowOrigin, `${where}: Access-Control-Allow-Origin`).toBe('*');
  return body;
}

/**
 * DESIGN section 3: secrets never appear in output or errors. An error may quote a value the client sent as an
 * ordinary parameter (an unknown city_id, say), but never the key sent to authenticate.
 */
function checkKeyNotEchoed(a: Answer, list: readonly Param[]): void {
  if (a.status === 200 || !a.text.includes(TEST_KEY)) return;
  const sentElsewhere = list.some(
    (p) => p.name !== 'api_key' && (p.value.text.includes(TEST_KEY) || p.name.includes(TEST_KEY)),
  );
  expect(
    sentElsewhere,
    `GET ${a.url} -> ${a.status}: the error body repeats the API key: ${a.text.slice(0, 300)}`,
  ).toBe(true);
}

/** The values a parameter name was sent with, as the server decodes them (only for encoded values). */
function sent(list: readonly Param[], name: string): Param[] {
  return list.filter((p) => p.name === name);
}

/** What follows from the request alone, on top of the generic checks. */
function checkOracles(endpoint: Endpoint, list: readonly Param[], mode: Auth, a: Answer, body: unknown): void {
  const where = `GET ${a.url} -> ${a.status} ${a.text.slice(0, 300)}`;
  const keyInHeader = mode === 'header' || mode === 'bearer';
  if (!keyInHeader) {
    if (mode !== 'query' && sent(list, 'api_key').length === 0) expect(a.status, where).toBe(401);
    return;
  }
  expect(a.status, `${where}: a valid key in a header is never refused`).not.toBe(401);
  if (endpoint.needsCity && sent(list, 'city_id').length === 0) expect(a.status, where).toBe(400);

  if (endpoint.limitMax === undefined) return;
  const limits = sent(list, 'limit');
  const limit = limits.length === 1 && !limits[0]?.bare && !limits[0]?.value.raw ? limits[0]?.value.text : undefined;
  // DESIGN 4: a limit that is not an integer in 1..max is a 400, never clamped
  if (limit !== undefined && /^-?\d+$/.test(limit) && (Number(limit) < 1 || Number(limit) > endpoint.limitMax)) {
    expect(a.status, `${where}: limit out of range`).toBe(400);
  }
  if (limit !== undefined && /^-?\d+\.\d*[1-9]\d*$/.test(limit))
    expect(a.status, `${where}: fractional limit`).toBe(400);
  if (a.status !== 200) return;
  const page = body as { count?: unknown; data?: unknown };
  expect(Array.isArray(page.data), where).toBe(true);
  const rows = page.data as unknown[];
  expect(page.count, where).toBe(rows.length);
  const cap =
    limits.length === 0
      ? LIMITS.defaultPageSize
      : limit !== undefined && /^\d+$/.test(limit)
        ? Number(limit)
        : undefined;
  if (cap !== undefined) expect(rows.length, `${where}: page size`).toBeLessThanOrEqual(cap);
}

// ---------------------------------------------------------------------------------------------------------------
// random paths

const REAL_SEGMENTS = [
  'cities',
  'current',
  'forecasts',
  'historical',
  ...HISTORICAL_TABLES,
  ...STRATEGY_FAMILIES,
  'fusion-locks',
  'CITIES',
  'Historical',
  'h_metar_observations_history',
  'fusion_locks',
  '',
  '.',
  '..',
  '%2e%2e',
  '%2F',
  '%00',
  '%zz',
  '%',
  '%E0%A4%A',
  'metar_observations_history%00',
  'wxa_history;drop',
  "x'--",
];

const segment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...REAL_SEGMENTS) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }).map(encode) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }).map(encode) },
  { weight: 1, arbitrary: rawJunk },
);

const randomPath = fc
  .tuple(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.option(params, { nil: undefined }), auth)
  .map(([segments, query, mode]) => ({
    // the base URL ends with /api/public/v1
    path: `/${segments.join('/')}${query === undefined ? '' : `?${queryString(query, mode)}`}`,
    query,
    mode,
  }));

// ---------------------------------------------------------------------------------------------------------------

describe('random requests never break the interface', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ speed: 0 });
    const lock = await svc.get('/fusion-locks?limit=3');
    const history = await svc.get('/historical/metar_observations_history?limit=3');
    for (const body of [lock.body, history.body]) {
      if (body?.next_cursor !== null && body?.next_cursor !== undefined) realCursors.push(String(body.next_cursor));
    }
    expect(realCursors.length).toBe(2);
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('random query strings on every endpoint: 200/400/401/404 with JSON, {error} when not 200', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ENDPOINTS), params, auth, async (endpoint, list, mode) => {
        const qs = queryString(list, mode);
        const answer = await send(svc, `${endpoint.path}${qs === '' ? '' : `?${qs}`}`, mode);
        const body = checkAnswer(answer);
        checkKeyNotEchoed(answer, list);
        checkOracles(endpoint, list, mode, answer, body);
      }),
      { numRuns: 600 },
    );
  });

  it('every endpoint with one random parameter at a time', async () => {
    // a single parameter reaches deeper than a crowd of them, where the first bad one answers 400
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ENDPOINTS), param, async (endpoint, p) => {
        const withCity =
          endpoint.needsCity && p.name !== 'city_id'
            ? [{ name: 'city_id', value: { text: 'paris', raw: false }, bare: false }]
            : [];
        const list = [...withCity, p];
        const answer = await send(svc, `${endpoint.path}?${queryString(list, 'header')}`, 'header');
        const body = checkAnswer(answer);
        checkKeyNotEchoed(answer, list);
        checkOracles(endpoint, list, 'header', answer, body);
      }),
      { numRuns: 400 },
    );
  });

  it('limit: number-like text is served with at most that many rows, or refused with 400', async () => {
    const paged = ENDPOINTS.filter((e) => e.limitMax !== undefined);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paged), numbers, async (endpoint, text) => {
        const list: Param[] = [{ name: 'limit', value: { text, raw: false }, bare: false }];
        const answer = await send(svc, `${endpoint.path}?${queryString(list, 'header')}`, 'header');
        const body = checkAnswer(answer);
        expect([200, 400], `GET ${answer.url} -> ${answer.status} ${answer.text.slice(0, 200)}`).toContain(
          answer.status,
        );
        checkOracles(endpoint, list, 'header', answer, body);
      }),
      { numRuns: 300 },
    );
  });

  // the smallest cases the path property below finds, pinned so each failure reads on its own
  it('a path with a malformed %-escape is answered with exactly {error}', async () => {
    checkAnswer(await send(svc, '/%', 'header'));
  });

  it('a path with a malformed %-escape does not repeat the API key sent as api_key', async () => {
    const answer = await send(svc, `/%zz?api_key=${TEST_KEY}`, 'none');
    expect(answer.status).toBe(400);
    expect(answer.text, `GET ${answer.url} -> ${answer.text}`).not.toContain(TEST_KEY);
  });

  it('random paths under /api/public/v1/: never 500, JSON, {error} when not 200', async () => {
    await fc.assert(
      fc.asyncProperty(randomPath, async ({ path, query, mode }) => {
        const answer = await send(svc, path, mode);
        checkAnswer(answer);
        checkKeyNotEchoed(answer, query ?? []);
      }),
      { numRuns: 400 },
    );
  });
});
