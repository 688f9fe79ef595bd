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
    // one file at a time (vitest's default on 2 cores): the cluster key test watches the shared Redis
    // Cluster with MONITOR, which another file's commands on that cluster break (two at once failed it)
  },
});
