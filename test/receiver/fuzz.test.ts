import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signBody } from '../../src/domain/signature.js';
import { MAX_BODY_BYTES } from '../../src/receiver/body.js';
import {
  type Answer,
  head,
  httpClient,
  pool,
  type RawOutcome,
  type RawStep,
  rawExchange,
  startTempListener,
  type TempListener,
  waitUntil,
} from '../helpers/listener-harness.js';
import { seededRandom, testSeed } from '../helpers/sync-fixtures.js';
import {
  edgeEvent,
  insuranceEvent,
  PRIMARY_SECRET,
  STRANGER_SECRET,
  signed,
  testEvent,
} from '../helpers/webhook-events.js';

/**
 * More than 5,000 hostile requests, generated from one seed (RECEIVER_FUZZ_SEED replays or varies it): every
 * malformed signature shape, oversized and truncated bodies, slow senders, wrong methods and paths, garbage on
 * the wire. Whatever arrives, the answer is a 4xx or a closed connection, never a 5xx and never a row; the
 * listener serves a valid delivery afterwards. The bodies are valid, well-signable events, so a signature check
 * that let one through would leave a row behind.
 */

const SEED = testSeed('RECEIVER_FUZZ_SEED', 20_261_121);
const HEADERS_MS = 300;
const REQUEST_MS = 1_000;

let l: TempListener;
const http = httpClient(96);
beforeAll(async () => {
  l = await startTempListener({ timeouts: { headersMs: HEADERS_MS, requestMs: REQUEST_MS, keepAliveMs: 500 } });
});
afterAll(async () => {
  await http.close();
  await l?.close();
});

type Rng = () => number;
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;
const int = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));

interface HttpCase {
  kind: 'http';
  name: string;
  method: string;
  path: string;
  headers: Record<string, string | string[]>;
  body?: string | Buffer;
}
interface RawCase {
  kind: 'raw';
  name: string;
  steps: RawStep[];
  after?: 'end' | 'destroy' | 'open';
  waitMs?: number;
}
type Case = HttpCase | RawCase;

function anEvent(rng: Rng): object {
  switch (int(rng, 0, 4)) {
    case 0:
      return insuranceEvent('insurance.pick.created');
    case 1:
      return insuranceEvent('insurance.pick.killed');
    case 2:
      return insuranceEvent('insurance.addon.created', { parentPickId: '5b0f9a64-2c1d-4e3f-8a7b-6c5d4e3f2a1b' });
    case 3:
      return edgeEvent(pick(rng, ['edge.trade.entered', 'edge.trade.exited'] as const), { tradeId: int(rng, 1, 1e6) });
    default:
      return testEvent();
  }
}

const HEX = '0123456789abcdef';
const hex = (rng: Rng, n: number) => Array.from({ length: n }, () => pick(rng, HEX.split(''))).join('');

