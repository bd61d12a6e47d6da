import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { defineConfig } from 'vitest/config';

/**
 * TypeBox as one bundled file per entry, as the built CLI loads it (scripts/bundle-cli.mjs): from node_modules its
 * compiler is 340 modules, and each test file's process spent half a second loading them (about 90 s of the suite's
 * CPU). Built once per TypeBox version, under node_modules so vitest loads it natively; written beside and renamed,
 * so a run beside another never reads half a file.
 */
function typeboxBundle(): string {
  const modules = join(fileURLToPath(new URL('.', import.meta.url)), 'node_modules');
  const { version } = JSON.parse(readFileSync(join(modules, 'typebox', 'package.json'), 'utf8')) as { version: string };
  const dir = join(modules, '.cache', `typebox-${version}`);
  if (existsSync(dir)) return dir;
  const building = `${dir}.${process.pid}`;
  mkdirSync(building, { recursive: true });
  buildSync({
    entryPoints: { index: 'typebox', compile: 'typebox/compile', guard: 'typebox/guard' },
    outdir: building,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  try {
    renameSync(building, dir);
  } catch {
    rmSync(building, { recursive: true, force: true }); // another run built it first
  }
  return dir;
}
const TYPEBOX = typeboxBundle();

/**
 * Two tiers. `unit`: tests of pure modules (`*.unit.test.ts`: domain rules, alert rules, formats, key table, the
 * change hub, the cache's keyset paging over an in-memory SQLite), no world, no server, no file: `npm run test:unit`
 * runs them alone in seconds. `world`: everything else, over a 30-day world filled once by the global setup, real
 * servers on loopback, real files and the built CLI. `npm test` runs both.
 */
const UNIT = ['test/**/*.unit.test.ts', 'test/**/*.unit.test.tsx'];

export default defineConfig({
  resolve: {
    alias: [
      { find: /^typebox$/, replacement: join(TYPEBOX, 'index.mjs') },
      { find: /^typebox\/(compile|guard)$/, replacement: join(TYPEBOX, '$1.mjs') },
    ],
  },
  test: {
    // better-sqlite3 is native: separate processes keep each file's handles apart
    pool: 'forks',
    // much of a world test's time is waiting on another process (a server, the CLI, a pseudo-terminal) or a file:
    // two files at a time keep 2 cores busy (vitest's default, cores - 1, ran them one by one, 86% of one core's
    // time used); three overloaded them (docs/benchmarks.md, the suite)
    maxWorkers: 2,
    // tests wait for states, not times: these bounds only end a test that hangs. A world fill is 20 s on a quiet
    // machine and over 100 s beside other jobs, and a bound of a minute failed it there
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // Ink renders nothing until unmount when is-in-ci says CI: the TUI tests (and the CLI children they start)
    // must see the interactive Ink a trader's terminal gets, in CI as on a laptop
    env: { CI: 'false', CONTINUOUS_INTEGRATION: 'false' },
    projects: [
      // pure modules: one process for all of them, so each import is paid once
      // and writes no file: its setup fails a test that makes a temp folder or writes under the temp dir
      {
        extends: true,
        test: { name: 'unit', include: UNIT, isolate: false, setupFiles: ['test/helpers/unit-writes-no-file.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'world',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: [...UNIT, '**/node_modules/**'],
          globalSetup: ['test/helpers/global-setup.ts'],
        },
      },
    ],
  },
});
