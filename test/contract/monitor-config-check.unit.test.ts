import { readFileSync } from 'node:fs';
import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import { GENERATED, monitorConfigCheckModule } from '../../scripts/config-check.js';
import { MonitorConfig } from '../../src/contract/config.js';
import { Check } from '../../src/contract/monitor-config-check.generated.js';

/**
 * The config file's check written out ahead of time (scripts/config-check.ts) is TypeBox's own for today's schema:
 * the file is what the script writes now, and it says yes and no where TypeBox's compiled validator does.
 */
describe('the generated check of the config file', () => {
  it('is what `npm run generate` writes for the schema of today (run it after changing contract/config.ts)', () => {
    expect(readFileSync(GENERATED, 'utf8')).toBe(monitorConfigCheckModule());
  });

  it('takes and refuses what TypeBox takes and refuses', () => {
    const typebox = Compile(MonitorConfig);
    const configs: [unknown, boolean][] = [
      [{}, true],
      [
        {
          base_url: 'https://svc.example/api/public/v1',
          api_key: 'k',
          auth: 'bearer',
          webhook_secrets: ['a', 'b'],
          intervals: { current: 60, 'svc-max-picks': 86_400, daily: 1 },
          history_hours: 720,
          alerts: {
            edge_min: 0.08,
            cities: ['nyc'],
            notify: { kill: true, dying_bucket: false, edge: true, breakthrough: false },
            notify_command: ['notify-send', 'svc'],
            snooze_minutes: 1440,
          },
          settlement: { nyc: 'whole_f', london: 'metar_c' },
        },
        true,
      ],
      [{ alerts: { cities: 'all', notify_command: null } }, true],
      [null, false],
      [[], false],
      ['{}', false],
      [{ api_kye: 'k' }, false],
      [{ base_url: '' }, false],
      [{ auth: 'basic' }, false],
      [{ webhook_secrets: [''] }, false],
      [{ intervals: { current: 0 } }, false],
      [{ intervals: { current: 86_401 } }, false],
      [{ intervals: { nope: 60 } }, false],
      [{ history_hours: 1.5 }, false],
      [{ history_hours: 721 }, false],
      [{ alerts: { edge_min: 0 } }, false],
      [{ alerts: { edge_min: 1 } }, false],
      [{ alerts: { cities: 'some' } }, false],
      [{ alerts: { notify: { kill: 'yes' } } }, false],
      [{ alerts: { notify: { mute: true } } }, false],
      [{ alerts: { notify_command: [] } }, false],
      [{ alerts: { snooze_minutes: 0 } }, false],
      [{ settlement: { nyc: 'whole_c' } }, false],
      [{ settlement: [] }, false],
    ];
    for (const [config, valid] of configs) {
      expect(typebox.Check(config), JSON.stringify(config)).toBe(valid);
      expect(Check(config), JSON.stringify(config)).toBe(valid);
    }
  });
});
