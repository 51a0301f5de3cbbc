import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'github-action',
    // @actions/workflow-parser imports its schema JSON without an import attribute; Node refuses
    // that, so vitest transforms the package instead of handing it to Node.
    server: { deps: { inline: ['@actions/workflow-parser'] } },
  },
});