/** Every way a signature header can be wrong, as the value(s) to send; `valid` is the right one for the body. */
function badSignatures(rng: Rng, body: string): { name: string; value: string | string[] | undefined }[] {
  const valid = signBody(PRIMARY_SECRET, body);
  const digest = valid.slice('sha256='.length);
  const wrong = signBody(PRIMARY_SECRET, `${body} `).slice(7);
  const at = int(rng, 0, 63);
  return [
    { name: 'missing', value: undefined },
    { name: 'empty', value: '' },
    { name: 'no prefix', value: digest },
    { name: 'prefix only', value: 'sha256=' },
    { name: 'wrong prefix sha1', value: `sha1=${digest}` },
    { name: 'wrong prefix sha512', value: `sha512=${digest}` },
    { name: 'upper-case prefix', value: `SHA256=${digest}` },
    { name: 'colon', value: `sha256:${digest}` },
    { name: 'double prefix', value: `sha256=sha256=${digest}` },
    { name: 'v1 style', value: `v1,${digest}` },
    { name: '63 digits', value: `sha256=${digest.slice(0, 63)}` },
    { name: '65 digits', value: `sha256=${digest}${pick(rng, HEX.split(''))}` },
    { name: '128 digits', value: `sha256=${digest}${digest}` },
    {
      name: 'non-hex digit',
      value: `sha256=${digest.slice(0, at)}${pick(rng, ['g', 'z', 'x', '-', '+', '/'])}${digest.slice(at + 1)}`,
    },
    { name: 'base64 digest', value: `sha256=${Buffer.from(digest, 'hex').toString('base64')}` },
    { name: 'upper-case wrong digest', value: `sha256=${wrong.toUpperCase()}` },
    { name: 'wrong digest', value: `sha256=${wrong}` },
    { name: 'random digest', value: `sha256=${hex(rng, 64)}` },
    {
      name: 'one digit changed',
      value: `sha256=${digest.slice(0, at)}${digest[at] === '0' ? '1' : '0'}${digest.slice(at + 1)}`,
    },
    { name: 'other secret', value: signBody(STRANGER_SECRET, body) },
    { name: 'empty secret', value: signBody('', body) },
    { name: 'plain sha256 of the body', value: `sha256=${createHash('sha256').update(body).digest('hex')}` },
    { name: 'space after =', value: `sha256= ${digest}` },
    { name: 'space before =', value: `sha256 =${digest}` },
    { name: 'space inside', value: `sha256=${digest.slice(0, 32)} ${digest.slice(32)}` },
    { name: 'tab inside', value: `sha256=${digest.slice(0, 32)}\t${digest.slice(32)}` },
    { name: 'blanks around a wrong digest', value: `  sha256=${wrong}\t` },
    { name: 'two headers, valid first', value: [valid, `sha256=${wrong}`] },
    { name: 'two headers, valid second', value: [`sha256=${wrong}`, valid] },
    { name: 'two valid headers', value: [valid, valid] },
    { name: 'comma list', value: `${valid},sha256=${wrong}` },
    { name: 'zeros', value: `sha256=${'0'.repeat(64)}` },
  ];
}

function signatureCase(rng: Rng): Case {
  const d = signed(PRIMARY_SECRET, anEvent(rng));
  const shapes = badSignatures(rng, d.body);
  const shape = pick(rng, shapes);
  const headers: Record<string, string | string[]> = { ...d.headers };
  delete headers['x-svc-signature'];
  if (shape.value !== undefined) headers['x-svc-signature'] = shape.value;
  // a right signature over other bytes: the body changed after signing
  if (rng() < 0.1) {
    return {
      kind: 'http',
      name: 'valid signature, body changed',
      method: 'POST',
      path: '/',
      headers: d.headers,
      body: d.body.replace('"event_type"', '"event_type" '),
    };
  }
  return { kind: 'http', name: `signature: ${shape.name}`, method: 'POST', path: '/', headers, body: d.body };
}

const METHODS = ['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE'];
const RAW_METHODS = ['PROPFIND', 'MKCOL', 'LOCK', 'SEARCH', 'PURGE', 'post', 'P0ST', 'CONNECT'];
const PATHS = [
  '/webhook',
  '/hook/',
  '//',
  '/%2F',
  '/..',
  '/./',
  '/index.html',
  '/api/public/v1',
  '/%00',
  '/#',
  '/\u00e9',
  `/${'a'.repeat(2000)}`,
  '/ /',
];

