/**
 * dist/index.js run as a runner runs it (fresh env, INPUT_* with dashes, action.yml defaults, the
 * output and summary files, the workspace as cwd) against the emulator over loopback.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type Emulator, startEmulator } from '@mediagw/emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type ActionRun,
  annotations,
  everythingPrinted,
  makeWorkspace,
  png,
  runAction,
  SENTINEL_KEY,
} from './helpers.js';

const FORBIDDEN_KEY = `${SENTINEL_KEY}-forbidden`;
let emu: Emulator;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, host: '127.0.0.1', apiKey: SENTINEL_KEY, forbiddenKeys: [FORBIDDEN_KEY] });
});
afterAll(async () => {
  await emu?.close();
});
beforeEach(() => {
  emu.setFault(undefined);
  emu.reset();
});

const connection = () => ({ 'base-url': emu.url, 'api-key': SENTINEL_KEY });
const runTextToVideo = (inputs: Record<string, string> = {}) =>
  runAction({
    operation: 'text-to-video',
    ...connection(),
    prompt: 'a hot air balloon rising over a misty valley at sunrise',
    ...inputs,
  });

async function workspaceWith(files: Record<string, Uint8Array | string>): Promise<string> {
  const ws = await makeWorkspace();
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(ws, path)), { recursive: true });
    await writeFile(join(ws, path), content);
  }
  return ws;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** What every run must show: the key masked first, then never again; no stack trace. */
function expectClean(run: ActionRun, key = SENTINEL_KEY) {
  expect(run.stdout.split('\n')[0]).toBe(`::add-mask::${key}`);
  expect(everythingPrinted(run)).not.toContain('SENTINEL');
  expect(`${run.stdout}\n${run.stderr}`).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
}

/** A bad-input run: exit 1, one annotation per named input, nothing sent. */
function expectRefused(run: ActionRun, inputs: string[]) {
  expectClean(run);
  expect(run.code).toBe(1);
  expect(emu.count()).toBe(0);
  const titled = annotations(run).filter((a) => a.title?.startsWith('Invalid input: '));
  expect(titled.map((a) => a.title?.slice('Invalid input: '.length)).sort()).toEqual([...inputs].sort());
  for (const a of titled) expect(a.message.startsWith(`${a.title?.slice('Invalid input: '.length)}: `)).toBe(true);
  expect(run.outputs).toEqual({});
  expect(run.summary).toContain('failed');
  expect(run.summary).toContain('nothing was sent to the gateway');
  return Object.fromEntries(titled.map((a) => [a.title?.slice('Invalid input: '.length), a.message]));
}

describe('image-to-video', () => {
  it('uploads the image and outputs the created task', async () => {
    const image = png(8, [200, 40, 40]);
    const ws = await workspaceWith({ 'assets/photo.png': image });
    const run = await runAction(
      {
        operation: 'image-to-video',
        ...connection(),
        image: 'assets/photo.png',
        prompt: 'a lighthouse in a storm, waves breaking over the rocks',
        cfg: '0.5',
        'aspect-ratio': '16:9',
      },
      ws,
    );
    expectClean(run);
    expect(run.code, run.stdout).toBe(0);

    const [request] = emu.requests;
    expect(emu.count('image-to-video')).toBe(1);
    expect(request?.fields).toMatchObject({ prompt: 'a lighthouse in a storm, waves breaking over the rocks' });
    expect(Number(request?.fields.cfg)).toBe(0.5);
    expect(request?.fields.aspect_ratio).toBe('16:9');
    expect(request?.upload).toMatchObject({ filename: 'photo.png', sniffedType: 'image/png', sha256: sha256(image) });

    const response = JSON.parse(run.outputs.response as string);
    expect(run.outputs['task-id']).toMatch(/^\d+$/);
    expect(run.outputs['task-id']).toBe(String(response.data.task.id));
    expect(run.outputs['task-id']).toBe(request?.taskId);
    expect(run.outputs.status).toBe(String(response.data.task.status));
    expect(run.outputs['response-file']?.startsWith(run.runnerTemp)).toBe(true);
    expect(JSON.parse(await readFile(run.outputs['response-file'] as string, 'utf8'))).toEqual(response);

    expect(run.summary).toContain('mediagw: image-to-video succeeded');
    expect(run.summary).toContain(`<td><code>task-id</code></td><td>${run.outputs['task-id']}</td>`);
    expect(run.summary).toContain('<td><code>image</code></td><td>assets/photo.png</td>');
    expect(run.summary).toContain('<td><code>aspect-ratio</code></td><td>16:9</td>');
    expect(run.summary).not.toContain('api-key');
  });

  it('refuses a file that is not an image, naming the input, before sending', async () => {
    const ws = await workspaceWith({ 'notes.png': 'just text, whatever the name says' });
    const run = await runAction({ operation: 'image-to-video', ...connection(), image: 'notes.png' }, ws);
    const messages = expectRefused(run, ['image']);
    expect(messages.image).toMatch(/^image: notes\.png: is not an image.*allowed: PNG, JPEG/);
  });

  it('fails on an envelope refusal with the gateway message', async () => {
    emu.setFault({ envelopeFailure: true });
    const ws = await workspaceWith({ 'a.png': png(4, [0, 0, 255]) });
    const run = await runAction({ operation: 'image-to-video', ...connection(), image: 'a.png' }, ws);
    expectClean(run);
    expect(run.code).toBe(1);
    expect(emu.count()).toBe(1);
    const [failure] = annotations(run).filter((a) => a.level === 'error');
    expect(failure?.message).toMatch(/^image-to-video failed with HTTP 200 \(gateway code \d+\): \S/);
    expect(run.outputs).toEqual({});
  });
});

