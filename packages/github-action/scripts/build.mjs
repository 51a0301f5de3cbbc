// Bundles the action into one ESM file. Deterministic: same sources and lockfile, same bytes
// (the freshness test rebuilds into a temp dir and compares). Usage: node scripts/build.mjs [outfile]
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
// @actions/http-client brings its own undici (v6) only to build a ProxyAgent on a proxy path the
// action never takes. 'undici' resolves to a module exporting just ProxyAgent from the core's
// undici, so the bundle carries one undici and never starts its whole index (fetch, WebSocket,
// caches): 3.1 MB -> ~1 MB, start-up down by ~60 ms (measured with bench/action-start.ts).
const proxyAgentOnly = {
  name: 'undici-proxy-agent-only',
  setup(build) {
    // Exactly 'undici' (the core's own imports of undici's parts by path are left alone).
    const path = fileURLToPath(new URL('../src/undici-proxy-agent.ts', import.meta.url));
    build.onResolve({ filter: /^undici$/ }, () => ({ path }));
  },
};

await build({
  absWorkingDir: packageDir,
  entryPoints: ['src/index.ts'],
  outfile: process.argv[2] ?? 'dist/index.js',
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  plugins: [proxyAgentOnly],
  // A bundled CommonJS dependency calls require('net'): give the ESM bundle a real require.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
  },
  legalComments: 'eof',
  charset: 'utf8',
  logLevel: 'warning',
});
