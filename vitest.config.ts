import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    // Hooks that build fixtures (fits, servers) share the tests' allowance on a loaded machine.
    hookTimeout: 60_000,
    pool: 'forks',
    setupFiles: ['test/helpers/yield-between-tests.ts'],
  },
});
