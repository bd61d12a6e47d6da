import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejectedWebhookAlert } from '../../src/alerts/rejected-webhook-alert.js';
import { openCache, type RejectedWebhook } from '../../src/cache/index.js';
import { runCli } from './run-cli.js';

const root = mkdtempSync(join(tmpdir(), 'svc-export-rejected-'));
const env = { XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config') };
const db = join(root, 'cache.db');

beforeAll(() => {
  const cache = openCache(db);
  const reject = (rejected: RejectedWebhook) => cache.inbox.reject(rejected, rejectedWebhookAlert(rejected));
  reject({ reason: 'body is not JSON', receivedAt: '2026-11-21T10:00:00.000Z', body: Buffer.from('{nope') });
  // a body that would clear the screen, with a line break, a byte that is not UTF-8 and a backslash
  const body = Buffer.concat([Buffer.from('{"a":"\u001b[2J\n'), Buffer.from([0xff]), Buffer.from('\\"}')]);
  reject({
    reason: 'body is not UTF-8 JSON',
    eventType: 'insurance.pick.killed',
    eventId: 'evt-2',
    deliveryId: 'del-2',
    receivedAt: '2026-11-21T11:30:00.000Z',
    body,
  });
  cache.close();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const exportRejected = (...args: string[]) => runCli(['export', 'rejected-webhooks', '--db', db, ...args], env);

describe('svc-monitor export rejected-webhooks', () => {
  it('prints each rejected delivery, newest first, its body as escaped text, in json, ndjson and csv', async () => {
    const ndjson = await exportRejected('--format', 'ndjson');
    expect(ndjson.code, ndjson.stderr).toBe(0);
    expect(ndjson.stdout).toBe(
      [
        String.raw`{"id":2,"received_at":"2026-11-21T11:30:00.000Z","reason":"body is not UTF-8 JSON","event_type":"insurance.pick.killed","event_id":"evt-2","delivery_id":"del-2","body":"{\"a\":\"\\u{1b}[2J\\n\\xff\\\\\"}"}`,
        `{"id":1,"received_at":"2026-11-21T10:00:00.000Z","reason":"body is not JSON","event_type":null,"event_id":null,"delivery_id":null,"body":"{nope"}`,
        '',
      ].join('\n'),
    );
    const json = await exportRejected();
    expect(JSON.parse(json.stdout)).toEqual(
      ndjson.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    );
    const csv = await exportRejected('--format', 'csv');
    expect(csv.stdout).toBe(
      [
        'id,received_at,reason,event_type,event_id,delivery_id,body',
        String.raw`2,2026-11-21T11:30:00.000Z,body is not UTF-8 JSON,insurance.pick.killed,evt-2,del-2,"{""a"":""\u{1b}[2J\n\xff\\""}"`,
        '1,2026-11-21T10:00:00.000Z,body is not JSON,,,,{nope',
        '',
      ].join('\r\n'),
    );
    // nothing of the body reaches a terminal as a control character, whatever the format
    for (const out of [ndjson.stdout, json.stdout, csv.stdout]) {
      expect(out).not.toContain('\u001b');
      expect(out).not.toContain('\ufffd'); // nor a byte replaced by what a decoder made of it
    }
  });

  it('filters on received_at; --city does not apply (exit 2)', async () => {
    const since = await exportRejected('--since', '2026-11-21T11:00:00Z', '--format', 'ndjson');
    expect(
      since.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual([2]);
    const until = await exportRejected('--until', '2026-11-21T10:00:00Z', '--format', 'ndjson');
    expect(
      until.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual([1]);
    const city = await exportRejected('--city', 'nyc');
    expect(city.code).toBe(2);
    expect(city.stderr.trim()).toBe('svc-monitor: --city does not apply to rejected-webhooks: they have no city');
  });
});
