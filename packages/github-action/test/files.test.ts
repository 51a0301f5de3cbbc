/**
 * Local files (issue 15.1, 15.2): the download target is checked and reserved before anything is
 * sent, paths stay inside the workspace and RUNNER_TEMP unless allowed, downloads are capped, and a
 * save that fails after the task exists says so. dist/index.js as a runner runs it.
 */
import { execFileSync } from 'node:child_process';
import { lstat, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { type Emulator, startEmulator } from '@mediagw/emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, startRecordingServer } from '../../core/test/recording-server.js';
import {
  type ActionRun,
  expectClean,
  expectRefused,
  failure,
  makeWorkspace,
  png,
  runAction,
  SENTINEL_KEY,
  workspaceWith,
} from './helpers.js';

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emu?.close();
});
beforeEach(() => emu.reset());

const PROMPT = 'a red fox running through fresh snow at dawn, low camera';
const connection = () => ({ 'base-url': emu.url, 'api-key': SENTINEL_KEY });
const textToVideo = (inputs: Record<string, string>, ws?: string) =>
  runAction({ operation: 'text-to-video', ...connection(), prompt: PROMPT, ...inputs }, ws);

/** Refused as an input error naming `input`, with nothing sent. */
function refused(run: ActionRun, input: string): string {
  const message = expectRefused(run, [input])[input] as string;
  expect(emu.count()).toBe(0);
  return message;
}

describe('download-path is checked before anything is sent', () => {
  it('never a device: /dev/null stays a device', async () => {
    const run = await textToVideo({ 'download-path': '/dev/null', 'allow-paths-outside-workspace': 'true' });
    expect(refused(run, 'download-path')).toContain('/dev/null is a character device, not a regular file');
    expect((await lstat('/dev/null')).isCharacterDevice()).toBe(true);
  });

  it('never a FIFO, never a directory', async () => {
    const ws = await workspaceWith({ 'out/keep.txt': 'x' });
    execFileSync('mkfifo', [join(ws, 'pipe')]);
    const fifo = await textToVideo({ 'download-path': 'pipe' }, ws);
    expect(refused(fifo, 'download-path')).toContain('is a FIFO (named pipe), not a regular file');
    const dir = await textToVideo({ 'download-path': 'out' }, ws);
    expect(refused(dir, 'download-path')).toContain('is a directory; give a file path inside it');
  });

  it('an existing file only with overwrite', async () => {
    const ws = await workspaceWith({ 'video.mp4': 'old bytes' });
    const kept = await textToVideo({ 'download-path': 'video.mp4' }, ws);
    expect(refused(kept, 'download-path')).toContain(
      'already exists; choose another path, or set overwrite to replace it',
    );
    expect(await readFile(join(ws, 'video.mp4'), 'utf8')).toBe('old bytes');

    const replaced = await textToVideo({ 'download-path': 'video.mp4', overwrite: 'true' }, ws);
    expectClean(replaced);
    expect(replaced.code, replaced.stdout).toBe(0);
    expect((await readFile(join(ws, 'video.mp4'))).byteLength).toBe(Number(replaced.outputs['video-file-size']));
  });
});

describe('paths outside the workspace and RUNNER_TEMP are refused unless allowed', () => {
  let outside: string;
  beforeAll(async () => {
    outside = await makeWorkspace();
    await writeFile(join(outside, 'secret.png'), png(4, [1, 1, 1]));
  });
  const imageToVideo = (image: string, ws: string, extra: Record<string, string> = {}) =>
    runAction({ operation: 'image-to-video', ...connection(), image, ...extra }, ws);

  it('an image given as ../, as an absolute path, through a symbolic link or a glob', async () => {
    const ws = await makeWorkspace();
    await symlink(join(outside, 'secret.png'), join(ws, 'link.png'));
    const relative = `../${outside.split('/').pop()}/secret.png`;
    for (const image of [relative, join(outside, 'secret.png'), 'link.png']) {
      const message = refused(await imageToVideo(image, ws), 'image');
      expect(message).toContain('is outside the workspace and RUNNER_TEMP');
      expect(message).toContain('set allow-paths-outside-workspace: true');
    }
    expect(refused(await imageToVideo('link.png', ws), 'image')).toContain(
      `(it leads to ${join(outside, 'secret.png')})`,
    );
    const blend = await runAction(
      { operation: 'blend', ...connection(), images: `../${outside.split('/').pop()}/*.png` },
      ws,
    );
    expect(refused(blend, 'images')).toContain('is outside the workspace');
  });

  it('a download path outside, also through a linked folder', async () => {
    const ws = await makeWorkspace();
    await symlink(outside, join(ws, 'linked'));
    for (const path of [join(outside, 'v.mp4'), 'linked/v.mp4']) {
      expect(refused(await textToVideo({ 'download-path': path }, ws), 'download-path')).toContain(
        'is outside the workspace',
      );
    }
    expect(await readdir(outside)).toEqual(['secret.png']);
  });

  it('RUNNER_TEMP is inside; allow-paths-outside-workspace lets the rest through', async () => {
    const ws = await makeWorkspace();
    const temp = await textToVideo({ 'download-path': join(`${ws}-temp`, 'v.mp4') }, ws);
    expect(temp.code, temp.stdout).toBe(0);
    const allowed = await imageToVideo(join(outside, 'secret.png'), ws, { 'allow-paths-outside-workspace': 'true' });
    expect(allowed.code, allowed.stdout).toBe(0);
    expect(emu.count('image-to-video')).toBe(1);
  });
});

