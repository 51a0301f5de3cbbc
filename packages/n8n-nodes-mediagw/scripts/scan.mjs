// n8n's community-package scanner on what we would publish: build into a scratch copy of the
// package, `npm pack` it, unpack, then `analyzePackage` (the scanner's rules over every .js and
// .json of the tarball). Building a private copy keeps this independent of ./dist, which a
// parallel build may be rewriting. The scanner's CLI only scans packages already on npm; its
// module (pinned version) scans a folder.
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPackage } from './build.mjs';

const { analyzePackage } = await import('@n8n/scan-community-package/scanner/scanner.mjs');
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));

const work = await mkdtemp(join(tmpdir(), 'n8n-nodes-mediagw-scan-'));
try {
  const staged = join(work, 'staged');
  await mkdir(staged);
  for (const file of ['package.json', 'README.md', 'LICENSE']) await copyFile(join(root, file), join(staged, file));
  await buildPackage(join(staged, 'dist'));
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
      cwd: staged,
      encoding: 'utf8',
    }),
  );
  const shipped = new Set(packed.files.map((f) => f.path));
  const missing = [...manifest.n8n.nodes, ...manifest.n8n.credentials].filter((f) => !shipped.has(f));
  if (missing.length > 0) throw new Error(`the tarball lacks files package.json names: ${missing.join(', ')}`);

  execFileSync('tar', ['-xzf', join(work, packed.filename), '-C', work]);
  const result = await analyzePackage(join(work, 'package'));
  if (!result.passed) {
    console.error(`scanner: FAILED (${result.message})\n${result.details ?? ''}`);
    process.exitCode = 1;
  } else {
    console.log(`scanner: passed on ${packed.filename} (${packed.entryCount} files)`);
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
