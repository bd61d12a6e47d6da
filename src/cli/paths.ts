import { join } from 'node:path';
import envPaths from 'env-paths';

/** Platform data and config dirs (XDG on Linux), each with an `svc-monitor` folder. */
const dirs = () => envPaths('svc-monitor', { suffix: '' });

export const dataDir = (): string => dirs().data;
const configDir = (): string => dirs().config;
export const serverDataDir = (): string => join(dataDir(), 'server');
export const configFile = (): string => join(configDir(), 'config.json');
