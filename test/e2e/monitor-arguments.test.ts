import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { startTestService, TEST_KEY } from '../helpers/service.js';
import { startTui, type TuiProcess } from './terminal.js';

const root = mkdtempSync(join(tmpdir(), 'svc-e2e-arguments-'));
const env = { XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config') };
const running: TuiProcess[] = [];
afterAll(() => {
  for (const tui of running) tui.kill();
  rmSync(root, { recursive: true, force: true });
});

const KEY = 'sk_live_7fQ2mZ9xR4vB8nK1pL6tW3yH';

describe('the monitor with a key typed into --city', () => {
  it('never shows it: the screen names only cities the cache holds', async () => {
    const svc = await startTestService();
    const db = join(root, 'cache.db');
    try {
      const sync = await runCli(['sync', '--once', '--db', db, '--base-url', svc.baseUrl, '--api-key', TEST_KEY], env);
      expect(sync.code, sync.stderr).toBe(0);
    } finally {
      await svc.close();
    }
    const tui = startTui(['--offline', '--db', db, '--city', KEY], env);
    running.push(tui);
    await tui.waitFor('OFFLINE');
    tui.press('5');
    await tui.waitFor('MARKET BUCKETS');
    tui.press('q');
    expect((await tui.exited).exitCode).toBe(0);
    expect(tui.output()).not.toContain(KEY);
  });
});
