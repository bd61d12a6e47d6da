import { describe, expect, it } from 'vitest';
import { alertSettingsOf, DEFAULT_ALERT_SETTINGS } from '../../src/alerts/alert-settings.js';
import { withoutSecrets } from '../../src/alerts/notify-command.js';
import { alertMessage, commandFailedAlert, notifies } from '../../src/alerts/trader-alerts.js';

describe('alert settings', () => {
  it('fill every default DESIGN 3 names, and keep what the config says', () => {
    expect(alertSettingsOf(undefined)).toEqual({
      edgeMin: 0.08,
      cities: 'all',
      notify: { kill: true, dying_bucket: true, edge: true, breakthrough: true },
      notifyCommand: null,
      snoozeMinutes: 60,
    });
    expect(
      alertSettingsOf({ edge_min: 0.12, cities: ['nyc'], notify: { edge: false }, notify_command: ['/bin/x', '-q'] }),
    ).toEqual({
      edgeMin: 0.12,
      cities: ['nyc'],
      notify: { kill: true, dying_bucket: true, edge: false, breakthrough: true },
      notifyCommand: ['/bin/x', '-q'],
      snoozeMinutes: 60,
    });
  });
});

describe('which alerts notify', () => {
  const settings = alertSettingsOf({ cities: ['nyc'], notify: { edge: false } });
  const none = new Set<string>();

  it('by kind, by city, and not while the city is snoozed', () => {
    expect(notifies({ kind: 'dying-bucket', city_id: 'nyc' }, settings, none)).toBe(true);
    expect(notifies({ kind: 'breakthrough', city_id: 'nyc' }, settings, none)).toBe(true);
    expect(notifies({ kind: 'edge', city_id: 'nyc' }, settings, none)).toBe(false);
    expect(notifies({ kind: 'dying-bucket', city_id: 'lon' }, settings, none)).toBe(false);
    expect(notifies({ kind: 'dying-bucket', city_id: 'nyc' }, settings, new Set(['nyc']))).toBe(false);
    expect(notifies({ kind: 'edge', city_id: 'lon' }, DEFAULT_ALERT_SETTINGS, none)).toBe(true);
  });

  it('a kill whatever the cities and snoozes, unless notify.kill is off; never a command failure', () => {
    expect(notifies({ kind: 'kill', city_id: 'lon' }, settings, new Set(['lon']))).toBe(true);
    expect(notifies({ kind: 'kill', city_id: 'nyc' }, alertSettingsOf({ notify: { kill: false } }), none)).toBe(false);
    expect(notifies({ kind: 'notify-command-failed', city_id: 'nyc' }, DEFAULT_ALERT_SETTINGS, none)).toBe(false);
    expect(notifies({ kind: 'webhook-rejected', city_id: null }, DEFAULT_ALERT_SETTINGS, none)).toBe(false);
  });
});

describe('what leaves the process', () => {
  const row = {
    id: 7,
    severity: 'info',
    kind: 'edge',
    message: 'nyc 2026-11-24: edge +17.3 points on YES 70-71°F at 0.50 on mktb (model 68.3%)',
    ref: 'nyc|2026-11-24|70-71°F|YES',
    city_id: 'nyc',
    created_at: '2026-11-24T15:00:00.000Z',
    acknowledged_at: null,
  };

  it('the notify command gets the alert row’s fields only', () => {
    expect(alertMessage(row)).toEqual({
      id: 7,
      kind: 'edge',
      severity: 'info',
      city_id: 'nyc',
      ref: 'nyc|2026-11-24|70-71°F|YES',
      created_at: '2026-11-24T15:00:00.000Z',
      message: 'nyc 2026-11-24: edge +17.3 points on YES 70-71°F at 0.50 on mktb (model 68.3%)',
    });
  });

  it('and none of the monitor’s secrets in its environment', () => {
    const env = { PATH: '/bin', SVC_API_KEY: 'k', SVC_WEBHOOK_SECRET: 's', SVC_ADMIN_TOKEN: 't', SVC_DB: '/x.db' };
    expect(withoutSecrets(env)).toEqual({ PATH: '/bin', SVC_DB: '/x.db' });
  });

  it('a failed command is an alert of its own about the alert it failed on', () => {
    const failed = commandFailedAlert(alertMessage(row), '/bin/phone exited with code 3: no signal', new Date(0));
    expect(failed).toEqual({
      severity: 'warning',
      kind: 'notify-command-failed',
      ref: '7',
      city_id: 'nyc',
      created_at: '1970-01-01T00:00:00.000Z',
      message: 'notify_command failed on the edge alert #7: /bin/phone exited with code 3: no signal',
    });
  });
});
