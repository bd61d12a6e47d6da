import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../../src/alerts/alert-settings.js';
import { openCache } from '../../../src/cache/index.js';
import type { FromSession, SessionStart } from '../../../src/cli/session/protocol.js';
import { startModuleWorker } from '../../../src/cli/worker-module.js';

const root = mkdtempSync(join(tmpdir(), 'svc-session-worker-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The next message of `type` from the worker. */
const next = (worker: Worker, type: FromSession['type']): Promise<FromSession> =>
  new Promise((resolve) => {
    const look = (message: FromSession) => {
      if (message.type !== type) return;
      worker.off('message', look);
      resolve(message);
    };
    worker.on('message', look);
  });

describe('the session thread', () => {
  it('runs one session: a second start is refused and the first runs on until closed', async () => {
    const dbPath = join(root, 'cache.db');
    openCache(dbPath).close();
    const start: SessionStart = {
      type: 'start',
      dbPath,
      // nothing listens there: the sync only fails to connect, which the test does not wait for
      baseUrl: 'http://127.0.0.1:9/api/public/v1',
      apiKey: 'k'.repeat(32),
      auth: 'x-api-key',
      listen: null,
      notify: false,
      alerts: DEFAULT_ALERT_SETTINGS,
      intervals: {},
      historyHours: 0,
      fill: false,
      logFile: join(root, 'monitor.log'),
    };
    const worker = startModuleWorker('session/worker');
    const exited = new Promise((done) => worker.once('exit', done));
    const started = next(worker, 'started');
    worker.postMessage(start);
    expect(await started).toEqual({ type: 'started', listener: null });
    const refused = next(worker, 'failed');
    worker.postMessage(start);
    expect(await refused).toEqual({ type: 'failed', message: 'the session thread was started already' });
    const closed = next(worker, 'closed');
    worker.postMessage({ type: 'close' });
    expect(await closed).toEqual({ type: 'closed' });
    await exited;
  });
});
