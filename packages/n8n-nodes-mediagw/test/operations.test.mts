import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SAMPLE_VIDEO, startEmulator } from '@mediagw/emulator';
import { describe, expect, it } from 'vitest';
import {
  binaryBytes,
  FIXTURES,
  outcomeOf,
  readWorkflow,
  useEmulator,
  withNodeSettings,
  withParameters,
} from './harness.mts';

const KEY = 'sk-SENTINEL-n8n-7f3a9c';
const NODE = 'Media Gateway';
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const fixture = (file: string) => readFileSync(join(FIXTURES, file));

const setup = useEmulator(KEY);

/** Runs a workflow and checks the key appears nowhere in what n8n keeps of the run. */
async function run(workflow: ReturnType<typeof readWorkflow>) {
  const result = await setup.engine.run(workflow);
  expect(JSON.stringify(result)).not.toContain(KEY);
  return result;
}

describe('Image to Video', () => {
  it('uploads the item image as multipart with Bearer auth and returns the created task', async () => {
    const { items, error } = outcomeOf(await run(readWorkflow('image-to-video.json')), NODE);
    expect(error).toBeUndefined();
    expect(items).toHaveLength(1);
    const [item] = items;
    expect(item?.pairedItem).toEqual({ item: 0 });
    expect(item?.json).toMatchObject({ operation: 'image-to-video', status: 5, warnings: [] });
    expect(typeof item?.json.taskId).toBe('string');
    expect(item?.json.arguments).toMatchObject({
      aspect_ratio: '16:9',
      cfg: '0.5',
      negative_prompt: 'text, watermark',
    });
    // The raw answer under its own key.
    expect(item?.json.response).toMatchObject({ result: 1, status: 200 });
    expect((item!.json.response as { data: { task: { id: string } } }).data.task.id).toBe(item?.json.taskId);

    const [request] = setup.emu.requests;
    expect(request).toMatchObject({ operation: 'image-to-video', status: 200, taskId: item?.json.taskId });
    expect(request?.fields).toMatchObject({
      prompt: 'A slow pan across a sunset over the sea, warm light, gentle waves',
      aspect_ratio: '16:9',
      cfg: '0.5',
    });
    expect(request?.upload).toMatchObject({
      field: 'input_image',
      filename: 'red.png',
      contentType: 'image/png',
      sha256: sha256(fixture('red.png')),
    });
    // Bearer style on the wire (the pinned key was accepted in that form), no secret header.
    expect(request?.headers.authorization).toBe('[redacted]');
    expect(request?.headers).not.toHaveProperty('img-api-secret');
  });
});

describe('Text to Video', () => {
  it('sends JSON with every seed digit, returns the video and downloads it into binary data', async () => {
    const { items, error } = outcomeOf(await run(readWorkflow('text-to-video.json')), NODE);
    expect(error).toBeUndefined();
    const [item] = items;
    expect(item?.pairedItem).toEqual({ item: 0 });
    expect(item?.json).toMatchObject({ operation: 'text-to-video', status: 'COMPLETED', seed: '196619188014358660' });
    expect(item?.json.videoUrl).toMatch(new RegExp(`^${setup.emu.url}/files/.+\\.mp4$`));
    expect(item?.json.response).toMatchObject({ status: 'COMPLETED' });

    const [request] = setup.emu.requests;
    expect(request?.fields).toMatchObject({
      prompt: 'A red fox running through fresh snow at dawn, cinematic, slow motion',
      num_inference_steps: 30,
      guidance_scale: 6.5,
      seed: '196619188014358660',
    });
    expect(request?.headers.authorization).toBe('[redacted]');

    const video = item?.binary?.video;
    expect(video).toMatchObject({ mimeType: 'video/mp4' });
    expect(video?.id).toMatch(/^filesystem/);
    expect(sha256(await binaryBytes(item!, 'video'))).toBe(sha256(SAMPLE_VIDEO));
    // The download went to the URL without the key.
    expect(setup.emu.downloads).toHaveLength(1);
  });

  it('keeps only the URL when Download Video is off', async () => {
    const workflow = withParameters(readWorkflow('text-to-video.json'), NODE, { download: false });
    const [item] = outcomeOf(await run(workflow), NODE).items;
    expect(item?.json.videoUrl).toBeTypeOf('string');
    expect(item?.binary).toBeUndefined();
    expect(setup.emu.downloads).toHaveLength(0);
  });
});

