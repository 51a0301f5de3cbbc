import { defineConfig } from 'vitest/config';

// .mts (not .ts): `n8n-node lint` lints every .ts file of the package with the rules for shipped
// node code (no process, no node: imports), which test code cannot follow.
export default defineConfig({
  test: {
    name: 'n8n',
    include: ['test/**/*.test.mts'],
    globalSetup: ['test/global-setup.mts'],
  },
});
