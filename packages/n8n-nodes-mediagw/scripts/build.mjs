// Bundles each node and credential into one CommonJS file (what n8n loads), with the core's pure
// protocol inlined. Only what n8n provides stays external: n8n-workflow, zod (`zod/v4`), crypto.
import { cp, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const NODES = ['MediaGateway', 'MediaGatewayTrigger'];

/** Builds the shipped files into `outDir` (the package's `dist` by default). */
export async function buildPackage(outDir = join(root, 'dist')) {
  await rm(outDir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: [...NODES.map((n) => `nodes/${n}/${n}.node.ts`), 'credentials/MediaGatewayApi.credentials.ts'],
    outdir: outDir,
    outbase: '.',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    external: ['n8n-workflow', 'zod', 'zod/*', 'crypto'],
    legalComments: 'none',
    logLevel: 'warning',
  });
  // Static files next to the code that names them: icons and codex files.
  await cp(join(root, 'icons'), join(outDir, 'icons'), { recursive: true });
  for (const node of NODES) {
    await cp(join(root, `nodes/${node}/${node}.node.json`), join(outDir, `nodes/${node}/${node}.node.json`));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildPackage();
