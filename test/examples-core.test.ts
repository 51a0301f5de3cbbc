/** The library examples in examples/core run as a user runs them, against their embedded emulator. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const examples = fileURLToPath(new URL('../examples/core/', import.meta.url));

function run(name: string) {
  const cwd = mkdtempSync(join(tmpdir(), 'mediagw-example-'));
  const env = { ...process.env };
  delete env.MEDIAGW_BASE_URL;
  const result = spawnSync(process.execPath, [join(examples, name)], { cwd, env, encoding: 'utf8', timeout: 30_000 });
  expect(result.status, result.stderr).toBe(0);
  // Run from a folder (the repository, say), an example leaves nothing in it.
  expect(readdirSync(cwd)).toEqual([]);
  return { cwd, out: JSON.parse(result.stdout.trim().split('\n').at(-1)!), stderr: result.stderr };
}

describe('examples/core', () => {
  it('on a Node older than 22.19: one plain line, no stack trace, exit 1', () => {
    // The system Node of this machine (20) when there is one; otherwise the check cannot be shown.
    const old = spawnSync('/usr/bin/node', ['--version'], { encoding: 'utf8' });
    if (old.status !== 0 || !/^v(1\d|20|21)\./.test(old.stdout)) return;
    const result = spawnSync('/usr/bin/node', [join(examples, 'text-to-video.mjs')], { encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^mediagw examples need Node\.js 22\.19 or later/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('text-to-video downloads a real MP4 and keeps the seed exact', () => {
    const { out } = run('text-to-video.mjs');
    expect(out).toMatchObject({ status: 'COMPLETED', seed: '196619188014358660' });
    expect(readFileSync(out.saved).subarray(4, 8).toString('latin1')).toBe('ftyp');
  });

  it('image-to-video creates a task (status 5)', () => {
    expect(run('image-to-video.mjs').out).toMatchObject({ taskId: expect.stringMatching(/\S/), status: 5 });
  });

  it('blend shows a local refusal, then a task id with exact digits', () => {
    const { out, stderr } = run('blend.mjs');
    expect(stderr).toMatch(
      /refused locally: dimensions: "square" is not allowed; allowed: one of PORTRAIT, SQUARE, LANDSCAPE/,
    );
    expect(out.taskId).toMatch(/^\d{16,}$/);
  });
});
