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
    // two files at once on a 2-core machine (most files wait on Redis, PostgreSQL, Chromium or child
    // processes): every file isolates itself (its own key prefix, schema, ports); the cluster key test
    // that watches with MONITOR and the failover tests start clusters of their own
    maxWorkers: 2,
  },
});
