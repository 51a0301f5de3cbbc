/**
 * dist/index.js run as a runner runs it (fresh env, INPUT_* with dashes, action.yml defaults, the
 * output and summary files, the workspace as cwd) against the emulator over loopback.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type Emulator, startEmulator } from '@mediagw/emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { escapeHtml } from '../src/summary.js';
import {
  annotations,
  expectClean,
  expectRefused,
  failure,
  png,
  runAction,
  SENTINEL_KEY,
  workspaceWith,
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

/** Refused before sending: the emulator saw nothing. */
function refused(run: Awaited<ReturnType<typeof runAction>>, inputs: string[]) {
  const messages = expectRefused(run, inputs);
  expect(emu.count()).toBe(0);
  return messages;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

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
    const messages = refused(run, ['image']);
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
    expect(request?.params?.model).toBe('fast_model');
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
    const messages = refused(run, [
      'num-inference-steps',
      'guidance-scale',
      'seed',
      'image',
      'video-vendor',
      'timeout-seconds',
      'retries',
    ]);
    expect(messages['num-inference-steps']).toContain('allowed: an integer from 1 to 50');
    expect(messages['guidance-scale']).toBe(
      'guidance-scale: "strong" is not a number in decimal notation; allowed: a number from 2 to 10',
    );
    expect(messages.image).toContain('does not apply to text-to-video');
    expect(messages['video-vendor']).toBe('video-vendor: does not apply to text-to-video; it is for image-to-video');
    expect(messages['timeout-seconds']).toContain('allowed: a positive number of seconds, at most 2147483');
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
    expect(run.stdout).toMatch(/^mediagw: retry 1 in \d+ ms: .*HTTP 429/m);
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
    const messages = refused(run, ['images', 'dimensions']);
    expect(messages.images).toContain('"missing/*.jpg" matches no file');
    expect(messages.dimensions).toContain('allowed: one of PORTRAIT, SQUARE, LANDSCAPE');
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
    const messages = refused(run, ['operation', 'base-url']);
    expect(messages.operation).toBe(
      'operation: "make-video" is not allowed; allowed: image-to-video, text-to-video, blend',
    );
    expect(messages['base-url']).toContain('is required');
  });
});

describe('route inputs', () => {
  it('refuse a route input of another operation, naming the operation it is for (issue 16)', async () => {
    const run = await runTextToVideo({ 'video-vendor': 'acme', 'secret-header': 'x-acme-secret' });
    const messages = refused(run, ['video-vendor', 'secret-header']);
    expect(messages['video-vendor']).toBe('video-vendor: does not apply to text-to-video; it is for image-to-video');
    expect(messages['secret-header']).toBe('secret-header: does not apply to text-to-video; it is for blend');
  });

  it("apply the core's defaults inside and take a given setting (the model segment)", async () => {
    const run = await runTextToVideo({ 'text-video-model': 'fast_model' });
    expect(run.code, run.stdout).toBe(0);
    expect(emu.requests[0]?.path).toBe('/service_prefix/submit/fast_model');
    expect(emu.requests[0]?.params).toEqual({ model: 'fast_model' });
  });

  it('refuse download inputs for an operation that makes no file, and file options without a path', async () => {
    const ws = await workspaceWith({ 'a.png': png(4, [1, 2, 3]) });
    const blend = await runAction(
      { operation: 'blend', ...connection(), images: 'a.png', 'download-path': 'x.png' },
      ws,
    );
    expect(refused(blend, ['download-path'])['download-path']).toContain('it is for text-to-video');
    const t2v = await runTextToVideo({ overwrite: 'true', 'download-max-size': '10MiB' });
    const messages = refused(t2v, ['overwrite', 'download-max-size']);
    expect(messages.overwrite).toBe('overwrite: applies only with download-path');
  });
});

