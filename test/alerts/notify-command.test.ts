import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type AlertMessage, COMMAND_TIMEOUT_MS, NotifyCommand } from '../../src/alerts/notify-command.js';
import { waitUntil } from '../helpers/listener-harness.js';

const root = mkdtempSync(join(tmpdir(), 'svc-notify-command-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let scripts = 0;
/** A `#!/bin/sh` script in the temp dir with this body; returns its path. */
function script(body: string): string {
  const path = join(root, `command-${++scripts}.sh`);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

const alert: AlertMessage = {
  id: 7,
  kind: 'edge',
  severity: 'info',
  city_id: 'nyc',
  ref: 'nyc|2026-11-24|70-71°F|YES',
  created_at: '2026-11-24T15:00:00.000Z',
  message: 'nyc 2026-11-24: edge +17.3 points on YES 70-71°F at 0.50 on mktb (model 68.3%)',
};

/** Runs `argv` for the alert and collects the failures. */
async function run(
  argv: string[],
  options: { timeoutMs?: number; env?: NodeJS.ProcessEnv; alerts?: AlertMessage[] } = {},
) {
  const failures: { id: number; reason: string }[] = [];
  const command = new NotifyCommand({
    argv,
    timeoutMs: options.timeoutMs,
    env: options.env,
    onFailure: (a, reason) => failures.push({ id: a.id, reason }),
  });
  const started = Date.now();
  for (const a of options.alerts ?? [alert]) command.send(a);
  await command.idle();
  return { failures, ms: Date.now() - started };
}

describe('the notify command', () => {
  it('gets the alert as one JSON object on stdin, run without a shell (its arguments stay literal)', async () => {
    const out = join(root, 'received.json');
    const args = join(root, 'args.txt');
    const path = script(`cat > '${out}'\nprintf '%s\\n' "$@" > '${args}'`);
    const { failures } = await run([path, '$HOME', '; touch /tmp/never'], { env: { PATH: '/usr/bin:/bin' } });
    expect(failures).toEqual([]);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(alert);
    expect(readFileSync(out, 'utf8').endsWith('}\n')).toBe(true);
    // no shell expanded $HOME or ran the `;`
    expect(readFileSync(args, 'utf8')).toBe('$HOME\n; touch /tmp/never\n');
  });

  it('never passes on the key, the webhook secret or the admin token', async () => {
    const out = join(root, 'env.txt');
    const path = script(`env > '${out}'`);
    const env = { PATH: '/usr/bin:/bin', SVC_API_KEY: 'k-0123456789', SVC_WEBHOOK_SECRET: 'ws', SVC_ADMIN_TOKEN: 'at' };
    expect((await run([path], { env })).failures).toEqual([]);
    const seen = readFileSync(out, 'utf8');
    expect(seen).toContain('PATH=/usr/bin:/bin');
    expect(seen).not.toMatch(/SVC_API_KEY|SVC_WEBHOOK_SECRET|SVC_ADMIN_TOKEN|k-0123456789/);
  });

  it('reports a non-zero exit with what the command said, and a program that cannot run', async () => {
    const path = script("cat > /dev/null\necho 'no signal' >&2\nexit 3");
    expect((await run([path])).failures).toEqual([{ id: 7, reason: `${path} exited with code 3: no signal` }]);
    const missing = join(root, 'no-such-program');
    expect((await run([missing])).failures).toEqual([
      { id: 7, reason: `could not run ${missing}: spawn ${missing} ENOENT` },
    ]);
  });

  it('kills a command that has not exited in time (10 s by default)', async () => {
    expect(COMMAND_TIMEOUT_MS).toBe(10_000);
    // the sleep is a child of the script's shell: killing the shell alone would leave it holding the pipe
    const pidFile = join(root, 'sleep.pid');
    const path = script(`sleep 30 &\necho $! > '${pidFile}'\nwait`);
    const { failures, ms } = await run([path], { timeoutMs: 300 });
    expect(failures).toEqual([{ id: 7, reason: `${path} was killed after 0.3 s` }]);
    expect(ms).toBeGreaterThanOrEqual(300);
    expect(ms).toBeLessThan(5_000);
    // the whole process group went: the sleep too
    const sleepPid = Number(readFileSync(pidFile, 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    // gone, or dead and waiting for its new parent to reap it (a container's init may be slow to)
    const state = existsSync(`/proc/${sleepPid}/stat`)
      ? readFileSync(`/proc/${sleepPid}/stat`, 'utf8').split(' ')[2]
      : 'gone';
    expect(['gone', 'Z']).toContain(state);
  });

  it('runs four at a time and returns at once: a burst never waits on the command', async () => {
    const log = join(root, 'burst.log');
    // each run holds until the gate file exists: no run can end before the test opens it
    const gate = join(root, 'burst.gate');
    const path = script(
      `read line\necho start >> '${log}'\nwhile [ ! -e '${gate}' ]; do sleep 0.05; done\necho end >> '${log}'`,
    );
    const alerts = Array.from({ length: 8 }, (_, i) => ({ ...alert, id: i + 1 }));
    const failures: string[] = [];
    const command = new NotifyCommand({ argv: [path], onFailure: (_, reason) => failures.push(reason) });
    for (const a of alerts) command.send(a);
    // every send returned while no run could have ended: send never waits on the command (a send that waited would
    // hang here, the gate still shut)
    const ended = existsSync(log)
      ? readFileSync(log, 'utf8')
          .split('\n')
          .filter((l) => l === 'end')
      : [];
    expect(ended).toEqual([]);
    // the gate opens only once four runs are under way, so the most at once is exactly four however slowly they start
    // (opened earlier, a run could end before the fourth started)
    const starts = () =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .split('\n')
            .filter((l) => l === 'start')
        : [];
    await waitUntil('four runs started', () => (starts().length >= 4 ? true : undefined));
    writeFileSync(gate, '');
    await command.idle();
    expect(failures).toEqual([]);
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    expect(lines.filter((l) => l === 'start')).toHaveLength(8);
    // the fifth start comes after an end: never more than four at once
    let runningNow = 0;
    let most = 0;
    for (const l of lines) {
      runningNow += l === 'start' ? 1 : -1;
      most = Math.max(most, runningNow);
    }
    expect(most).toBe(4);
    expect(existsSync(log)).toBe(true);
  });
});