describe('text-to-video', () => {
  it('outputs the video, keeps every digit of the seed, and downloads the file', async () => {
    const seed = '123456789012345678901234567890';
    const run = await runAction({
      operation: 'text-to-video',
      ...connection(),
      prompt: 'a red fox running through fresh snow at dawn, low camera',
      'num-inference-steps': '30',
      'guidance-scale': '7.5',
      seed,
      model: 'fast_model',
      'download-path': 'out/video.mp4',
    });
    expectClean(run);
    expect(run.code, run.stdout).toBe(0);

    const [request] = emu.requests;
    expect(request?.model).toBe('fast_model');
    expect(request?.fields).toMatchObject({ num_inference_steps: 30, guidance_scale: 7.5 });
    expect(String(request?.fields.seed)).toBe(seed);

    const { outputs } = run;
    const response = JSON.parse(outputs.response as string);
    expect(outputs.seed).toBe(seed);
    expect(outputs.status).toBe(response.status);
    expect(outputs['video-url']).toBe(response.video.url);
    expect(outputs['video-url']?.startsWith(`${emu.url}/`)).toBe(true);
    expect(outputs['video-content-type']).toBe(response.video.content_type);
    expect(outputs['request-id']).toBe(response.request_id);
    expect(outputs['downloaded-path']).toBe(join(run.workspace, 'out/video.mp4'));
    const saved = await stat(outputs['downloaded-path'] as string);
    expect(String(saved.size)).toBe(outputs['video-file-size']);

    expect(run.summary).toContain('mediagw: text-to-video succeeded');
    expect(run.summary).toContain(`<a href="${outputs['video-url']}">`);
    expect(run.summary).toContain(`<td><code>seed</code></td><td>${seed}</td>`);
  });

  it('lists every bad input at once, with what is allowed, and sends nothing', async () => {
    const run = await runAction({
      operation: 'text-to-video',
      ...connection(),
      prompt: 'a quiet harbour at night, boats rocking gently in the swell',
      'num-inference-steps': '51',
      'guidance-scale': 'strong',
      seed: '12.5',
      image: 'photo.png',
      'video-vendor': 'a b',
      'timeout-seconds': '-3',
      retries: 'many',
    });
    const messages = expectRefused(run, [
      'num-inference-steps',
      'guidance-scale',
      'seed',
      'image',
      'video-vendor',
      'timeout-seconds',
      'retries',
    ]);
    expect(messages['num-inference-steps']).toContain('allowed: an integer from 1 to 50');
    expect(messages['guidance-scale']).toContain('must be a number from 2 to 10');
    expect(messages.image).toContain('does not apply to text-to-video');
    expect(messages['video-vendor']).toContain('allowed: letters, digits');
    expect(messages['timeout-seconds']).toContain('allowed: a positive number of seconds');
  });

  it('fails with the HTTP status and the gateway message, and says so in the summary', async () => {
    emu.setFault({ status: 500 });
    const run = await runTextToVideo();
    expectClean(run);
    expect(run.code).toBe(1);
    expect(emu.count('text-to-video')).toBe(1); // a 500 is never retried: the task may exist
    const failure = annotations(run).find((a) => a.level === 'error');
    expect(failure?.message).toMatch(/^text-to-video failed with HTTP 500.*: Internal Server Error \(emulated fault\)/);
    expect(failure?.message).toContain('It may have created the task anyway');
    expect(run.summary).toContain('mediagw: text-to-video failed');
    expect(run.summary).toContain('HTTP 500');
    expect(run.outputs).toEqual({});
  });

  it('retries a 429 after Retry-After, then succeeds', async () => {
    emu.setFault({ status: 429, retryAfter: '0', times: 1 });
    const run = await runTextToVideo();
    expectClean(run);
    expect(run.code, run.stdout).toBe(0);
    expect(emu.count('text-to-video')).toBe(2);
    expect(run.stdout).toMatch(/^retry 1 in \d+ ms: .*HTTP 429/m);
    expect(run.outputs['video-url']).toBeTruthy();
  });

  it('shows the start of an HTML error page the gateway sends', async () => {
    emu.setFault({ status: 502 });
    const run = await runTextToVideo();
    expectClean(run);
    expect(run.code).toBe(1);
    const failure = annotations(run).find((a) => a.level === 'error');
    expect(failure?.message).toMatch(/^text-to-video failed with HTTP 502: the gateway answered ".*502 Bad Gateway/);
    expect(run.summary).not.toContain('<center>');
  });

  it('gives up at once with retries 0', async () => {
    emu.setFault({ status: 503 });
    const run = await runTextToVideo({ retries: '0' });
    expect(run.code).toBe(1);
    expect(emu.count('text-to-video')).toBe(1);
    expect(annotations(run).find((a) => a.level === 'error')?.message).toContain('HTTP 503');
  });
});

describe('blend', () => {
  it('blends the files a glob matches, in path order, minus the excluded ones', async () => {
    const images = { 'images/b.png': png(4, [0, 255, 0]), 'images/a.png': png(4, [255, 0, 0]) };
    const ws = await workspaceWith({ ...images, 'images/draft-c.png': png(4, [0, 0, 0]), 'images/readme.txt': 'x' });
    const run = await runAction(
      {
        operation: 'blend',
        ...connection(),
        images: 'images/*.png\n!images/draft-*.png\n',
        'bot-type': 'MAIN_JOURNEY',
        dimensions: 'SQUARE',
        state: 'build 42',
      },
      ws,
    );
    expectClean(run);
    expect(run.code, run.stdout).toBe(0);

    const [request] = emu.requests;
    expect(request?.images?.map((i) => i.sha256)).toEqual([
      sha256(images['images/a.png']),
      sha256(images['images/b.png']),
    ]);
    expect(request?.fields).toMatchObject({ botType: 'MAIN_JOURNEY', dimensions: 'SQUARE', state: 'build 42' });
    expect(request?.headers['img-api-secret']).toBe('[redacted]');

    const response = JSON.parse(run.outputs.response as string);
    expect(run.outputs['task-id']).toMatch(/^\d+$/);
    expect(run.outputs['task-id']).toBe(String(response.result));
    expect(run.outputs.status).toBe(String(response.code));
    expect(run.summary).toContain('<td><code>images</code></td><td>images/a.png\nimages/b.png</td>');
  });

  it('refuses a glob that matches nothing and a wrong enum value, before sending', async () => {
    const ws = await workspaceWith({ 'images/a.png': png(4, [1, 2, 3]) });
    const run = await runAction(
      { operation: 'blend', ...connection(), images: 'images/a.png\nmissing/*.jpg', dimensions: 'square' },
      ws,
    );
    const messages = expectRefused(run, ['images', 'dimensions']);
    expect(messages.images).toContain('"missing/*.jpg" matches no file');
    expect(messages.dimensions).toContain('allowed: PORTRAIT, SQUARE, LANDSCAPE');
  });

  it('fails with 403 for a forbidden key, and never shows that key', async () => {
    const ws = await workspaceWith({ 'a.png': png(4, [9, 9, 9]) });
    const run = await runAction({ operation: 'blend', ...connection(), 'api-key': FORBIDDEN_KEY, images: 'a.png' }, ws);
    expectClean(run, FORBIDDEN_KEY);
    expect(run.code).toBe(1);
    expect(annotations(run).find((a) => a.level === 'error')?.message).toMatch(
      /^blend failed with HTTP 403.*: this API key may not use this operation/,
    );
  });
});

describe('shared inputs', () => {
  it('names the allowed operations and the missing required inputs', async () => {
    const run = await runAction({ operation: 'make-video', 'base-url': '', 'api-key': SENTINEL_KEY });
    const messages = expectRefused(run, ['operation', 'base-url']);
    expect(messages.operation).toBe(
      'operation: "make-video" is not allowed; allowed: image-to-video, text-to-video, blend',
    );
    expect(messages['base-url']).toContain('is required');
  });
});
