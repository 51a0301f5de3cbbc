import { defineConfig } from 'vitest/config';

// One run for every package and the cross-package end-to-end tests in test/.
export default defineConfig({
  test: {
    projects: ['packages/*', 'test'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