describe('sparse answers (issue 14): the task exists, so the step succeeds with warnings', () => {
  const inputsOf = {
    'image-to-video': { image: 'a.png', prompt: 'a lighthouse in a storm, waves breaking over the rocks' },
    'text-to-video': { prompt: 'a red fox running through fresh snow at dawn, low camera' },
    blend: { images: 'a.png\nb.png' },
  } as const;

  it.each(Object.keys(inputsOf) as (keyof typeof inputsOf)[])('%s', async (operation) => {
    emu.setFault({ sparse: true });
    const ws = await workspaceWith({ 'a.png': png(4, [200, 0, 0]), 'b.png': png(4, [0, 0, 200]) });
    const run = await runAction({ operation, ...connection(), ...inputsOf[operation] }, ws);
    expectClean(run);
    expect(run.code, run.stdout).toBe(0);
    expect(emu.count(operation)).toBe(1);
    const answer = JSON.parse(run.outputs.response as string);
    const key = operation === 'text-to-video' ? 'video-url' : 'task-id';
    expect(run.outputs[key]).toBeTruthy();
    expect(JSON.stringify(answer)).toContain(run.outputs[key]);
    const warnings = annotations(run).filter((a) => a.level === 'warning');
    if (operation === 'blend') {
      // The spec marks everything but `code` and `result` optional: nothing to warn about.
      expect(warnings).toEqual([]);
    } else {
      expect(warnings.map((w) => w.message).join('\n')).toMatch(/the answer lacks .+, which the spec lists/);
      expect(run.summary).toContain('<h3>Warnings</h3>');
      for (const w of warnings) expect(run.summary).toContain(escapeHtml(w.message));
    }
  });
});

describe('errors say what happened (issue 15.4)', () => {
  it('refuses a key with a line break as an api-key input error, without printing it', async () => {
    const key = `${SENTINEL_KEY}\r\nx-injected: 1`;
    const run = await runTextToVideo({ 'api-key': key });
    expect(run.code).toBe(1);
    expect(emu.count()).toBe(0);
    const [error] = annotations(run).filter((a) => a.title === 'Invalid input: api-key');
    expect(error?.message).toContain('api-key: contains a line break');
    const masks = run.stdout.split('\n').filter((l) => l.startsWith('::add-mask::'));
    expect(run.stdout.replace(/^::add-mask::.*$/gm, '')).not.toContain(SENTINEL_KEY);
    expect(masks.length).toBeGreaterThan(0);
    expect(`${run.summary}${JSON.stringify(run.outputs)}`).not.toContain(SENTINEL_KEY);
  });

  it('refuses a timeout beyond what a timer holds, stating the maximum', async () => {
    const run = await runTextToVideo({ 'timeout-seconds': '2147484' });
    const messages = refused(run, ['timeout-seconds']);
    expect(messages['timeout-seconds']).toBe(
      'timeout-seconds: "2147484" is not allowed; allowed: a positive number of seconds, at most 2147483',
    );
  });

  it('says the task may exist when the connection breaks after the request was sent', async () => {
    emu.setFault({ drop: true });
    const run = await runTextToVideo();
    expectClean(run);
    expect(run.code).toBe(1);
    expect(emu.count('text-to-video')).toBe(1);
    expect(failure(run)).toMatch(/broke after the request was sent/);
    expect(failure(run)).toContain('the task may exist');
    expect(failure(run)).not.toMatch(/could not reach|nothing was sent/i);
  });

  it('never shows the credentials of a refused base-url, in the summary or anywhere (issue 16)', async () => {
    const run = await runTextToVideo({ 'base-url': `https://mallory:hunter2-secret@127.0.0.1:9/v1` });
    const messages = refused(run, ['base-url']);
    expect(messages['base-url']).toContain('must not carry a query, fragment or credentials');
    expect(run.summary).toContain('<td><code>base-url</code></td><td>https://[redacted]@127.0.0.1:9/v1</td>');
    expect(`${run.stdout}${run.stderr}${run.summary}`).not.toMatch(/hunter2|mallory/);
  });
});
