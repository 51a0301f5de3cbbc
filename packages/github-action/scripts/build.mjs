// Bundles the action into one ESM file. Deterministic: same sources and lockfile, same bytes
// (the freshness test rebuilds into a temp dir and compares). Usage: node scripts/build.mjs [outfile]
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
// One undici in the bundle: @actions/http-client brings its own (v6) for a proxy path the action
// never takes (it only calls `new ProxyAgent({ uri, token })`, which undici 8 keeps). A second copy
// cost ~30 ms of start-up (measured: bench/action-start.ts).
const undici = dirname(createRequire(import.meta.url).resolve('undici'));

await build({
  absWorkingDir: packageDir,
  entryPoints: ['src/index.ts'],
  outfile: process.argv[2] ?? 'dist/index.js',
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  alias: { undici },
  // A bundled CommonJS dependency calls require('net'): give the ESM bundle a real require.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
  },
  legalComments: 'eof',
  charset: 'utf8',
  logLevel: 'warning',
});
