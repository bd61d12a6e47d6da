import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { signBody } from '../../src/domain/signature.js';
import { httpClient, startTempListener, type TempListener } from '../helpers/listener-harness.js';
import {
  edgeEvent,
  insuranceEvent,
  leg,
  PREVIOUS_SECRET,
  PRIMARY_SECRET,
  STRANGER_SECRET,
  signed,
  testEvent,
} from '../helpers/webhook-events.js';

/**
 * Spec 6.3: the signature is HMAC-SHA256 over the raw request bytes, not re-serialised JSON. Bodies here are
 * written the way no JSON.stringify writes them (keys reordered, whitespace, `\u001B` in upper case, raw U+2028,
 * emoji), so a receiver that verified or stored a re-serialisation would fail them.
 */

const http = httpClient();
const running: TempListener[] = [];
afterEach(async () => {
  for (const l of running.splice(0)) await l.close();
});
afterAll(() => http.close());

async function listener(secrets = [PRIMARY_SECRET]) {
  const l = await startTempListener({ secrets });
  running.push(l);
  return l;
}

/** JSON with keys in reverse order, blank space everywhere, and escapes as the given writer chose them. */
function unusual(value: unknown, depth = 0): string {
  const pad = `\n${'\t '.repeat(depth + 1)}`;
  if (Array.isArray(value)) return `[ ${value.map((v) => unusual(v, depth + 1)).join(' ,\r\n ')} ]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).reverse();
    return `{${entries.map(([k, v]) => `${pad}${JSON.stringify(k)}  :\t${unusual(v, depth + 1)}`).join(' ,')}\n}  `;
  }
  if (typeof value === 'string') {
    // JSON.stringify writes \u001b in lower case and leaves U+2028 and emoji raw: upper-case the escape
    return JSON.stringify(value).replaceAll('\\u001b', '\\u001B');
  }
  return JSON.stringify(value);
}

const ESC = '\u001B';
const LS = '\u2028';
const EMOJI = '🌡️🔥';

function hostileBodies() {
  const killed = insuranceEvent('insurance.pick.killed', {
    reason: `${ESC}[31mMETAR high${ESC}[0m ${EMOJI} above${LS}every leg`,
    legs: [leg('A', 64, { bucket_label: `64-65°F ${EMOJI}` }), leg('B', 66)],
  });
  const created = insuranceEvent('insurance.pick.created', {
    legs: [leg('A', 40, { bucket_label: `40-41°F${LS}` }), leg('B', 42, { bucket_slug: `42-43f${ESC}` })],
  });
  const entered = edgeEvent('edge.trade.entered', { tradeId: 9_001, reason: `edge ${EMOJI}${LS}${ESC}` });
  const test = testEvent({ message: `hello ${ESC}[1m${EMOJI}${LS}` });
  return [killed, created, entered, test].map((event) => ({ event, text: unusual(event) }));
}

describe('exact bytes', () => {
  it('verifies and stores the bytes exactly as sent, whatever their layout and escapes', async () => {
    const l = await listener();
    const sent = hostileBodies();
    for (const { text } of sent) {
      // the writer really differs from JSON.stringify, and the text is valid JSON
      expect(text).not.toBe(JSON.stringify(JSON.parse(text)));
      expect(text).toMatch(/\\u001B/);
    }
    const deliveries = sent.map(({ text }) => signed(PRIMARY_SECRET, text));
    for (const d of deliveries) {
      const answer = await http.post(l.url, d);
      expect(answer.status, answer.body).toBe(200);
      expect(answer.json).toEqual({ status: 'stored' });
    }
    const stored = l.inspect.events();
    expect(stored.map((e) => e.event_id)).toEqual(deliveries.map((d) => d.eventId.toLowerCase()));
    for (const [i, row] of stored.entries()) {
      const d = deliveries[i];
      expect(row.body).toBe(d?.body);
      expect(Buffer.from(row.body, 'utf8').equals(Buffer.from(d?.body ?? '', 'utf8'))).toBe(true);
    }
    // what the export gives back is the payload as sent, escape sequences decoded
    const exported = l.cache.export.rows('webhook-events').map((r) => JSON.parse(r));
    const kill = exported.find((e) => e.event_type === 'insurance.pick.killed');
    expect(kill.payload.kill.reason).toBe(`${ESC}[31mMETAR high${ESC}[0m ${EMOJI} above${LS}every leg`);
  });

  it('refuses the same event re-serialised or with one byte changed under the original signature (401, nothing kept)', async () => {
    const l = await listener();
    const variants: { name: string; body: string; signature: string; eventId: string; type: string }[] = [];
    for (const { event, text } of hostileBodies()) {
      const signature = signBody(PRIMARY_SECRET, text);
      const id = (event as { event_id?: string }).event_id ?? '9b2f3c1e-0000-4000-8000-000000000001';
      const type = (event as { event_type: string }).event_type;
      const add = (name: string, body: string) => {
        expect(body, name).not.toBe(text);
        variants.push({ name, body, signature, eventId: id, type });
      };
      add('JSON.stringify of it', JSON.stringify(JSON.parse(text)));
      add('pretty-printed', JSON.stringify(JSON.parse(text), null, 2));
      add('escape in lower case', text.replace('\\u001B', '\\u001b'));
      add('a tab for a space', text.replace(' ', '\t'));
      add('one trailing space fewer', text.replace(/ $/, ''));
      add('a newline more', `${text}\n`);
      add('U+2028 escaped', text.replace(LS, '\\u2028'));
      // flip single bytes across the whole body: each is a different byte string with the old signature
      const bytes = Buffer.from(text, 'utf8');
      for (const at of [0, 1, Math.floor(bytes.length / 3), Math.floor(bytes.length / 2), bytes.length - 2]) {
        const copy = Buffer.from(bytes);
        copy[at] = (copy[at] ?? 0) ^ 0x01;
        add(`byte ${at} flipped`, copy.toString('latin1'));
      }
    }
    for (const v of variants) {
      const bytes = v.name.startsWith('byte ') ? Buffer.from(v.body, 'latin1') : Buffer.from(v.body, 'utf8');
      const answer = await http.post(l.url, {
        body: bytes,
        headers: {
          'content-type': 'application/json',
          'x-svc-event': v.type,
          'x-svc-event-id': v.eventId,
          'x-svc-delivery': 'd-1',
          'x-svc-signature': v.signature,
        },
      });
      expect(answer.status, v.name).toBe(401);
      expect(Object.keys(answer.json ?? {}), v.name).toEqual(['error']);
    }
    expect(l.inspect.counts()).toEqual({
      webhook_events: 0,
      rejected_webhooks: 0,
      insurance_picks: 0,
      edge_trades: 0,
      alerts: 0,
    });
    expect(l.listener.counts.rejected).toBe(variants.length);
  });

  it('keeps a leading byte order mark if it accepts one (the stored body is the bytes received)', async () => {
    const l = await listener();
    const text = `\uFEFF${JSON.stringify(testEvent())}`;
    const d = signed(PRIMARY_SECRET, text, { eventId: JSON.parse(text.slice(1)).event_id, eventType: 'webhook.test' });
    const answer = await http.post(l.url, d);
    if (answer.status === 200) {
      const [row] = l.inspect.events();
      // accepted means kept as received: the BOM is part of the signed bytes
      expect(row?.body.charCodeAt(0), 'stored body lost its leading BOM').toBe(0xfeff);
      expect(row?.body).toBe(text);
    } else {
      expect(answer.status).toBe(400);
      expect(l.inspect.rejected()[0]?.body.equals(Buffer.from(text, 'utf8'))).toBe(true);
    }
  });
});

describe('secret rotation', () => {
  it('accepts either configured secret and refuses a third', async () => {
    const l = await listener([PRIMARY_SECRET, PREVIOUS_SECRET]);
    const byPrimary = signed(PRIMARY_SECRET, testEvent());
    const byPrevious = signed(PREVIOUS_SECRET, insuranceEvent('insurance.pick.created'));
    const byStranger = signed(STRANGER_SECRET, testEvent());
    // a signature of the right shape made with the right secret over other bytes
    const crossed = { ...signed(PRIMARY_SECRET, testEvent()) };
    crossed.headers = { ...crossed.headers, 'x-svc-signature': byPrimary.headers['x-svc-signature'] as string };
    expect((await http.post(l.url, byPrimary)).json).toEqual({ status: 'stored' });
    expect((await http.post(l.url, byPrevious)).json).toEqual({ status: 'stored' });
    expect((await http.post(l.url, byStranger)).status).toBe(401);
    expect((await http.post(l.url, crossed)).status).toBe(401);
    expect(l.inspect.events().map((e) => e.event_id)).toEqual([byPrimary.eventId, byPrevious.eventId]);
    expect(l.inspect.counts().rejected_webhooks).toBe(0);
  });

  it('a listener configured with only the new secret refuses the old one', async () => {
    const l = await listener([PRIMARY_SECRET]);
    expect((await http.post(l.url, signed(PREVIOUS_SECRET, testEvent()))).status).toBe(401);
    expect(l.inspect.counts().webhook_events).toBe(0);
  });
});
