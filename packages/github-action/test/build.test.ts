/** The committed bundle is what the sources build to: runners execute dist/index.js as it is. */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { BUNDLE, PACKAGE_DIR } from './helpers.js';

it('dist/index.js is fresh: rebuilding gives the same bytes', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mediagw-build-'));
  try {
    const fresh = join(dir, 'index.js');
    await promisify(execFile)(process.execPath, [join(PACKAGE_DIR, 'scripts', 'build.mjs'), fresh]);
    const [built, committed] = await Promise.all([readFile(fresh, 'utf8'), readFile(BUNDLE, 'utf8')]);
    // One boolean, not a 3 MB diff: the fix is always the same.
    expect(built === committed, "dist/index.js is stale: run 'npm run build -w @mediagw/github-action'").toBe(true);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
