import { Compile } from 'typebox/compile';
import {
  DETAIL_DAYS_BOUNDS,
  EDGE_MIN_BOUNDS,
  HISTORY_HOURS_BOUNDS,
  INTERVAL_BOUNDS_S,
  MonitorConfig,
  SETTLEMENT_RULES,
  SNOOZE_MINUTES_BOUNDS,
} from '../contract/config.js';
import { STREAM_NAMES } from '../contract/names.js';

/**
 * What is wrong with a config file that fails its schema's check (config-check.ts), in the words of the file: TypeBox
 * itself, its hundreds of modules and the schema's compile, load only for a file that is wrong.
 */
const validator = Compile(MonitorConfig);

/** TypeBox's complaints about `parsed`, said as describeSchemaErrors says them. */
export function describeConfigErrors(parsed: unknown): string {
  return describeSchemaErrors([...validator.Errors(parsed)]);
}

type SchemaError = ReturnType<typeof validator.Errors>[number];

/** TypeBox's first complaint in the words of the file: the unknown key by name, an interval with its bounds. */
function describeSchemaErrors(errors: SchemaError[]): string {
  const unknown = errors.find((e) => e.keyword === 'additionalProperties');
  const names = (unknown?.params as { additionalProperties?: string[] } | undefined)?.additionalProperties ?? [];
  if (unknown && names.length > 0) {
    const quoted = names.map((name) => `\`${name}\``).join(', ');
    if (unknown.instancePath === '/intervals')
      return `unknown stream ${quoted} in intervals; the streams are ${STREAM_NAMES.join(', ')}`;
    const where = unknown.instancePath ? ` in ${dotted(unknown.instancePath)}` : '';
    return `unknown key ${quoted}${where}`;
  }
  // TypeBox reports a refused extra key twice, once as "schema is false": never the one to show
  const first = errors.find((e) => e.keyword !== 'boolean');
  if (!first || first.instancePath === '') return 'must be a JSON object';
  if (first.instancePath.startsWith('/intervals/'))
    return `${dotted(first.instancePath)} must be a number of seconds from ${INTERVAL_BOUNDS_S.min} to ${INTERVAL_BOUNDS_S.max}`;
  if (first.instancePath === '/history_hours')
    return `history_hours must be a whole number of hours from ${HISTORY_HOURS_BOUNDS.min} to ${HISTORY_HOURS_BOUNDS.max}`;
  if (first.instancePath.startsWith('/alerts')) return alertsProblem(first.instancePath);
  if (first.instancePath.startsWith('/settlement')) return settlementProblem(first.instancePath);
  if (first.instancePath.startsWith('/retention'))
    return first.instancePath === '/retention'
      ? 'retention must be an object: {"detail_days": days}'
      : `retention.detail_days must be a whole number of days from ${DETAIL_DAYS_BOUNDS.min} to ${DETAIL_DAYS_BOUNDS.max}, or null to keep everything`;
  return `${dotted(first.instancePath)} ${first.message}`;
}

/** What a wrong value under `alerts` must be instead (a union's own complaints say nothing a trader can use). */
function alertsProblem(pointer: string): string {
  const [, , key] = pointer.split('/');
  switch (key) {
    case undefined:
      return 'alerts must be an object';
    case 'edge_min':
      return `alerts.edge_min must be a number above ${EDGE_MIN_BOUNDS.above} and below ${EDGE_MIN_BOUNDS.below} (an edge in dollars a share, e.g. 0.08)`;
    case 'cities':
      return 'alerts.cities must be "all" or a list of city ids';
    case 'notify':
      return pointer === '/alerts/notify'
        ? 'alerts.notify must be an object of kill, dying_bucket, edge, breakthrough: true or false'
        : `${dotted(pointer)} must be true or false`;
    case 'notify_command':
      return 'alerts.notify_command must be null or a non-empty list of non-empty strings (the program, then its arguments)';
    case 'snooze_minutes':
      return `alerts.snooze_minutes must be a whole number of minutes from ${SNOOZE_MINUTES_BOUNDS.min} to ${SNOOZE_MINUTES_BOUNDS.max}`;
    default:
      return `${dotted(pointer)} is not valid`;
  }
}

/** What a wrong `settlement` must be instead: an object of city ids, each settled by one of the rules. */
function settlementProblem(pointer: string): string {
  const rules = SETTLEMENT_RULES.map((rule) => `"${rule}"`).join(' or ');
  return pointer === '/settlement'
    ? `settlement must be an object of city ids, each ${rules}`
    : `${dotted(pointer)} must be ${rules}`;
}

/** `/intervals/current` -> `intervals.current` */
const dotted = (pointer: string) => pointer.slice(1).replaceAll('/', '.');
