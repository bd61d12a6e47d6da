import { describe, expect, it } from 'vitest';
import { listenerDownAlert } from '../../src/alerts/listener-down-alert.js';

describe('the listener-down alert rule', () => {
  it('raises a warning naming the port and why the listener could not start', () => {
    const at = new Date('2026-11-21T10:00:00.000Z');
    expect(listenerDownAlert(8788, new Error('listen EADDRINUSE: address already in use'), at)).toEqual({
      severity: 'warning',
      kind: 'listener-down',
      message: 'webhook listener could not start on port 8788: listen EADDRINUSE: address already in use',
      created_at: '2026-11-21T10:00:00.000Z',
    });
    expect(listenerDownAlert(0, 'no secret', at).message).toBe('webhook listener could not start on port 0: no secret');
  });
});
