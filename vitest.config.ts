import { defineConfig } from 'vitest/config';

/**
 * The slow suites: the 10,000-request fuzz, the route-spelling walk, the processes
 * killed mid-import or mid-start, several app instances, the scheduler's timing. `npm test` and CI
 * run them; `npm run test:fast` (MUSTER_TEST_TIER=fast) leaves them out, for before each commit.
 */
const SLOW_SUITES = [
  'server/plugins/route-spellings.test.ts',
  'server/test/route-fuzz.test.ts',
  'server/test/bounded-reads.test.ts',
  'server/modules/imports/fuzz.test.ts',
  'server/modules/imports/file-limits.test.ts',
  'server/modules/imports/interrupted-uploads.test.ts',
  'server/jobs/scheduler.test.ts',
  'server/db/embedded.test.ts',
  'server/multi-instance.test.ts',
  'server/production-start.test.ts',
];
/**
 * Suites that measure this process's memory: run on their own, each file in a fresh worker (the
 * `memory` tier, the second half of `npm run test:api`). In a worker shared with earlier files the
 * heap is larger and collected later, and that, not the code, moved the figure.
 */
const MEMORY_SUITES = ['server/test/bounded-reads.test.ts'];
const tier = process.env.MUSTER_TEST_TIER;
const fast = tier === 'fast';
const memory = tier === 'memory';

export default defineConfig({
  test: {
    include: memory ? MEMORY_SUITES : ['server/**/*.test.ts', 'common/**/*.test.ts', 'web/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/.git/**', ...(memory ? [] : MEMORY_SUITES), ...(fast ? SLOW_SUITES : [])],
    globalSetup: ['./server/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time (vitest's default on two cores is one): the files wait on PostgreSQL more
    // than they compute. And the app's modules loaded once per worker, not once per file: every file
    // builds its own app on its own database, and no test mocks a module (measured on two cores: the API
    // suite 354 s → 136 s, the fast tier 59 s).
    maxWorkers: 2,
    isolate: memory,
  },
});
