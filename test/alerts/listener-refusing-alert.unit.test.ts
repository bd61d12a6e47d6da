import { describe, expect, it } from 'vitest';
import { listenerRefusingAlert, refusingNotification } from '../../src/alerts/listener-refusing-alert.js';
import type { RefusalRun } from '../../src/cache/index.js';

/** A signature refusal at `at` (ISO, UTC), of `type`. */
const refusal = (at: string, type: string | null = 'insurance.pick.killed') => ({
  cause: 'signature' as const,
  receivedAt: at,
  receivedMs: Date.parse(at),
  eventType: type,
});
const run = (refusals: RefusalRun['refusals'], alerted = false): RefusalRun => ({ refusals, alerted });

describe('three signature refusals within 10 minutes, none verified between them (DESIGN 4)', () => {
  it('raises nothing for two', () => {
    expect(
      listenerRefusingAlert(run([refusal('2026-11-21T12:00:00Z'), refusal('2026-11-21T12:00:05Z')])),
    ).toBeUndefined();
  });

  it('raises one at the third, stamped with it, naming the count and its event type', () => {
    // 12:00:00, 12:04:00, 12:10:00: the third is exactly 10 minutes after the first, within
    const alert = listenerRefusingAlert(
      run([
        refusal('2026-11-21T12:00:00Z'),
        refusal('2026-11-21T12:04:00Z'),
        refusal('2026-11-21T12:10:00Z', 'webhook.test'),
      ]),
    );
    expect(alert).toEqual({
      severity: 'high',
      kind: 'listener-refusing',
      created_at: '2026-11-21T12:10:00Z',
      message:
        'webhook listener refusing: 3 deliveries refused for their signature within 10 minutes (the last ' +
        "webhook.test); the configured webhook secret does not match the service's, kills are not arriving",
    });
  });

  it('does not raise for three spread over more than 10 minutes', () => {
    // 12:10:01 is 10 min 1 s after 12:00:00
    const spread = [refusal('2026-11-21T12:00:00Z'), refusal('2026-11-21T12:05:00Z'), refusal('2026-11-21T12:10:01Z')];
    expect(listenerRefusingAlert(run(spread))).toBeUndefined();
    // a fourth at 12:14:00: 12:05:00, 12:10:01, 12:14:00 span 9 min: raised at 12:14, three in the 10 minutes up to it
    // (12:00:00 is 14 minutes before)
    const alert = listenerRefusingAlert(run([...spread, refusal('2026-11-21T12:14:00Z', null)]));
    expect(alert?.created_at).toBe('2026-11-21T12:14:00Z');
    expect(alert?.message).toContain(
      ': 3 deliveries refused for their signature within 10 minutes (the last no X-Svc-Event header)',
    );
  });

  it('counts every refusal in the 10 minutes up to the one that made it true', () => {
    // four at the same second: the third makes it true, the count is the three up to it
    const alert = listenerRefusingAlert(
      run([
        refusal('2026-11-21T12:00:00Z'),
        refusal('2026-11-21T12:00:00Z'),
        refusal('2026-11-21T12:00:00Z'),
        refusal('2026-11-21T12:00:00Z'),
      ]),
    );
    expect(alert?.message).toContain('refusing: 3 deliveries');
  });

  it('raises no second one while the run has had its alert (no delivery verified since)', () => {
    const many = ['12:00:00', '12:00:01', '12:00:02', '12:00:03'].map((t) => refusal(`2026-11-21T${t}Z`));
    expect(listenerRefusingAlert(run(many, true))).toBeUndefined();
  });

  it('a verified delivery starts a new run: the cache hands only the refusals after it, and three raise again', () => {
    // refusals at 12:00, 12:01 before a verified delivery at 12:02 are not in the run; 12:03, 12:04 alone are two
    expect(
      listenerRefusingAlert(run([refusal('2026-11-21T12:03:00Z'), refusal('2026-11-21T12:04:00Z')])),
    ).toBeUndefined();
    const third = listenerRefusingAlert(
      run([refusal('2026-11-21T12:03:00Z'), refusal('2026-11-21T12:04:00Z'), refusal('2026-11-21T12:05:00Z')]),
    );
    expect(third?.created_at).toBe('2026-11-21T12:05:00Z');
  });

  it('is notified as a kill: a title of its own and the message without its lead', () => {
    expect(refusingNotification({ message: 'webhook listener refusing: 3 deliveries refused' })).toEqual({
      title: 'Webhook listener refusing',
      message: '3 deliveries refused',
    });
  });
});

describe('three replay refusals within 10 minutes, none verified between them: a listener on the wrong clock', () => {
  const replay = (at: string) => ({ ...refusal(at, 'webhook.test'), cause: 'replay' as const });
  const replayMessage =
    'webhook listener refusing: 3 deliveries refused as replays: their created_at is more than 24 h older than ' +
    "the clock this listener knows (the service's, or this machine's when no sync has run); run `svc-monitor sync` " +
    "against the service, or check the service's clock";

  it('raises one at the third, naming the cause and what to do', () => {
    // 12:00, 12:05, 12:09:59: within 10 minutes of the first
    const alert = listenerRefusingAlert(
      run([replay('2026-11-21T12:00:00Z'), replay('2026-11-21T12:05:00Z'), replay('2026-11-21T12:09:59Z')]),
    );
    expect(alert).toEqual({
      severity: 'high',
      kind: 'listener-refusing',
      created_at: '2026-11-21T12:09:59Z',
      message: replayMessage,
    });
  });

  it('counts each cause apart: two replays and two signature refusals raise nothing', () => {
    const mixed = [
      replay('2026-11-21T12:00:00Z'),
      refusal('2026-11-21T12:00:01Z'),
      replay('2026-11-21T12:00:02Z'),
      refusal('2026-11-21T12:00:03Z'),
    ];
    expect(listenerRefusingAlert(run(mixed))).toBeUndefined();
    // a third signature refusal at 12:00:04: the signature alert, replays left out of its count
    const alert = listenerRefusingAlert(run([...mixed, refusal('2026-11-21T12:00:04Z')]));
    expect(alert?.message).toContain('refusing: 3 deliveries refused for their signature');
  });

  it('one alert a run, whichever cause raised it', () => {
    const three = [replay('2026-11-21T12:00:00Z'), replay('2026-11-21T12:00:01Z'), replay('2026-11-21T12:00:02Z')];
    expect(listenerRefusingAlert(run(three, true))).toBeUndefined();
  });
});
