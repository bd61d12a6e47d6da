import type { Setting, SettingSource } from '../../contract/status.js';
import { shownAddress } from '../../domain/shown-address.js';
import { DEFAULT_HISTORY_HOURS, DEFAULT_INTERVALS_MS, POLLED_STREAMS } from '../../domain/streams.js';
import type { Connection } from '../config.js';

/**
 * The config in force, each value with where it came from (DESIGN 3 `status`): `--db`, a variable, the config file
 * or the default. The key is `set` or `not set` and the webhook secrets a count: never a character of either. An
 * address that carries a user, a password or a query shows them as `…` (a token can hide there).
 */
export function settingsInForce(connection: Connection, db: string | undefined, env: NodeJS.ProcessEnv): Setting[] {
  const file = connection.fileSettings ?? {};
  const fromFile = (set: boolean): SettingSource => (set ? 'config file' : 'default');
  const given = (name: string) => env[name] !== undefined && env[name] !== '';
  const secrets = connection.webhookSecrets.length;
  const alerts = connection.alerts;
  const fileAlerts = file.alerts ?? {};
  const settings: Setting[] = [
    {
      key: 'base_url',
      value: connection.baseUrl === undefined ? null : shownAddress(connection.baseUrl),
      from: connection.baseUrl === undefined ? 'not set' : variableOrFile(connection.baseUrlFrom, 'SVC_BASE_URL'),
    },
    {
      key: 'api_key',
      value: connection.apiKey === undefined ? 'not set' : 'set',
      from: connection.apiKey === undefined ? 'not set' : variableOrFile(connection.apiKeyFrom, 'SVC_API_KEY'),
    },
    { key: 'auth', value: connection.auth, from: fromFile(file.auth !== undefined) },
    {
      key: 'webhook_secrets',
      value: secrets === 0 ? 'not set' : `${secrets} set`,
      from: secrets === 0 ? 'not set' : given('SVC_WEBHOOK_SECRET') ? 'SVC_WEBHOOK_SECRET' : 'config file',
    },
    {
      key: 'db',
      value: connection.dbPath,
      from: db !== undefined ? '--db' : given('SVC_DB') ? 'SVC_DB' : 'default',
    },
    ...POLLED_STREAMS.map(
      (stream): Setting => ({
        key: `intervals.${stream}`,
        value: (connection.intervals[stream] ?? DEFAULT_INTERVALS_MS[stream]) / 1000,
        from: fromFile(file.intervals?.[stream] !== undefined),
      }),
    ),
    {
      key: 'history_hours',
      value: connection.historyHours ?? DEFAULT_HISTORY_HOURS,
      from: fromFile(file.history_hours !== undefined),
    },
    { key: 'alerts.edge_min', value: alerts.edgeMin, from: fromFile(fileAlerts.edge_min !== undefined) },
    {
      key: 'alerts.cities',
      value: alerts.cities === 'all' ? 'all' : alerts.cities.join(', '),
      from: fromFile(fileAlerts.cities !== undefined),
    },
    {
      key: 'alerts.notify',
      value:
        Object.entries(alerts.notify)
          .filter(([, on]) => on)
          .map(([kind]) => kind)
          .join(', ') || 'none',
      from: fromFile(fileAlerts.notify !== undefined),
    },
    {
      // the program only: its arguments may carry a token
      key: 'alerts.notify_command',
      value: alerts.notifyCommand?.[0] ?? null,
      from: fromFile(fileAlerts.notify_command !== undefined),
    },
    {
      key: 'alerts.snooze_minutes',
      value: alerts.snoozeMinutes,
      from: fromFile(fileAlerts.snooze_minutes !== undefined),
    },
    {
      key: 'retention.detail_days',
      value: connection.detailDays,
      from: fromFile(file.retention?.detail_days !== undefined),
    },
    {
      key: 'settlement',
      value: settlementText(connection.settlement ?? {}),
      from: fromFile(Object.keys(file.settlement ?? {}).length > 0),
    },
  ];
  return settings;
}

/** No flag sets the service for `status`: a value came from its variable or from the config file. */
function variableOrFile(from: string, variable: SettingSource): SettingSource {
  return from === variable ? variable : 'config file';
}

/** `metar_c`, or `metar_c; whole_f: chicago, nyc` when the config names cities. */
function settlementText(settlement: Readonly<Record<string, string>>): string {
  const wholeF = Object.entries(settlement)
    .filter(([, rule]) => rule === 'whole_f')
    .map(([city]) => city)
    .sort();
  return wholeF.length === 0 ? 'metar_c' : `metar_c; whole_f: ${wholeF.join(', ')}`;
}

/** The address as shown (domain/shown-address.ts). */
export { shownAddress };
