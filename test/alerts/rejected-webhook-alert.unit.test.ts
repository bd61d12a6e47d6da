import { describe, expect, it } from 'vitest';
import { rejectedWebhookAlert } from '../../src/alerts/rejected-webhook-alert.js';

describe('the rejected webhook alert rule', () => {
  it('raises a warning about the delivery, at its arrival, with the reason it was refused', () => {
    const alert = rejectedWebhookAlert({
      reason: 'body is not JSON',
      eventType: 'insurance.pick.killed',
      eventId: 'evt-1',
      deliveryId: 'del-1',
      receivedAt: '2026-11-21T10:00:00.000Z',
      body: Buffer.from('{nope'),
    });
    expect(alert).toEqual({
      severity: 'warning',
      kind: 'webhook-rejected',
      ref: 'del-1',
      created_at: '2026-11-21T10:00:00.000Z',
      message: 'webhook rejected (400): body is not JSON',
    });
  });

  it('has no ref when the delivery carried no delivery id', () => {
    const alert = rejectedWebhookAlert({ reason: 'x', receivedAt: '2026-11-21T10:00:00.000Z', body: Buffer.from('') });
    expect(alert.ref).toBeUndefined();
  });
});
