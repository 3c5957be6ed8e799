import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Each file gets its own process: native addons (better-sqlite3, sqlite-vec) and listeners stay isolated.
    pool: 'forks',
  },
});
