import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configHomes } from '../helpers/config-home.js';
import { fakeNotifySend } from '../helpers/listener-harness.js';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';
import { TEMPLATE_START } from '../helpers/world-template.js';
import { runCli } from './run-cli.js';

let svc: TestService;
const root = mkdtempSync(join(tmpdir(), 'svc-alerts-config-'));

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc.close();
  rmSync(root, { recursive: true, force: true });
});

/** A home of its own with `config` as its config file (see helpers/config-home.ts). */
const home = configHomes(root);

/** A `#!/bin/sh` script in `dir`. */
function script(dir: string, name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

const service = { base_url: '', api_key: TEST_KEY };
const connected = (alerts: unknown, more: object = {}) => ({ ...service, base_url: svc.baseUrl, alerts, ...more });

describe('the config file’s alerts', () => {
  const refusals: [string, unknown, string][] = [
    [
      'edge_min 0',
      { edge_min: 0 },
      'alerts.edge_min must be a number above 0 and below 1 (an edge in dollars a share, e.g. 0.08)',
    ],
    [
      'edge_min 1',
      { edge_min: 1 },
      'alerts.edge_min must be a number above 0 and below 1 (an edge in dollars a share, e.g. 0.08)',
    ],
    [
      'edge_min as text',
      { edge_min: '0.1' },
      'alerts.edge_min must be a number above 0 and below 1 (an edge in dollars a share, e.g. 0.08)',
    ],
    ['snooze 0', { snooze_minutes: 0 }, 'alerts.snooze_minutes must be a whole number of minutes from 1 to 1440'],
    ['snooze 1.5', { snooze_minutes: 1.5 }, 'alerts.snooze_minutes must be a whole number of minutes from 1 to 1440'],
    [
      'snooze > a day',
      { snooze_minutes: 1441 },
      'alerts.snooze_minutes must be a whole number of minutes from 1 to 1440',
    ],
    [
      'empty argv',
      { notify_command: [] },
      'alerts.notify_command must be null or a non-empty list of non-empty strings (the program, then its arguments)',
    ],
    [
      'argv as a shell line',
      { notify_command: 'curl x | sh' },
      'alerts.notify_command must be null or a non-empty list of non-empty strings (the program, then its arguments)',
    ],
    [
      'empty program',
      { notify_command: [''] },
      'alerts.notify_command must be null or a non-empty list of non-empty strings (the program, then its arguments)',
    ],
    ['notify not boolean', { notify: { edge: 'yes' } }, 'alerts.notify.edge must be true or false'],
    ['unknown notify kind', { notify: { edgy: true } }, 'unknown key `edgy` in alerts.notify'],
    ['cities as a word', { cities: 'some' }, 'alerts.cities must be "all" or a list of city ids'],
    ['cities not ids', { cities: [1] }, 'alerts.cities must be "all" or a list of city ids'],
    ['unknown key', { edge_mni: 0.1 }, 'unknown key `edge_mni` in alerts'],
    ['not an object', [], 'alerts must be an object'],
  ];

  it.each(refusals)('refuses %s at start, naming the key, exit 2 and nothing written', async (_, alerts, message) => {
    const h = home(connected(alerts));
    const result = await runCli(['sync', '--once', '--db', h.db], h.env);
    expect({ code: result.code, stderr: result.stderr }).toEqual({
      code: 2,
      stderr: `svc-monitor: ${h.file}: ${message}\n`,
    });
    expect(existsSync(h.db)).toBe(false);
  });

  it('takes every key DESIGN 3 names', async () => {
    const alerts = {
      edge_min: 0.99,
      cities: ['nyc', 'london'],
      notify: { kill: true, dying_bucket: false, edge: true, breakthrough: false },
      notify_command: null,
      snooze_minutes: 1440,
    };
    const h = home(connected(alerts));
    const result = await runCli(['sync', '--once', '--db', h.db], h.env);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
  });
});

/**
 * An edge of a cent or more: any market whose prices are not the model's own has some, however the world is tuned
 * (these tests are about where the alerts go, not about how many the world makes).
 */
const EDGE_MIN = 0.01;
/** Every city's market day at the template's instant, 12:00Z: 04:00 in Seattle to 13:00 in Rome, the same date. */
const MARKET_DAY = new Date(TEMPLATE_START).toISOString().slice(0, 10);

/** Hours from now back to a day before the template world's instant: the live streams' first window reaches it. */
const historyHours = () => Math.min(720, Math.ceil((Date.now() - TEMPLATE_START) / 3_600_000) + 24);

/**
 * Hourly polls: the template world's newest snapshots are up to half an hour before its instant, so under the default
 * minute polls a first sync's edges were found late (DESIGN 4 "alerts in time": catch-up, never notified); polled
 * hourly, two intervals reach back two hours and every edge of this pass is news.
 */
const HOURLY = { metar: 3600, forecasts: 3600, 'mkta-buckets': 3600, 'mktb-buckets': 3600 };

describe('notify_command, end to end through sync --once', () => {
  it('receives each edge alert as one JSON object, and no notification pops up from a one-off pass', async () => {
    const dir = join(root, 'command');
    mkdirSync(dir, { recursive: true });
    const received = join(dir, 'received.jsonl');
    const command = script(dir, 'to-phone.sh', `cat >> '${received}'`);
    const notify = fakeNotifySend(dir);
    const h = home(
      connected(
        { edge_min: EDGE_MIN, notify_command: [command] },
        { history_hours: historyHours(), intervals: HOURLY },
      ),
    );
    const result = await runCli(['sync', '--once', '--db', h.db], {
      ...h.env,
      PATH: `${notify.bin}:${process.env.PATH}`,
    });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });

    const text = readFileSync(received, 'utf8');
    expect(text).not.toContain(TEST_KEY);
    // one object a line, each a stored alert
    const messages = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const edge = messages.find((m) => m.kind === 'edge');
    expect(Object.keys(edge).sort()).toEqual(['city_id', 'created_at', 'id', 'kind', 'message', 'ref', 'severity']);
    expect(edge.severity).toBe('info');
    expect(edge.ref).toMatch(new RegExp(`^[a-z]+\\|${MARKET_DAY}\\|.+°[FC]\\|(YES|NO)$`));
    expect(edge.message).toMatch(
      new RegExp(`^[a-z]+ ${MARKET_DAY}: edge \\+\\d+\\.\\d points on (YES|NO) .+ at 0\\.\\d\\d on mkt[ab]`),
    );
    const exported = await runCli(['export', 'alerts', '--db', h.db], h.env);
    const stored = JSON.parse(exported.stdout) as { id: number; kind: string; message: string; ref: string }[];
    expect(stored.find((a) => a.id === edge.id)).toMatchObject({ kind: 'edge', message: edge.message, ref: edge.ref });
    // every edge alert stored went to the command, once
    const storedEdges = stored.filter((a) => a.kind === 'edge').map((a) => a.id);
    expect(
      messages
        .filter((m) => m.kind === 'edge')
        .map((m) => m.id)
        .sort((a, b) => a - b),
    ).toEqual(storedEdges.sort((a, b) => a - b));
    expect(notify.calls()).toEqual([]);
  });

  it('stores a failing command as an alert, and the sync still succeeds', async () => {
    const dir = join(root, 'failing');
    mkdirSync(dir, { recursive: true });
    const command = script(dir, 'broken.sh', "cat > /dev/null\necho 'no phone paired' >&2\nexit 3");
    const h = home(
      connected(
        { edge_min: EDGE_MIN, notify_command: [command] },
        { history_hours: historyHours(), intervals: HOURLY },
      ),
    );
    const result = await runCli(['sync', '--once', '--db', h.db], h.env);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    const stored = JSON.parse((await runCli(['export', 'alerts', '--db', h.db], h.env)).stdout) as {
      id: number;
      kind: string;
      severity: string;
      ref: string;
      message: string;
    }[];
    const failures = stored.filter((a) => a.kind === 'notify-command-failed');
    const edges = stored.filter((a) => a.kind === 'edge');
    expect(edges.length).toBeGreaterThan(0);
    // one failure an alert sent, each naming its alert, the exit code and what the command said
    expect(failures.map((f) => f.ref).sort()).toEqual(edges.map((e) => String(e.id)).sort());
    const first = failures.find((f) => f.ref === String(edges[0]?.id));
    expect(first).toMatchObject({
      severity: 'warning',
      message: `notify_command failed on the edge alert #${edges[0]?.id}: ${command} exited with code 3: no phone paired`,
    });
  });
});
