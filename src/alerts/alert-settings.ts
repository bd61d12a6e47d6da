import type { AlertsConfig, NotifyKind } from '../contract/config.js';

/** The config's `alerts` (DESIGN 3) with every default filled in: what the rules and the notifiers read. */
export interface AlertSettings {
  /** The effective edge (dollars a share) at which a city-day's edge alert is raised. */
  edgeMin: number;
  /** The cities whose alerts may raise a notification; every alert is stored whatever this says. */
  cities: 'all' | readonly string[];
  /** Which kinds raise a desktop notification. */
  notify: Record<NotifyKind, boolean>;
  /** Run without a shell for each alert that notifies, the alert as JSON on its stdin; null: none. */
  notifyCommand: readonly string[] | null;
  snoozeMinutes: number;
}

export const DEFAULT_ALERT_SETTINGS: AlertSettings = {
  edgeMin: 0.08,
  cities: 'all',
  notify: { kill: true, dying_bucket: true, edge: true, breakthrough: true },
  notifyCommand: null,
  snoozeMinutes: 60,
};

/** The settings of a checked config's `alerts` (absent keys take their default). */
export function alertSettingsOf(config: AlertsConfig | undefined): AlertSettings {
  const d = DEFAULT_ALERT_SETTINGS;
  const notify = (config?.notify ?? {}) as Partial<Record<NotifyKind, boolean>>;
  return {
    edgeMin: config?.edge_min ?? d.edgeMin,
    cities: config?.cities ?? d.cities,
    notify: {
      kill: notify.kill ?? d.notify.kill,
      dying_bucket: notify.dying_bucket ?? d.notify.dying_bucket,
      edge: notify.edge ?? d.notify.edge,
      breakthrough: notify.breakthrough ?? d.notify.breakthrough,
    },
    notifyCommand: config?.notify_command ?? d.notifyCommand,
    snoozeMinutes: config?.snooze_minutes ?? d.snoozeMinutes,
  };
}