function methodOrPathCase(rng: Rng): Case {
  const d = signed(PRIMARY_SECRET, anEvent(rng));
  const roll = rng();
  if (roll < 0.35) {
    const method = pick(rng, METHODS);
    const body = method === 'GET' || method === 'HEAD' || method === 'TRACE' ? undefined : d.body;
    return { kind: 'http', name: `method ${method}`, method, path: '/', headers: d.headers, body };
  }
  if (roll < 0.55) {
    const method = pick(rng, RAW_METHODS);
    const target = method === 'CONNECT' ? '127.0.0.1:443' : '/';
    return {
      kind: 'raw',
      name: `raw method ${method}`,
      steps: [
        { bytes: head(method, target, { ...d.headers, 'Content-Length': Buffer.byteLength(d.body) }) },
        { bytes: d.body },
      ],
    };
  }
  const path = pick(rng, PATHS);
  // URL parsers tidy these up, so they go raw
  if (/[ \u00e9#]|\/\.|^\/\//.test(path) || path.length > 1000) {
    return {
      kind: 'raw',
      name: `raw path ${path.slice(0, 20)}`,
      steps: [
        { bytes: head('POST', path, { ...d.headers, 'Content-Length': Buffer.byteLength(d.body) }) },
        { bytes: d.body },
      ],
    };
  }
  return { kind: 'http', name: `path ${path.slice(0, 20)}`, method: 'POST', path, headers: d.headers, body: d.body };
}

function oversizedByLengthCase(rng: Rng): Case {
  const d = signed(PRIMARY_SECRET, anEvent(rng));
  const length = pick(rng, [
    MAX_BODY_BYTES + 1,
    MAX_BODY_BYTES + int(rng, 2, 10_000_000),
    2 ** 40,
    9_007_199_254_740_991,
  ]);
  const sent = rng() < 0.5 ? d.body : Buffer.alloc(int(rng, 0, 200_000), 0x20);
  return {
    kind: 'raw',
    name: `Content-Length ${length}`,
    steps: [{ bytes: head('POST', '/', { ...d.headers, 'Content-Length': length }) }, { bytes: sent }],
    after: pick(rng, ['open', 'end', 'destroy'] as const),
  };
}

function chunkedOversizedCase(rng: Rng): Case {
  const d = signed(PRIMARY_SECRET, anEvent(rng));
  const chunk = Buffer.alloc(int(rng, 16_384, 262_144), 0x20);
  const total = MAX_BODY_BYTES + int(rng, 1, 500_000);
  const steps: RawStep[] = [{ bytes: head('POST', '/', { ...d.headers, 'Transfer-Encoding': 'chunked' }) }];
  for (let sent = 0; sent < total; sent += chunk.length) {
    steps.push({ bytes: Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]) });
  }
  steps.push({ bytes: '0\r\n\r\n' });
  return { kind: 'raw', name: 'chunked over 1 MiB', steps, waitMs: 10_000 };
}

function truncatedCase(rng: Rng): Case {
  const d = signed(PRIMARY_SECRET, anEvent(rng));
  const body = Buffer.from(d.body);
  const cut = int(rng, 0, body.length - 1);
  const chunked = rng() < 0.3;
  const headers = chunked
    ? { ...d.headers, 'Transfer-Encoding': 'chunked' }
    : { ...d.headers, 'Content-Length': body.length + int(rng, 1, 5_000) };
  const bytes = chunked
    ? Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body.subarray(0, cut)])
    : body.subarray(0, cut + 1);
  return {
    kind: 'raw',
    name: chunked ? 'chunked body cut short' : 'Content-Length larger than sent',
    steps: [{ bytes: head('POST', '/', headers) }, { bytes }],
    after: pick(rng, ['end', 'destroy', 'open'] as const),
  };
}

function slowCase(rng: Rng): Case {
  const d = signed(PRIMARY_SECRET, anEvent(rng));
  const full = head('POST', '/', { ...d.headers, 'Content-Length': Buffer.byteLength(d.body) });
  const roll = rng();
  if (roll < 0.3) return { kind: 'raw', name: 'connects, sends nothing', steps: [] };
  if (roll < 0.7) {
    // headers a few bytes at a time, past the headers timeout
    const cut = int(rng, 1, full.length - 5);
    return {
      kind: 'raw',
      name: 'slow headers',
      steps: [
        { bytes: full.slice(0, cut), pauseMs: HEADERS_MS * 2 },
        { bytes: full.slice(cut, cut + 3), pauseMs: HEADERS_MS * 2 },
      ],
    };
  }
  // the body trickled past the request timeout
  const body = Buffer.from(d.body);
  return {
    kind: 'raw',
    name: 'slow body',
    steps: [
      { bytes: full },
      ...[0, 1, 2, 3, 4, 5].map((i) => ({ bytes: body.subarray(i * 10, i * 10 + 10), pauseMs: REQUEST_MS / 3 })),
    ],
  };
}

