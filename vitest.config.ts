import { defineConfig } from 'vitest/config';

/**
 * Two tiers. `unit`: tests of pure modules (`*.unit.test.ts`: domain rules, alert rules, formats, key table, the
 * change hub, the cache's keyset paging over an in-memory SQLite), no world, no server, no file: `npm run test:unit`
 * runs them alone in seconds. `world`: everything else, over a 30-day world filled once by the global setup, real
 * servers on loopback, real files and the built CLI. `npm test` runs both.
 */
const UNIT = ['test/**/*.unit.test.ts', 'test/**/*.unit.test.tsx'];

export default defineConfig({
  test: {
    // better-sqlite3 is native: separate processes keep each file's handles apart
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Ink renders nothing until unmount when is-in-ci says CI: the TUI tests (and the CLI children they start)
    // must see the interactive Ink a trader's terminal gets, in CI as on a laptop
    env: { CI: 'false', CONTINUOUS_INTEGRATION: 'false' },
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT } },
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
