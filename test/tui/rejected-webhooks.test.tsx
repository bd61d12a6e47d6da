import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { startTempListener, type TempListener } from '../helpers/listener-harness.js';
import { PRIMARY_SECRET } from '../helpers/webhook-events.js';
import { KEYS, LIVE, lines, renderTui, statusSource } from './fixtures.js';

let l: TempListener;
/** What the service's signature header carried: never to be shown. */
let signature = '';
const EVENT_ID = randomUUID();
const DELIVERY_ID = randomUUID();

/**
 * A signed delivery whose body is not UTF-8 JSON and holds what a terminal would obey: an OSC 52 (write the
 * clipboard), a clear-screen, a bell, a line break and a byte that is not UTF-8.
 */
const BODY = Buffer.concat([
  Buffer.from('{"event_type":"insurance.pick.killed",\n"note":"\u001b]52;c;cHduZWQ=\u0007\u001b[2J'),
  Buffer.from([0xff]),
  Buffer.from('"}'),
]);
const ESCAPED = String.raw`{"event_type":"insurance.pick.killed",\n"note":"\u{1b}]52;c;cHduZWQ=\u{7}\u{1b}[2J\xff"}`;

beforeAll(async () => {
  l = await startTempListener();
  signature = `sha256=${createHmac('sha256', PRIMARY_SECRET).update(BODY).digest('hex')}`;
  const response = await fetch(l.url, {
    method: 'POST',
    body: BODY,
    headers: {
      'content-type': 'application/json',
      'x-svc-event': 'insurance.pick.killed',
      'x-svc-event-id': EVENT_ID,
      'x-svc-delivery': DELIVERY_ID,
      'x-svc-signature': signature,
    },
  });
  expect(response.status).toBe(400);
});
afterAll(() => l?.close());

describe('rejected webhooks in the Alerts pane', () => {
  it('list the rejection with its time and reason; Enter shows the delivery and its body as escaped text', async () => {
    const [rejected] = l.inspect.db.prepare('SELECT reason, received_at FROM rejected_webhooks').all() as {
      reason: string;
      received_at: string;
    }[];
    expect(rejected).toBeDefined();
    const { reason, received_at: receivedAt } = rejected as { reason: string; received_at: string };
    const app = await renderTui(<MonitorApp cache={l.cache} source={statusSource(LIVE)} now={() => new Date()} />);
    await app.pane('4');
    const list = lines(await app.until((f) => f.includes('REJECTED'), 'the rejection listed')).find((row) =>
      row.includes('REJECTED'),
    );
    expect(list).toContain('!  REJECTED');
    expect(list).toContain(`${receivedAt.slice(5, 10)} ${receivedAt.slice(11, 16)}Z`);
    expect(list).toContain(`webhook rejected (400): ${reason}`.slice(0, 60));

    // the detail, once the key has been handled and drawn (a fixed pause is not enough on a loaded machine)
    await app.press(KEYS.enter);
    const detail = lines(await app.until((f) => f.includes('rejected delivery'), 'the rejection in full'));
    expect(detail).toContain('rejected delivery');
    expect(detail).toContain(`received ${receivedAt}`);
    expect(detail).toContain(`reason   ${reason}`);
    expect(detail).toContain(`event    insurance.pick.killed  ${EVENT_ID}`);
    expect(detail).toContain(`delivery ${DELIVERY_ID}`);
    expect(detail).toContain(
      `body     ${BODY.length} bytes, escaped: \\n \\t \\xff \\u{1b} stand for what is not shown`,
    );
    expect(detail).toContain(`  ${ESCAPED}`);
    // none of it reaches the terminal as itself, and neither the secret nor the signature is anywhere
    for (const frame of app.frames) {
      expect(frame).not.toContain('\u001b]52');
      expect(frame).not.toContain('\u001b[2J');
      expect(frame).not.toContain('\u0007');
      expect(frame).not.toContain(PRIMARY_SECRET);
      expect(frame).not.toContain(signature.slice(7, 30));
    }
    app.unmount();
  });
});
