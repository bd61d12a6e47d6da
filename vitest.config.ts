import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    globalSetup: ['test/helpers/global-setup.ts'],
    // better-sqlite3 is native: separate processes keep each file's handles apart
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Ink renders nothing until unmount when is-in-ci says CI: the TUI tests (and the CLI children they start)
    // must see the interactive Ink a trader's terminal gets, in CI as on a laptop
    env: { CI: 'false', CONTINUOUS_INTEGRATION: 'false' },
  },
});
