import { readFileSync } from 'node:fs';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import * as cities from '../../src/contract/cities.js';
import * as common from '../../src/contract/common.js';
import * as current from '../../src/contract/current.js';
import * as events from '../../src/contract/events.js';
import * as forecasts from '../../src/contract/forecasts.js';
import * as fusionLocks from '../../src/contract/fusion-locks.js';
import * as historical from '../../src/contract/historical.js';
import * as strategies from '../../src/contract/strategies.js';
import { signBody } from '../../src/domain/signature.js';

const PAGE = readFileSync(new URL('../../docs/interface.md', import.meta.url), 'utf8');

/** The exported schemas an example may name: every export of the contract's answer and event modules. */
const SCHEMAS: Record<string, unknown> = {
  ...common,
  ...cities,
  ...current,
  ...forecasts,
  ...historical,
  ...strategies,
  ...fusionLocks,
  ...events,
};

interface Example {
  schema: string;
  line: number;
  text: string;
}

/** Every ```json block preceded by `<!-- schema: Name -->`, with the line it starts on. */
function examplesOf(page: string): Example[] {
  return [...page.matchAll(/<!-- schema: (\w+) -->\n```json\n([\s\S]*?)\n```/g)].map((m) => ({
    schema: m[1] ?? '',
    line: page.slice(0, m.index).split('\n').length,
    text: m[2] ?? '',
  }));
}

/** Why an example does not hold (its schema unknown, not JSON, or not matching), or null when it does. */
function problemOf(example: Example): string | null {
  const schema = SCHEMAS[example.schema];
  if (typeof schema !== 'object' || schema === null) return `no exported schema ${example.schema} in src/contract/`;
  let value: unknown;
  try {
    value = JSON.parse(example.text);
  } catch (error) {
    return `not JSON: ${(error as Error).message}`;
  }
  const validator = Compile(schema as TSchema);
  if (validator.Check(value)) return null;
  const [first] = validator.Errors(value);
  return `${example.schema}: ${first?.instancePath || '/'} ${first?.message ?? 'does not match'}`;
}

const EXAMPLES = examplesOf(PAGE);

describe("docs/interface.md's examples", () => {
  it('holds an example of every resource and of the error body', () => {
    const named = new Set(EXAMPLES.map((e) => e.schema));
    const resources = [
      'CitiesResponse',
      'CurrentResponse',
      'ForecastsResponse',
      'HistoricalResponse',
      'No24Response',
      'YescoreResponse',
      'SvcMaxPicksResponse',
      'FusionLocksResponse',
      'ErrorBody',
    ];
    expect(resources.filter((name) => !named.has(name))).toEqual([]);
  });

  it('holds an example of every webhook event type, each under its own schema', () => {
    const bySchema: Record<string, string> = {
      'insurance.pick.created': 'InsuranceEvent',
      'insurance.addon.created': 'InsuranceEvent',
      'insurance.pick.killed': 'InsuranceEvent',
      'edge.trade.entered': 'EdgeEvent',
      'edge.trade.exited': 'EdgeEvent',
      'webhook.test': 'TestEvent',
    };
    // the contract's list of types, so a new type without an example fails here
    expect(Object.keys(bySchema).sort()).toEqual([...events.EVENT_TYPES].sort());
    const shown = EXAMPLES.filter((e) => Object.values(bySchema).includes(e.schema)).map((e) => {
      const type = (JSON.parse(e.text) as { event_type?: string }).event_type ?? '';
      return `${type} ${e.schema}`;
    });
    const missing = Object.entries(bySchema)
      .map(([type, schema]) => `${type} ${schema}`)
      .filter((wanted) => !shown.includes(wanted));
    expect(missing).toEqual([]);
  });

  it('every example is JSON that its named schema accepts', () => {
    // the check below is not empty: 8 resources, 4 more pages of them, 4 errors and 6 events as the page is written
    expect(EXAMPLES.length).toBeGreaterThanOrEqual(22);
    const wrong = EXAMPLES.flatMap((e) => {
      const problem = problemOf(e);
      return problem ? [`docs/interface.md:${e.line}: ${problem}`] : [];
    });
    expect(wrong).toEqual([]);
  });

  it('fails a wrong example: a mutated copy of the page is refused, naming the line and the field', () => {
    const lock = EXAMPLES.find((e) => e.schema === 'FusionLocksResponse') as Example;
    const event = EXAMPLES.find((e) => e.schema === 'EdgeEvent') as Example;
    const mutated = PAGE.replace(lock.text, lock.text.replace('"resolved": true', '"resolved": "yes"'))
      .replace(event.text, event.text.replace('"operation": "BUY"', '"operation": "HOLD"'))
      .replace('<!-- schema: CitiesResponse -->', '<!-- schema: CityResponse -->');
    const problems = examplesOf(mutated).flatMap((e) => {
      const problem = problemOf(e);
      return problem ? [problem] : [];
    });
    expect(problems).toEqual([
      'no exported schema CityResponse in src/contract/',
      expect.stringMatching(/^FusionLocksResponse: \/data\/0\/resolved /),
      expect.stringMatching(/^EdgeEvent: \/trade\/operation /),
    ]);
    expect(problemOf({ schema: 'ErrorBody', line: 1, text: '{ "error": "x", }' })).toMatch(/^not JSON/);
  });

  it("signs the one-line webhook.test body as the page's worked example says", () => {
    const test = EXAMPLES.find((e) => e.schema === 'TestEvent') as Example;
    expect(Buffer.byteLength(test.text)).toBe(196);
    expect(PAGE).toContain(
      'sha256=67bf93414477a42c396399ea4025cc6caf5ebf25dcfd7fd30ce3608d17e57b4d` (the test of this page checks it)',
    );
    expect(signBody('whsec_example', test.text)).toBe(
      'sha256=67bf93414477a42c396399ea4025cc6caf5ebf25dcfd7fd30ce3608d17e57b4d',
    );
  });
});
