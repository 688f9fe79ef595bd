import { defineConfig } from 'vitest/config';

// The pack-and-install check runs on its own, before the main suite: it builds and packs every public
// package and installs the tarballs with npm, which would otherwise compete for CPU with the
// timing-sensitive tests.
export default defineConfig({
  test: {
    include: ['tooling/*/src/**/*.pack.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 300_000,
  },
});
