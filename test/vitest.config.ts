import { defineConfig } from 'vitest/config';

// Cross-package end-to-end tests: built packages against real servers on loopback.
export default defineConfig({
  test: {
    name: 'e2e',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The Action's test helpers read action.yml with @actions/workflow-parser, which imports JSON
    // without an import attribute; vitest transforms it instead of handing it to Node.
    server: { deps: { inline: ['@actions/workflow-parser'] } },
  },
});
