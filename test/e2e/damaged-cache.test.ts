import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { damagePage } from '../cli/damaged-cache.js';
import { runCli } from '../cli/run-cli.js';
import { startTestService, TEST_KEY } from '../helpers/service.js';
import { startTui, type TuiProcess } from './terminal.js';

const root = mkdtempSync(join(tmpdir(), 'svc-e2e-damaged-'));
const env = { XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config') };
const running: TuiProcess[] = [];
afterAll(() => {
  for (const tui of running) tui.kill();
  rmSync(root, { recursive: true, force: true });
});

/**
 * Loaded into the CLI with --require: on exit it writes down which of React's builds the process ran. (Importing
 * react/index.js from ESM puts both builds in require.cache, unexecuted, while Node reads their exports; only the
 * one react/index.js required is `loaded`.)
 */
const probe = join(root, 'react-build-probe.cjs');
writeFileSync(
  probe,
  `process.on('exit', () => require('node:fs').writeFileSync(process.env.REACT_BUILD_OUT, Object.entries(require.cache)
     .filter(([file, m]) => m.loaded && /[\\\\/]react[\\\\/]cjs[\\\\/]/.test(file)).map(([file]) => file).join('\\n')));\n`,
);

const screenLines = (screen: string) => screen.split('\n').filter((l) => l.trim() !== '');

describe('the monitor on a damaged cache, in a pseudo-terminal', () => {
  it('offline: one line naming the damaged file, exit 2, no error box or stack trace; React in production mode', async () => {
    const svc = await startTestService();
    const db = join(root, 'damaged', 'cache.db');
    try {
      const sync = await runCli(['sync', '--once', '--db', db, '--base-url', svc.baseUrl, '--api-key', TEST_KEY], env);
      expect(sync.code, sync.stderr).toBe(0);
    } finally {
      await svc.close();
    }
    // every screen reads the cities (the tab bar's city, the status bar's local time)
    damagePage(db, 'cities');
    const before = readFileSync(db);
    const builds = join(root, 'react-builds.txt');
    const tui = startTui(
      ['--offline', '--db', db],
      { ...env, NODE_OPTIONS: `--require ${probe}`, REACT_BUILD_OUT: builds },
      { cols: 220, rows: 30 },
    );
    running.push(tui);
    const { exitCode } = await tui.exited;
    // the pty may deliver the last bytes after the exit: wait for the line rather than reading at once
    const screen = await tui.waitFor('svc-monitor:');
    expect(exitCode).toBe(2);
    expect(screenLines(screen)).toEqual([
      `svc-monitor: ${db} is damaged (database disk image is malformed): nothing is written to it; export what can still be read, then move it away`,
    ]);
    expect(tui.output()).not.toMatch(/\n\s*at |node_modules|ERROR/);
    expect(readFileSync(db).equals(before)).toBe(true);

    const loaded = readFileSync(builds, 'utf8');
    expect(loaded).toMatch(/react\.production\.js/);
    expect(loaded).not.toMatch(/development/);
  });

  it('offline with a mistyped --db: exit 2, "no cache at PATH", and no cache made', async () => {
    const typo = join(root, 'tpyo', 'cache.db');
    const tui = startTui(['--offline', '--db', typo], env, { cols: 200, rows: 20 });
    running.push(tui);
    const { exitCode } = await tui.exited;
    const screen = await tui.waitFor('svc-monitor:');
    expect(exitCode).toBe(2);
    expect(screen).toContain(`svc-monitor: no cache at ${typo}`);
    expect(existsSync(join(root, 'tpyo'))).toBe(false);
  });
});
