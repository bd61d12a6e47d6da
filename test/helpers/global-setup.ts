import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { fillWorld } from './fill-world.js';
import { SECOND_TEMPLATE_SEED, TEMPLATE_SEED, TEMPLATE_START } from './world-template.js';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDir: string;
    secondTemplateDir: string;
  }
}

/**
 * Fills the worlds (30 days of history each) once; each test copies one instead of paying for the fill again. The
 * second seed's world fills in a child process while this one fills the first: no test file runs before the global
 * setup ends, so on 2 cores the second fill takes the core that would otherwise wait (a fill is one core's work).
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const root = mkdtempSync(join(tmpdir(), 'svc-template-'));
  const dir = join(root, 'server');
  const secondDir = join(root, `server-seed-${SECOND_TEMPLATE_SEED}`);
  const script = fileURLToPath(new URL('./fill-world.ts', import.meta.url));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', script, secondDir, String(SECOND_TEMPLATE_SEED), String(TEMPLATE_START)],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const secondFilled = new Promise<void>((done, fail) => {
    child.once('error', fail);
    child.once('close', (code, signal) =>
      code === 0 ? done() : fail(new Error(`the seed ${SECOND_TEMPLATE_SEED} fill ended with ${signal ?? code}`)),
    );
  });
  try {
    fillWorld(dir, TEMPLATE_SEED, TEMPLATE_START);
    await secondFilled;
  } catch (error) {
    secondFilled.catch(() => undefined); // the first error is the one reported
    child.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  project.provide('templateDir', dir);
  project.provide('secondTemplateDir', secondDir);
  return () => rmSync(root, { recursive: true, force: true });
}
