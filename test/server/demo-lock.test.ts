import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, inject, it } from 'vitest';
import { startDemoService } from '../../src/cli/demo-service.js';

const root = mkdtempSync(join(tmpdir(), 'svc-demo-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('runs one demo world at a time: a second demo is told which one runs, and starts once the first has quit', async () => {
  cpSync(inject('templateDir'), join(root, 'server'), { recursive: true });
  const first = await startDemoService(root);
  await expect(startDemoService(root)).rejects.toThrow(`another demo is running (pid ${process.pid}); quit it first`);
  await first.close();
  const again = await startDemoService(root);
  await again.close();
});
