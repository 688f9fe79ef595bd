import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'tooling/*/src/**/*.test.ts'],
    // run by vitest.pack.config.ts, after this suite
    exclude: ['**/node_modules/**', '**/*.pack.test.ts'],
    globalSetup: [
      '@awaken/vitest-setup/redis-global-setup',
      '@awaken/vitest-setup/redis-cluster-global-setup',
      '@awaken/vitest-setup/postgres-global-setup',
      '@awaken/vitest-setup/chromium-global-setup',
    ],
    reporters: ['default', '@awaken/vitest-setup/summary-reporter'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // most files wait on real processes, Redis, PostgreSQL or Chromium rather than compute: two at
    // once on 2 cores instead of vitest's default there (cores - 1 = one at a time); three at once
    // took about half the time but a browser test caught a 404 once under heavy load (not found since)
    maxWorkers: 2,
  },
});