const GARBAGE_LINES = [
  'POST / HTTP/9.9',
  'POST / HTTP/1.1 extra',
  'POST /',
  'POST',
  '/ HTTP/1.1',
  ' POST / HTTP/1.1',
  'POST  /  HTTP/1.1',
  'POST / HTTP/1.1\nX: y',
  'GET / HTTP/0.9',
  'PRI * HTTP/2.0\r\n\r\nSM',
  '\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003',
  'POST http://127.0.0.1/ HTTP/1.1',
  'POST * HTTP/1.1',
];

function garbageCase(rng: Rng): Case {
  // signed with a wrong secret: the parser decides, and a lenient parse must still end in 401, never 2xx
  const d = signed(STRANGER_SECRET, anEvent(rng));
  const length = Buffer.byteLength(d.body);
  const roll = rng();
  const headerLines = Object.entries(d.headers).map(([k, v]) => `${k}: ${v}`);
  let bytes: Buffer | string;
  let name: string;
  if (roll < 0.25) {
    name = 'random bytes';
    bytes = Buffer.from(Array.from({ length: int(rng, 1, 4_000) }, () => int(rng, 0, 255)));
  } else if (roll < 0.5) {
    const line = pick(rng, GARBAGE_LINES);
    name = `garbage request line ${JSON.stringify(line)}`;
    bytes = `${line}\r\nHost: x\r\n${headerLines.join('\r\n')}\r\nContent-Length: ${length}\r\n\r\n${d.body}`;
  } else if (roll < 0.6) {
    name = 'headers over 16 KiB';
    bytes = `POST / HTTP/1.1\r\nHost: x\r\nX-Pad: ${'p'.repeat(int(rng, 17_000, 80_000))}\r\n${headerLines.join('\r\n')}\r\nContent-Length: ${length}\r\n\r\n${d.body}`;
  } else if (roll < 0.7) {
    name = 'Content-Length and chunked together';
    bytes = `POST / HTTP/1.1\r\nHost: x\r\n${headerLines.join('\r\n')}\r\nContent-Length: ${length}\r\nTransfer-Encoding: chunked\r\n\r\n${length.toString(16)}\r\n${d.body}\r\n0\r\n\r\n`;
  } else if (roll < 0.8) {
    const value = pick(rng, ['-1', 'abc', '1e3', '0x20', `${length}, ${length + 1}`, ' ', '+5', `${length}.0`]);
    name = `Content-Length ${value}`;
    bytes = `POST / HTTP/1.1\r\nHost: x\r\n${headerLines.join('\r\n')}\r\nContent-Length: ${value}\r\n\r\n${d.body}`;
  } else if (roll < 0.87) {
    name = 'two different Content-Lengths';
    bytes = `POST / HTTP/1.1\r\nHost: x\r\n${headerLines.join('\r\n')}\r\nContent-Length: ${length}\r\nContent-Length: ${length - 1}\r\n\r\n${d.body}`;
  } else if (roll < 0.94) {
    name = 'bad chunk size';
    bytes = `POST / HTTP/1.1\r\nHost: x\r\n${headerLines.join('\r\n')}\r\nTransfer-Encoding: chunked\r\n\r\n${pick(rng, ['zz', '-1', 'fffffffffffffffff', ''])}\r\n${d.body}\r\n0\r\n\r\n`;
  } else {
    name = 'header without a colon';
    bytes = `POST / HTTP/1.1\r\nHost: x\r\nX-Svc-Signature ${signBody(PRIMARY_SECRET, d.body)}\r\n${headerLines.slice(0, -1).join('\r\n')}\r\nContent-Length: ${length}\r\n\r\n${d.body}`;
  }
  return { kind: 'raw', name, steps: [{ bytes }], after: pick(rng, ['open', 'end'] as const), waitMs: 3_000 };
}

