import type { MonitorConfig } from '../contract/config.js';
import { Check } from '../contract/monitor-config-check.generated.js';

/**
 * The config file's check against its schema (MonitorConfig in contract/config.ts), by TypeBox's own compiled code
 * written out ahead of time (`npm run generate`): a command that reads a config file does not load TypeBox and
 * compile the schema to check it. What is wrong with a file that fails is said by config-errors.ts, which does.
 */
export async function configProblem(parsed: unknown): Promise<string | undefined> {
  if (isMonitorConfig(parsed)) return undefined;
  const { describeConfigErrors } = await import('./config-errors.js');
  return describeConfigErrors(parsed);
}

function isMonitorConfig(parsed: unknown): parsed is MonitorConfig {
  return Check(parsed) === true;
}
