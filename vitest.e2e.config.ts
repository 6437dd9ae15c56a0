import { defineConfig } from 'vitest/config';

// Browser journeys in real Chromium against the real server and database (docs/ARCHITECTURE.md).
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    // Build first (only if stale), so a direct `vitest run --config vitest.e2e.config.ts` never
    // tests yesterday's bundle; then one PostgreSQL for the run, as for the API tests.
    globalSetup: ['./e2e/ensure-build-setup.ts', './server/test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One Chromium at a time: these machines have two cores.
    fileParallelism: false,
    pool: 'forks',
  },
});