/** Signed by the right secret but sent with a Content-Length shorter than the body: the prefix is not what was signed. */
function shortLengthCase(rng: Rng): Case {
  const d = signed(PRIMARY_SECRET, anEvent(rng));
  const body = Buffer.from(d.body);
  const length = int(rng, 0, body.length - 1);
  return {
    kind: 'raw',
    name: 'Content-Length shorter than the signed body',
    steps: [{ bytes: head('POST', '/', { ...d.headers, 'Content-Length': length }) }, { bytes: body }],
    after: 'end',
    waitMs: 3_000,
  };
}

function cases(seed: number): Case[] {
  const rng = seededRandom(seed);
  const all: Case[] = [];
  const add = (n: number, make: (rng: Rng) => Case) => {
    for (let i = 0; i < n; i++) all.push(make(rng));
  };
  add(3_000, signatureCase);
  add(700, methodOrPathCase);
  add(300, oversizedByLengthCase);
  add(16, chunkedOversizedCase);
  add(400, truncatedCase);
  add(60, slowCase);
  add(600, garbageCase);
  add(150, shortLengthCase);
  // shuffle, so the slow and the heavy ones are spread among the rest
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [all[i], all[j]] = [all[j] as Case, all[i] as Case];
  }
  return all;
}

async function run(c: Case): Promise<{ status?: number; closed: boolean; error?: string }> {
  if (c.kind === 'raw') {
    const outcome: RawOutcome = await rawExchange(l.port, c.steps, {
      after: c.after,
      waitMs: c.waitMs ?? 5_000,
      stopOnResponse: true,
    });
    return outcome;
  }
  try {
    const answer: Answer = await http.send(
      `http://127.0.0.1:${l.port}${c.path}`,
      c.method,
      c.headers as Record<string, string>,
      c.body,
    );
    return { status: answer.status, closed: false };
  } catch (error) {
    // the server closed the connection instead of answering
    return { closed: true, error: error instanceof Error ? error.message : String(error) };
  }
}

it('answers thousands of hostile requests with 4xx or a close, keeps nothing, and still serves', async () => {
  const all = cases(SEED);
  expect(all.length).toBeGreaterThanOrEqual(5_000);
  const outcomes = await pool(all, 64, run);
  const byStatus = new Map<string, number>();
  const offenders: string[] = [];
  const clientErrors = new Map<string, number>();
  for (const [i, outcome] of outcomes.entries()) {
    const c = all[i] as Case;
    const key = outcome.status === undefined ? 'closed' : String(outcome.status);
    byStatus.set(key, (byStatus.get(key) ?? 0) + 1);
    const ok = outcome.status === undefined || (outcome.status >= 400 && outcome.status < 500);
    if (!ok) offenders.push(`#${i} ${c.name}: ${outcome.status}`);
    if (c.kind === 'http' && outcome.error)
      clientErrors.set(`${c.name}: ${outcome.error}`, (clientErrors.get(`${c.name}: ${outcome.error}`) ?? 0) + 1);
  }
  console.log(
    `RECEIVER_FUZZ_SEED=${SEED}: ${all.length} requests`,
    Object.fromEntries(byStatus),
    Object.fromEntries(clientErrors),
  );
  expect(offenders.slice(0, 20), `${offenders.length} requests got a non-4xx answer`).toEqual([]);
  // nothing of what they sent; thousands of bad signatures are a listener refusing: its one alert (DESIGN 4)
  const refusing = await waitUntil('the refusing alert', () =>
    l.inspect.alerts().some((a) => a.kind === 'listener-refusing') ? true : undefined,
  );
  expect(refusing).toBe(true);
  expect(l.inspect.counts()).toEqual({
    webhook_events: 0,
    rejected_webhooks: 0,
    insurance_picks: 0,
    edge_trades: 0,
    alerts: 1,
  });
  expect(l.logs.filter((line) => /error/i.test(line))).toEqual([]);
  // and it still takes a valid delivery
  const valid = signed(PRIMARY_SECRET, insuranceEvent('insurance.pick.killed'));
  const answer = await http.post(l.url, valid);
  expect(answer.json).toEqual({ status: 'stored' });
  expect(l.inspect.counts()).toMatchObject({ webhook_events: 1, insurance_picks: 1, alerts: 2 });
});
