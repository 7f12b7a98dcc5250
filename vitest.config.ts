import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30000,
    hookTimeout: 60000,
    // Each LadybugDB database holds a buffer pool; two forks keep memory and the 2 cores in check.
    pool: 'forks',
    maxWorkers: 2,
  },
});
