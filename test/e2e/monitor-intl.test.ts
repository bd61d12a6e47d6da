import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { KEY, startTui, type TuiProcess } from './terminal.js';

/**
 * The monitor never formats or collates through Intl: the first Intl formatter of a process pulls about 7 MB of ICU
 * into its memory (docs/benchmarks.md, issue 34), so zones come from the host's tz database (domain/zone-file.ts) and
 * numbers, weekdays and names are written by hand. Each thread of the process records any such use
 * (fixtures/record-intl.mjs, preloaded).
 */
const RECORDER = fileURLToPath(new URL('../cli/fixtures/record-intl.mjs', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'svc-e2e-intl-'));
const running: TuiProcess[] = [];
afterAll(() => {
  for (const tui of running) tui.kill();
  rmSync(root, { recursive: true, force: true });
});

const recorded = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

describe('Intl in the monitor', () => {
  it('the recorder sees a use on the main thread and on a worker (what the test below finds none of)', async () => {
    const file = join(root, 'recorder.log');
    const worker = join(root, 'worker.cjs');
    writeFileSync(worker, "'a'.localeCompare('b');\n");
    const script = `(1234).toLocaleString('en-US'); new (require('node:worker_threads').Worker)(${JSON.stringify(worker)});`;
    const child = spawn(process.execPath, ['--import', RECORDER, '-e', script], {
      env: { ...process.env, RECORD_INTL: file },
      stdio: 'ignore',
    });
    await new Promise((done) => child.on('close', done));
    const lines = recorded(file);
    expect(lines.some((l) => l.startsWith('thread 0: Number.toLocaleString'))).toBe(true);
    expect(lines.some((l) => l.startsWith('thread 1: String.localeCompare'))).toBe(true);
  });

  it('the demo, every pane, a city and the help: no thread builds an Intl formatter or collator', async () => {
    const dir = join(root, 'demo');
    const env = { XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') };
    // the demo's world from the test template, so the first start does not fill 30 days
    cpSync(inject('templateDir'), join(env.XDG_DATA_HOME, 'svc-monitor', 'demo', 'server'), { recursive: true });
    const file = join(root, 'demo.log');
    const tui = startTui(['monitor', '--demo', '--no-notify'], {
      ...env,
      SVC_API_KEY: '',
      NODE_OPTIONS: `--import ${RECORDER}`,
      RECORD_INTL: file,
    });
    running.push(tui);
    // the board priced: a city's local time and a best edge on a row
    await tui.waitFor(/\d\d:\d\d \w+ .*[+-]\d+\.\d (YES|NO) /);
    tui.press(KEY.enter);
    await tui.waitFor('PAYOFF BY OUTCOME');
    for (const [key, title] of [
      ['2', '[2 Signals]'],
      ['3', '[3 Positions]'],
      ['4', '[4 Alerts'],
      ['6', '[6 History]'],
      ['1', '[1 Board]'],
    ] as const) {
      tui.press(key);
      await tui.waitFor(title);
    }
    tui.press('?');
    await tui.waitFor('acknowledge the selected alert');
    tui.press(KEY.escape);
    tui.press('q');
    expect((await tui.exited).exitCode).toBe(0);
    expect(recorded(file)).toEqual([]);
  });
});
