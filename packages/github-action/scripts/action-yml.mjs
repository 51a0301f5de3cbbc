// Writes action.yml from the operation registry (src/action-yml.ts), or with --check fails when
// the committed file differs. Usage: node scripts/action-yml.mjs [--check]
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const target = join(packageDir, 'action.yml');
const dir = await mkdtemp(join(tmpdir(), 'mediagw-action-yml-'));
try {
  const outfile = join(dir, 'action-yml.mjs');
  await build({
    absWorkingDir: packageDir,
    entryPoints: ['src/action-yml.ts'],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'esm',
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  const { renderActionYml } = await import(pathToFileURL(outfile).href);
  const generated = renderActionYml();
  if (process.argv.includes('--check')) {
    const committed = await readFile(target, 'utf8');
    if (committed !== generated) {
      console.error('action.yml differs from what the registry generates: run npm run build -w @mediagw/github-action');
      process.exitCode = 1;
    }
  } else {
    await writeFile(target, generated);
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
