import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ConfigHome {
  dir: string;
  /** XDG_DATA_HOME and XDG_CONFIG_HOME of this home, for the CLI's environment. */
  env: { XDG_DATA_HOME: string; XDG_CONFIG_HOME: string };
  /** The config file, `<config>/svc-monitor/config.json`. */
  file: string;
  /** A cache path of this home, for `--db`. */
  db: string;
}

/**
 * Homes for CLI tests under `root`, each of its own with `config` as its config file (JSON unless a string is given,
 * which is written as it is) at `mode`; the config folder is 0700, as the CLI asks.
 */
export function configHomes(root: string): (config: unknown, mode?: number) => ConfigHome {
  let homes = 0;
  return (config, mode = 0o600) => {
    const dir = join(root, `home-${++homes}`);
    const env = { XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') };
    mkdirSync(join(env.XDG_CONFIG_HOME, 'svc-monitor'), { recursive: true, mode: 0o700 });
    const file = join(env.XDG_CONFIG_HOME, 'svc-monitor', 'config.json');
    writeFileSync(file, typeof config === 'string' ? config : JSON.stringify(config));
    chmodSync(file, mode);
    return { dir, env, file, db: join(dir, 'cache.db') };
  };
}
