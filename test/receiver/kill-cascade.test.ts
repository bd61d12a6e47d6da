import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { INBOX_ALERT_RULES } from '../../src/alerts/kill-alert.js';
import type { DesktopNotification } from '../../src/alerts/notifier.js';
import type { ChangeEvent } from '../../src/cache/index.js';
import { parseDelivery } from '../../src/receiver/parse-delivery.js';
import { httpClient, startTempListener, type TempListener, waitUntil } from '../helpers/listener-harness.js';
import { insuranceEvent, leg, PRIMARY_SECRET, signed, testEvent } from '../helpers/webhook-events.js';

/**
 * A kill echoes the primary's legs A and B only; the hedge leg C of its addon loses with them. Whatever the order
 * the events arrive in, the addon ends killed, the alert and the desktop notification name leg C, and each kill is
 * announced once. Also: a webhook.test committed in the same group as a kill does not silence the kill's change
 * events (it has no trade to read).
 */

const http = httpClient();
let l: TempListener | undefined;
afterEach(async () => {
  await l?.close();
  l = undefined;
});

async function listenerWithNotifications() {
  const shown: DesktopNotification[] = [];
  l = await startTempListener({
    notify: async (n) => {
      shown.push(n);
    },
  });
  return { l, shown };
}

async function deliver(t: TempListener, event: object) {
  const answer = await http.post(t.url, signed(PRIMARY_SECRET, event));
  expect(answer.status, answer.body).toBe(200);
}

const status = (t: TempListener, pickId: string) =>
  t.inspect.db.prepare('SELECT status FROM insurance_picks WHERE pick_id = ?').pluck().get(pickId);
const killAlerts = (t: TempListener) =>
  t.inspect.db.prepare("SELECT ref, message FROM alerts WHERE kind = 'kill' ORDER BY id").all() as {
    ref: string;
    message: string;
  }[];

describe('a kill and the addons of its pick', () => {
  it('kills the open addon with its parent and names leg C in the alert and the notification', async () => {
    const { l: t, shown } = await listenerWithNotifications();
    const pick = randomUUID();
    const addon = randomUUID();
    await deliver(t, insuranceEvent('insurance.pick.created', { pickId: pick }));
    await deliver(
      t,
      insuranceEvent('insurance.addon.created', { pickId: addon, parentPickId: pick, legs: [leg('C', 70)] }),
    );
    expect(status(t, addon)).toBe('open');
    await deliver(t, insuranceEvent('insurance.pick.killed', { pickId: pick, createdAt: '2026-11-21T19:00:00Z' }));

    expect(status(t, pick)).toBe('killed');
    expect(status(t, addon)).toBe('killed');
    const alerts = killAlerts(t);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.message).toMatch(/legs A 64-65°F, B 66-67°F, C 70-71°F/);
    await waitUntil('a notification', () => (shown.length > 0 ? shown : undefined));
    expect(shown).toHaveLength(1);
    expect(shown[0]?.message).toMatch(/^SELL AT MARKET: legs A 64-65°F, B 66-67°F, C 70-71°F\./);
  });

  it('an addon that arrives after its parent was killed is born killed, with its own alert and notification', async () => {
    const { l: t, shown } = await listenerWithNotifications();
    const pick = randomUUID();
    const addon = randomUUID();
    await deliver(t, insuranceEvent('insurance.pick.killed', { pickId: pick, reason: 'every leg loses' }));
    await waitUntil('the kill notification', () => (shown.length === 1 ? shown : undefined));
    await deliver(
      t,
      insuranceEvent('insurance.addon.created', { pickId: addon, parentPickId: pick, legs: [leg('C', 70)] }),
    );

    expect(status(t, addon)).toBe('killed');
    const alerts = killAlerts(t);
    expect(alerts.map((a) => a.ref)).toEqual([pick, addon]);
    expect(alerts[1]?.message).toMatch(/SELL AT MARKET: legs C 70-71°F\. every leg loses/);
    await waitUntil('the addon notification', () => (shown.length === 2 ? shown : undefined));
    expect(shown[1]?.message).toMatch(/^SELL AT MARKET: legs C 70-71°F\./);
    // the late primary `created` neither reopens anything nor raises another alert
    await deliver(t, insuranceEvent('insurance.pick.created', { pickId: pick }));
    expect(status(t, pick)).toBe('killed');
    expect(killAlerts(t)).toHaveLength(2);
  });

  it('announces a kill committed in the same group as a webhook.test', async () => {
    l = await startTempListener();
    const heard: ChangeEvent[] = [];
    l.cache.onChange((event) => heard.push(event));
    const pick = randomUUID();
    // one group, as the listener commits concurrent deliveries: built by the receiver's own parser
    const entries = [testEvent(), insuranceEvent('insurance.pick.killed', { pickId: pick })].map((event) => {
      const delivery = signed(PRIMARY_SECRET, event);
      const parsed = parseDelivery(delivery.headers, Buffer.from(delivery.body), '2026-11-21T19:00:00.000Z');
      if (!parsed.ok) throw new Error(parsed.reason);
      return parsed.entry;
    });
    expect(l.cache.inbox.intake(entries, INBOX_ALERT_RULES)).toEqual(['stored', 'stored']);
    const tables = heard.map((e) => e.table);
    expect(tables).toEqual(['webhook-events', 'insurance-picks', 'alerts']);
    expect(heard.find((e) => e.table === 'insurance-picks')?.ids).toEqual([pick]);
  });
});