/** A text-to-video answer whose video the same server serves at /video (answered by `serve`). */
async function videoServer(announced: number | undefined, serve: (res: ServerResponse) => void | Promise<void>) {
  const server = await startRecordingServer(async (req, res) => {
    if (req.method === 'GET') return serve(res);
    const video = {
      url: `${server.url}/video`,
      content_type: 'video/mp4',
      ...(announced ? { file_size: announced } : {}),
    };
    json(res, 200, { video, seed: 1, status: 'COMPLETED', request_id: 'req-4242' });
  });
  return server;
}

describe('saving what the task made', () => {
  it('stops a download that never ends at download-max-size, and keeps nothing of it', async () => {
    let sent = 0;
    const server = await videoServer(undefined, async (res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      const chunk = Buffer.alloc(64 * 1024, 7);
      while (!res.destroyed && sent < 256 * 1024 * 1024) {
        sent += chunk.length;
        if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
      }
      res.end();
    });
    try {
      const ws = await makeWorkspace();
      const run = await runAction(
        {
          operation: 'text-to-video',
          'base-url': server.url,
          'api-key': SENTINEL_KEY,
          prompt: PROMPT,
          'download-path': 'out/v.mp4',
          'download-max-size': '1MiB',
        },
        ws,
      );
      expectClean(run);
      expect(run.code).toBe(1);
      expect(failure(run)).toContain('more than 1048576 bytes arrived (the download limit)');
      expect(run.outputs['video-url']).toBe(`${server.url}/video`);
      expect(run.outputs['downloaded-path']).toBeUndefined();
      expect(await readdir(ws)).toEqual([]);
      expect(sent).toBeLessThan(64 * 1024 * 1024);
    } finally {
      await server.close();
    }
  });

  it('a local failure after the task exists: outputs set, the video and its id named, the OS reason, no network hint', async () => {
    const ws = await makeWorkspace();
    const target = join(ws, 'out', 'video.mp4');
    // The target appears (as a folder) while the video is on its way: the file cannot be put there.
    const server = await videoServer(4, async (res) => {
      await mkdir(target, { recursive: true });
      res.writeHead(200, { 'content-type': 'video/mp4' }).end('abcd');
    });
    try {
      const run = await runAction(
        {
          operation: 'text-to-video',
          'base-url': server.url,
          'api-key': SENTINEL_KEY,
          prompt: PROMPT,
          'download-path': 'out/video.mp4',
        },
        ws,
      );
      expectClean(run);
      expect(run.code).toBe(1);
      expect(run.outputs).toMatchObject({
        'video-url': `${server.url}/video`,
        'request-id': 'req-4242',
        status: 'COMPLETED',
      });
      expect(run.outputs['downloaded-path']).toBeUndefined();
      const message = failure(run);
      expect(message).toContain(
        `text-to-video succeeded, but saving its result to ${target} failed: it already exists (EEXIST)`,
      );
      expect(message).toContain(`fetch the result from ${server.url}/video`);
      expect(message).toContain('request-id req-4242');
      expect(message).not.toMatch(/network|could not reach/i);
      expect(run.summary).toContain('mediagw: text-to-video failed');
      expect(run.summary).toContain('<h3>Outputs</h3>');
      expect((await lstat(target)).isDirectory()).toBe(true);
    } finally {
      await server.close();
    }
  });
});
