// The scanner gate really gates: the same scan `npm run lint` runs on the packed tarball fails
// once a bundle touches what n8n forbids. (The clean package passing is checked by `npm run lint`.)
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { PACKAGE_DIR } from './harness.mts';

// typescript-eslint needs TypeScript 6 (see scripts/typescript6.cjs).
createRequire(import.meta.url)('../scripts/typescript6.cjs');
const { analyzePackage } = await import('@n8n/scan-community-package/scanner/scanner.mjs');

const work = await mkdtemp(join(tmpdir(), 'mediagw-scan-test-'));
afterAll(() => rm(work, { recursive: true, force: true }));

it('fails a bundle that reads process.env', async () => {
  await cp(join(PACKAGE_DIR, 'dist'), join(work, 'dist'), { recursive: true });
  await cp(join(PACKAGE_DIR, 'package.json'), join(work, 'package.json'));
  const bundle = join(work, 'dist/credentials/MediaGatewayApi.credentials.js');
  await writeFile(bundle, `${await readFile(bundle, 'utf8')}\nmodule.exports.leak = process.env.HOME;\n`);
  const result = await analyzePackage(work);
  expect(result.passed).toBe(false);
  expect(result.details).toMatch(/no-restricted-globals/);
}, 60_000);
