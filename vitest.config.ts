import { defineConfig } from 'vitest/config';

// One run for every package and the cross-package end-to-end tests in test/.
export default defineConfig({
  test: {
    projects: ['packages/*', 'test'],
    // Gathers what every suite captured and fails the run if any sentinel key appears in it.
    globalSetup: ['test/secrets/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
