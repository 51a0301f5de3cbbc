import { defineConfig } from 'vitest/config';

// Cross-package end-to-end tests: built packages against real servers on loopback.
export default defineConfig({ test: { name: 'e2e', testTimeout: 30_000, hookTimeout: 60_000 } });
