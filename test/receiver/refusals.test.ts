import { readdirSync, readlinkSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { signBody } from '../../src/domain/signature.js';
import { MAX_BODY_BYTES } from '../../src/receiver/body.js';
import { head, httpClient, rawExchange, startTempListener, type TempListener } from '../helpers/listener-harness.js';
import { edgeEvent, insuranceEvent, PRIMARY_SECRET, signed, testEvent } from '../helpers/webhook-events.js';

/**
 * The listener's refusals in their order (path 404, method 405, size 413, signature 401, contract 400), what a 400
 * keeps, the 1 MiB boundary, and what a failed commit answers.
 */

const http = httpClient();
const running: TempListener[] = [];
afterEach(async () => {
  for (const l of running.splice(0)) await l.close();
});
afterAll(() => http.close());

async function listener(options: Parameters<typeof startTempListener>[0] = {}) {
  const l = await startTempListener(options);
  running.push(l);
  return l;
}

const EMPTY = { webhook_events: 0, rejected_webhooks: 0, insurance_picks: 0, edge_trades: 0, alerts: 0 };

describe('order of refusal', () => {
  it('answers path, then method, then size, then signature, then contract', async () => {
    const l = await listener();
    const junk = 'not json at all';
    const unsigned = { 'content-type': 'application/json', 'x-svc-event': 'webhook.test' };
    const hugeHead = (method: string, path: string) =>
      head(method, path, { 'Content-Length': MAX_BODY_BYTES + 10, 'Content-Type': 'application/json' });
    // a wrong path outranks everything, even a wrong method and an oversized body
    expect((await rawExchange(l.port, [{ bytes: hugeHead('PUT', '/hooks') }], { stopOnResponse: true })).status).toBe(
      404,
    );
    expect((await http.send(`${l.url}webhook`, 'POST', unsigned, junk)).status).toBe(404);
    expect((await http.send(`${l.url}%2F`, 'POST', unsigned, junk)).status).toBe(404);
    // a wrong method outranks the size and the signature, and says what is allowed
    const get = await rawExchange(l.port, [{ bytes: hugeHead('GET', '/') }], { stopOnResponse: true });
    expect(get.status).toBe(405);
    expect(get.data.toLowerCase()).toContain('allow: post');
    for (const method of ['PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      expect((await http.send(l.url, method, unsigned, junk)).status, method).toBe(405);
    }
    // the size outranks the signature: an unsigned oversized body is 413, not 401
    expect((await rawExchange(l.port, [{ bytes: hugeHead('POST', '/') }], { stopOnResponse: true })).status).toBe(413);
    // a bad signature outranks the contract: unsigned garbage is 401 and leaves no rejected row
    expect((await http.send(l.url, 'POST', unsigned, junk)).status).toBe(401);
    // the query string is not part of the path
    const ok = signed(PRIMARY_SECRET, testEvent());
    expect((await http.post(`${l.url}?source=svc`, ok)).json).toEqual({ status: 'stored' });
    expect(l.inspect.counts()).toEqual({ ...EMPTY, webhook_events: 1 });
  });
});

describe('signed but not acceptable: 400, kept with its raw bytes, one warning alert each', () => {
  it('keeps every kind of contract failure', async () => {
    const l = await listener();
    const valid = insuranceEvent('insurance.pick.created');
    const validText = JSON.stringify(valid);
    const invalidUtf8 = Buffer.concat([
      Buffer.from(validText.slice(0, 20)),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from(validText.slice(20)),
    ]);
    const { legs: _legs, ...noLegs } = valid;
    const cases: { name: string; body: Buffer; headers: Record<string, string> }[] = [];
    const add = (name: string, body: string | Buffer, over: Record<string, string | undefined> = {}) => {
      const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'x-svc-event': valid.event_type,
        'x-svc-event-id': valid.event_id,
        'x-svc-delivery': `delivery-${cases.length}`,
        'x-svc-signature': signBody(PRIMARY_SECRET, bytes),
      };
      for (const [k, v] of Object.entries(over)) {
        if (v === undefined) delete headers[k];
        else headers[k] = v;
      }
      cases.push({ name, body: bytes, headers });
    };
    add('not JSON', '{"event_id": ');
    add('empty body', '');
    add('invalid UTF-8', invalidUtf8);
    add('JSON but not an object', '[1,2,3]');
    add('legs missing', JSON.stringify(noLegs));
    add('event_version 2', JSON.stringify({ ...valid, event_version: 2 }));
    add('market_date not a date', JSON.stringify({ ...valid, market: { ...valid.market, market_date: '21/11/2026' } }));
    // a zone the tz database does not know, and a name that would read a file outside it
    add('market_tz no zone', JSON.stringify({ ...valid, market: { ...valid.market, market_tz: 'Mars/Olympus_Mons' } }));
    add('market_tz a path', JSON.stringify({ ...valid, market: { ...valid.market, market_tz: '../../etc/passwd' } }));
    add('header type differs from the body', validText, { 'x-svc-event': 'insurance.pick.killed' });
    add('unknown header type', validText, { 'x-svc-event': 'insurance.pick.updated' });
    add('header id differs from the body', validText, { 'x-svc-event-id': '00000000-0000-4000-8000-000000000000' });
    add('header id not a UUID', validText, { 'x-svc-event-id': 'evt_123' });
    add('no header id', validText, { 'x-svc-event-id': undefined });
    add('no delivery id', validText, { 'x-svc-delivery': undefined });
    add('no event type header', validText, { 'x-svc-event': undefined });
    const edge = edgeEvent('edge.trade.entered', { tradeId: 5 });
    add('edge body under an insurance type', JSON.stringify(edge));
    add('edge with operation HOLD', JSON.stringify({ ...edge, trade: { ...edge.trade, operation: 'HOLD' } }), {
      'x-svc-event': 'edge.trade.entered',
    });
    for (const c of cases) {
      const answer = await http.post(l.url, c);
      expect(answer.status, `${c.name}: ${answer.body}`).toBe(400);
      expect(Object.keys(answer.json ?? {}), c.name).toEqual(['error']);
    }
    const rejected = l.inspect.rejected();
    expect(rejected).toHaveLength(cases.length);
    for (const [i, row] of rejected.entries()) {
      const c = cases[i];
      expect(row.body.equals(c?.body ?? Buffer.alloc(0)), `${c?.name}: raw bytes kept`).toBe(true);
      expect(row.event_type, c?.name).toBe(c?.headers['x-svc-event'] ?? null);
      expect(row.event_id, c?.name).toBe(c?.headers['x-svc-event-id'] ?? null);
      expect(row.reason.length, c?.name).toBeGreaterThan(0);
    }
    const alerts = l.inspect.alerts();
    expect(alerts).toHaveLength(cases.length);
    for (const alert of alerts) expect(alert).toMatchObject({ severity: 'warning', kind: 'webhook-rejected' });
    expect(l.inspect.counts()).toMatchObject({ webhook_events: 0, insurance_picks: 0, edge_trades: 0 });
    // still serving
    expect((await http.post(l.url, signed(PRIMARY_SECRET, valid))).json).toEqual({ status: 'stored' });
  });

  // The edge contract (spec 6.5) has no event_id and, like every contract object here, allows extra fields: the
  // body is valid. What matters is that the extra field neither crashes the intake (it gave a 500) nor changes how
  // the edge event is identified: still by trade id and operation, so its replay is a duplicate.
  it('accepts a signed edge body with an extra non-string event_id as edge, never 500', async () => {
    const l = await listener();
    const edge = { ...edgeEvent('edge.trade.entered', { tradeId: 77 }), event_id: 12345 };
    const answer = await http.post(
      l.url,
      signed(PRIMARY_SECRET, edge, { eventId: 'a1e6c0de-1111-4222-8333-944455556666' }),
    );
    expect(answer.status, answer.body).toBe(200);
    expect(l.inspect.events().map((e) => e.identity)).toEqual(['edge:77:BUY']);
    const replay = await http.post(
      l.url,
      signed(PRIMARY_SECRET, edge, { eventId: 'b2e6c0de-1111-4222-8333-944455556666' }),
    );
    expect(replay.json).toEqual({ status: 'duplicate' });
    expect(l.inspect.counts()).toMatchObject({ webhook_events: 1, rejected_webhooks: 0 });
  });
});

describe('the 1 MiB limit', () => {
  /** A valid event padded with trailing blanks to exactly `size` bytes. */
  function padded(size: number): string {
    const text = JSON.stringify(testEvent());
    return text + ' '.repeat(size - Buffer.byteLength(text));
  }

  it('accepts a signed body of exactly 1 MiB, by Content-Length and chunked', async () => {
    const l = await listener();
    const body = padded(MAX_BODY_BYTES);
    expect(Buffer.byteLength(body)).toBe(MAX_BODY_BYTES);
    const d = signed(PRIMARY_SECRET, body);
    expect((await http.post(l.url, d)).json).toEqual({ status: 'stored' });
    const chunked = signed(PRIMARY_SECRET, padded(MAX_BODY_BYTES));
    const chunks = Buffer.from(chunked.body);
    const pieces = [0, 1, 2, 3].map((i) => chunks.subarray(i * (chunks.length / 4), (i + 1) * (chunks.length / 4)));
    const answer = await rawExchange(
      l.port,
      [
        { bytes: head('POST', '/', { ...chunked.headers, 'Transfer-Encoding': 'chunked' }) },
        ...pieces.map((p) => ({
          bytes: Buffer.concat([Buffer.from(`${p.length.toString(16)}\r\n`), p, Buffer.from('\r\n')]),
        })),
        { bytes: '0\r\n\r\n' },
      ],
      { stopOnResponse: true, waitMs: 20_000 },
    );
    expect(answer.status).toBe(200);
    const stored = l.inspect.events();
    expect(stored.map((e) => Buffer.byteLength(e.body))).toEqual([MAX_BODY_BYTES, MAX_BODY_BYTES]);
  });

  it('refuses a signed body of 1 MiB + 1 byte with 413, by Content-Length and chunked, and keeps nothing', async () => {
    const l = await listener();
    const d = signed(PRIMARY_SECRET, padded(MAX_BODY_BYTES + 1));
    const bytes = Buffer.from(d.body);
    const byLength = await rawExchange(
      l.port,
      [{ bytes: head('POST', '/', { ...d.headers, 'Content-Length': bytes.length }) }, { bytes }],
      {
        stopOnResponse: true,
      },
    );
    expect(byLength.status).toBe(413);
    const chunked = await rawExchange(
      l.port,
      [
        { bytes: head('POST', '/', { ...d.headers, 'Transfer-Encoding': 'chunked' }) },
        {
          bytes: Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n0\r\n\r\n')]),
        },
      ],
      { stopOnResponse: true },
    );
    expect(chunked.status).toBe(413);
    expect(l.inspect.counts()).toEqual(EMPTY);
  });
});

describe('when the commit fails', () => {
  it('answers 503 with {error}, keeps nothing, and stores the retry once the cache works again', async () => {
    const l = await listener();
    const writer = new Database(l.dbFile);
    try {
      writer.exec(
        "CREATE TRIGGER refuse BEFORE INSERT ON webhook_events BEGIN SELECT RAISE(ABORT, 'disk is full'); END",
      );
      const d = signed(PRIMARY_SECRET, insuranceEvent('insurance.pick.killed'));
      const failed = await http.post(l.url, d);
      expect(failed.status).toBe(503);
      expect(Object.keys(failed.json ?? {})).toEqual(['error']);
      expect(l.inspect.counts()).toEqual(EMPTY);
      writer.exec('DROP TRIGGER refuse');
      expect((await http.post(l.url, d)).json).toEqual({ status: 'stored' });
      expect(l.inspect.counts()).toMatchObject({ webhook_events: 1, insurance_picks: 1, alerts: 1 });
    } finally {
      writer.close();
    }
  });

  it('does not answer 503 for an event that was committed, nor lose its kill notification, when a change listener throws', async () => {
    const notified: string[] = [];
    const l = await listener({
      notify: async (n) => {
        notified.push(n.title);
      },
    });
    // e.g. a TUI pane subscribed to the same cache that has a bug
    const off = l.cache.onChange(() => {
      throw new Error('pane crashed');
    });
    const kill = signed(PRIMARY_SECRET, insuranceEvent('insurance.pick.killed', { city: 'chicago' }));
    const first = await http.post(l.url, kill);
    off();
    // the event is committed either way (Cache.onChange: "the data is committed either way")
    expect(l.inspect.counts().webhook_events).toBe(1);
    expect(
      first.status,
      'a committed event must be acknowledged, or its retry is a duplicate that never notifies',
    ).toBe(200);
    const retry = await http.post(l.url, kill);
    expect(retry.json).toEqual({ status: 'duplicate' });
    await new Promise((r) => setTimeout(r, 200));
    expect(notified).toEqual(['Kill · chicago']);
  });
});

describe('one poisonous signed event', () => {
  it('does not fail the events committed beside it, and is not answered 5xx', async () => {
    const l = await listener();
    // valid by the contract, plus an unknown field nested 200,000 deep (JSON.parse copes; a recursive walk does not)
    const base = JSON.stringify(insuranceEvent('insurance.pick.created'));
    const deep = `${base.slice(0, -1)},"x_extra":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    expect(Buffer.byteLength(deep)).toBeLessThan(MAX_BODY_BYTES);
    const poison = signed(PRIMARY_SECRET, deep);
    const others = Array.from({ length: 30 }, (_, i) =>
      signed(PRIMARY_SECRET, i % 2 ? testEvent() : insuranceEvent('insurance.pick.created')),
    );
    const answers = await Promise.all([poison, ...others].map((d) => http.post(l.url, d)));
    const [poisoned, ...rest] = answers;
    expect(
      rest.map((a) => a.status),
      'events that shared a commit with the poisonous one',
    ).toEqual(others.map(() => 200));
    expect(poisoned?.status, poisoned?.body).toBeLessThan(500);
  });
});

describe('close', () => {
  const openFiles = (prefix: string) =>
    readdirSync('/proc/self/fd').flatMap((fd) => {
      try {
        const target = readlinkSync(`/proc/self/fd/${fd}`);
        return target.startsWith(prefix) ? [target] : [];
      } catch {
        return [];
      }
    });

  it.runIf(process.platform === 'linux')(
    'leaves no file of the cache open once the listener and the cache are closed',
    async () => {
      const l = await startTempListener();
      expect((await http.post(l.url, signed(PRIMARY_SECRET, testEvent()))).json).toEqual({ status: 'stored' });
      await l.listener.close();
      l.inspect.close();
      l.cache.close();
      const left = openFiles(l.dbFile);
      rmSync(l.dir, { recursive: true, force: true });
      // a handle left to the garbage collector is closed with a DEP0137 warning now, an error in future Node
      expect(left).toEqual([]);
    },
  );
});