describe('Blend', () => {
  it('sends the listed images as data URIs in JSON with the bare key in the secret header', async () => {
    const { items, error } = outcomeOf(await run(readWorkflow('blend.json')), NODE);
    expect(error).toBeUndefined();
    const [item] = items;
    expect(item?.pairedItem).toEqual({ item: 0 });
    expect(item?.json).toMatchObject({ operation: 'blend', status: 1, warnings: [] });
    expect(item?.json.taskId).toMatch(/^\d+$/);

    const [request] = setup.emu.requests;
    expect(request).toMatchObject({ operation: 'blend', status: 200, taskId: item?.json.taskId });
    expect(request?.fields).toMatchObject({ dimensions: 'SQUARE', botType: 'MAIN_JOURNEY', state: 'order-17' });
    expect(request?.images).toEqual([
      { mime: 'image/png', bytes: fixture('red.png').length, sha256: sha256(fixture('red.png')) },
      { mime: 'image/png', bytes: fixture('blue.png').length, sha256: sha256(fixture('blue.png')) },
    ]);
    // Secret-header style on the wire (the bare pinned key was accepted), no Authorization.
    expect(request?.headers['img-api-secret']).toBe('[redacted]');
    expect(request?.headers).not.toHaveProperty('authorization');
  });

  it('takes all binary properties of the item and keeps a task id beyond 2^53 digit for digit', async () => {
    setup.emu.setFault({ blendIdAsNumber: true });
    try {
      const workflow = withParameters(readWorkflow('blend.json'), NODE, { images: 'all' });
      const [item] = outcomeOf(await run(workflow), NODE).items;
      const [request] = setup.emu.requests;
      expect(request?.images?.map((i) => i.sha256)).toEqual([sha256(fixture('red.png')), sha256(fixture('blue.png'))]);
      expect(BigInt(item?.json.taskId as string)).toBeGreaterThan(2n ** 53n);
      expect(item?.json.taskId).toBe(request?.taskId);
    } finally {
      setup.emu.setFault(undefined);
    }
  });

  it('honours custom routes and secret header name from the credential', async () => {
    const custom = await startEmulator({
      port: 0,
      apiKey: KEY,
      routes: { imageRelaxPrefix: 'relax/v2', secretHeader: 'x-blend-key', videoVendor: 'vendor-x' },
    });
    try {
      setup.engine.credentials.set('gw', {
        baseUrl: `${custom.url}/`,
        apiKey: KEY,
        customizeRoutes: true,
        imageRelaxPrefix: 'relax/v2',
        blendKeyHeader: 'x-blend-key',
        videoVendor: 'vendor-x',
      });
      const blend = outcomeOf(await run(readWorkflow('blend.json')), NODE);
      const video = outcomeOf(await run(readWorkflow('image-to-video.json')), NODE);
      expect(blend.error).toBeUndefined();
      expect(video.error).toBeUndefined();
      expect(custom.requests.map((r) => [r.path, r.status])).toEqual([
        ['/relax/v2/submit/blend', 200],
        ['/vendor-x/m2v_16_img2video_10s', 200],
      ]);
      expect(custom.requests[0]?.headers['x-blend-key']).toBe('[redacted]');
    } finally {
      await custom.close();
    }
  });
});

describe('items', () => {
  it('gives every item its own result, in input order, each paired with its input', async () => {
    const prompts = ['first', 'second', 'third', 'fourth', 'fifth'].map((word) => ({
      json: { prompt: `The ${word} scene: a lighthouse in a storm, waves breaking, night` },
    }));
    let workflow = withParameters(readWorkflow('text-to-video.json'), 'Prompts', { items: prompts });
    workflow = withParameters(workflow, NODE, { download: false, options: { concurrency: 2 } });
    const { items } = outcomeOf(await run(workflow), NODE);
    expect(items.map((i) => i.pairedItem)).toEqual(prompts.map((_, item) => ({ item })));
    const sent = new Map(setup.emu.requests.map((r) => [r.taskId, r.fields.prompt]));
    expect(items.map((i) => sent.get(i.json.requestId as string))).toEqual(prompts.map((p) => p.json.prompt));
  });

  it('runs with continue on fail per item: failures become error items, the rest succeed', async () => {
    const specs = [
      { binary: { data: 'red.png' } },
      { binary: { data: 'notes.txt' } },
      { binary: { data: 'green.jpg' } },
    ];
    let workflow = withParameters(readWorkflow('image-to-video.json'), 'Images', { items: specs });
    workflow = withNodeSettings(workflow, NODE, { onError: 'continueRegularOutput' });
    const { items, error } = outcomeOf(await run(workflow), NODE);
    expect(error).toBeUndefined();
    expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
    expect(items[0]?.json.taskId).toBeTypeOf('string');
    expect(items[1]?.json.error).toMatch(/Input Binary Field \(input_image\): is not an image/);
    expect(items[2]?.json.taskId).toBeTypeOf('string');
    // Items run concurrently: arrival order is free, only the bad image never left.
    expect(setup.emu.requests.map((r) => r.upload?.contentType).sort()).toEqual(['image/jpeg', 'image/png']);
  });
});
