import type { NewAlert, RejectedWebhook } from '../cache/index.js';

/**
 * A signed delivery the listener refused (400: not JSON, not the contract) raises a warning. It is about that
 * delivery: `ref` is its delivery id and `created_at` when it arrived, which is how the Alerts pane finds the
 * kept bytes again (cache.alerts.rejectedDeliveries).
 */
export function rejectedWebhookAlert(rejected: RejectedWebhook): NewAlert {
  return {
    severity: 'warning',
    kind: 'webhook-rejected',
    ref: rejected.deliveryId,
    created_at: rejected.receivedAt,
    message: `webhook rejected (400): ${rejected.reason}`,
  };
}
