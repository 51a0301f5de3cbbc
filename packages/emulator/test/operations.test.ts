/** The three operations' success answers, through the real core client, and the files they produce. */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MediaGatewayClient } from '@mediagw/core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, SAMPLE_VIDEO, startEmulator } from '../src/index.js';
import {
  bearer,
  clientFor,
  dataUri,
  GIF,
  jsonHeaders,
  KEY,
  paths,
  post,
  sha256,
  solidJpeg,
  solidPng,
} from './helpers.js';

let emu: Emulator;
let client: MediaGatewayClient;
let dir: string;
const RED = solidPng(8, 8, [255, 0, 0, 255]);
const BLUE = solidJpeg(16, 16, [0, 0, 255]);

beforeAll(async () => {
  emu = await startEmulator();
  client = clientFor(emu);
  dir = await mkdtemp(join(tmpdir(), 'mediagw-emulator-'));
});
afterAll(async () => {
  await client.close();
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});

describe('image-to-video', () => {
  it('answers the full created-task envelope, echoing the fields as strings', async () => {
    const before = Date.now();
    const result = await client.imageToVideo({
      input_image: { data: RED, name: 'red.png' },
      prompt: 'a red square slowly turning',
      negative_prompt: 'blur',
      cfg: 0.5,
      aspect_ratio: '1:1',
    });
    // biome-ignore lint/suspicious/noExplicitAny: walking the answer's nested fields
    const response = result.response as Record<string, any>;
    expect(result.warnings).toEqual([]);
    expect(Object.keys(response).sort()).toEqual(['data', 'message', 'result', 'status', 'timestamp']);
    expect(response).toMatchObject({ status: 200, result: 1, message: 'success' });
    expect(response.data).toMatchObject({ message: '', status: 5, userTickets: { ticket: [] }, works: [] });
    expect(response.data.limitation).toEqual({ limit: 1000, remaining: expect.any(Number), type: 'm2v_img2video' });

    const task = response.data.task;
    expect(task).toMatchObject({ status: 5, viewTime: 0, viewed: false, deleted: false, favored: false });
    expect(task.createTime).toBe(task.updateTime);
    expect(Number(task.createTime)).toBeGreaterThanOrEqual(before);
    expect(task.taskInfo.extraArgs).toEqual({});
    expect(task.taskInfo.inputs).toEqual([
      { name: 'input_image', filename: 'red.png', contentType: 'image/png', size: RED.length },
    ]);
    expect(result.taskId).toBe(task.id);
    expect(result.status).toBe(5);

    // [y, mo, d, h, mi, s, ns] in UTC, the same moment as createTime.
    expect(response.timestamp).toHaveLength(7);
    expect(result.timestamp?.getTime()).toBe(Number(task.createTime));

    expect(result.arguments).toEqual({
      prompt: 'a red square slowly turning',
      negative_prompt: 'blur',
      cfg: '0.5',
      aspect_ratio: '1:1',
      duration: '10',
      imageCount: '1',
      video_vendor_version: '1.6',
      camera_control_enabled: 'false',
      camera_json: expect.any(String),
      biz: expect.any(String),
      __deviceType: expect.any(String),
      __effect: expect.any(String),
      __platform: expect.any(String),
      __priority: expect.any(String),
      __userType: expect.any(String),
    });
    expect(Object.keys(JSON.parse(result.arguments.camera_json!))).toEqual([
      'type',
      'horizontal',
      'vertical',
      'zoom',
      'tilt',
      'pan',
      'roll',
    ]);
  });

  it('receives a 16 MiB upload byte for byte (streamed, hashed on the way)', async () => {
    const big = Buffer.concat([RED, randomBytes(16 * 1024 * 1024 - RED.length)]);
    const result = await client.imageToVideo({ input_image: { data: big, name: 'big.png' }, prompt: 'big' });
    const record = emu.requests.find((r) => r.taskId === result.taskId)!;
    expect(record.upload).toEqual({
      field: 'input_image',
      filename: 'big.png',
      contentType: 'image/png',
      sniffedType: 'image/png',
      bytes: big.length,
      sha256: sha256(big),
    });
    expect(record.fields).toEqual({ prompt: 'big' });
  });
});

describe('text-to-video', () => {
  it('answers COMPLETED with a real MP4 the emulator serves', async () => {
    const result = await client.textToVideo({ prompt: 'a lighthouse at dusk, waves rolling in slowly' });
    expect(result).toMatchObject({ status: 'COMPLETED', contentType: 'video/mp4', fileSize: SAMPLE_VIDEO.length });
    expect(result.videoUrl.startsWith(`${emu.url}/files/`)).toBe(true);
    expect(result.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.seed).toMatch(/^\d+$/);

    const path = join(dir, 'video.mp4');
    await client.download(result.videoUrl, path);
    const video = await readFile(path);
    expect(video.length).toBe(result.fileSize);
    expect(video.subarray(4, 8).toString('latin1')).toBe('ftyp');
    // Faststart: the index comes before the media data, so players can start at once.
    expect(video.indexOf('moov')).toBeLessThan(video.indexOf('mdat'));
    expect(sha256(video)).toBe(sha256(SAMPLE_VIDEO));
  });

  it('echoes a seed beyond 2^53 with every digit, as a JSON number', async () => {
    const seed = '196619188014358660123';
    const body = `{"prompt":"a very detailed prompt about the sea","seed":${seed}}`;
    const reply = await post(emu.url + paths().textToVideo, body, jsonHeaders(bearer()));
    expect(reply.status).toBe(200);
    expect(reply.text).toContain(`"seed":${seed}`);
    expect((await client.textToVideo({ prompt: 'the same seed again, in detail', seed })).seed).toBe(seed);
    expect(emu.requests.at(-2)!.fields.seed).toBe(seed);
  });

  it('serves any model path segment and reads JSON without a Content-Type (optional in the spec)', async () => {
    const result = await client.textToVideo({ prompt: 'a fox running through snow', model: 'acme/video-2' });
    expect(emu.requests.at(-1)!.params).toEqual({ model: 'acme/video-2' });
    expect(result.status).toBe('COMPLETED');
    const reply = await post(emu.url + paths().textToVideo, '{"prompt":"no content type header"}', bearer());
    expect(reply.status).toBe(200);
  });
});

describe('blend', () => {
  const download = async (taskId: string) => {
    const res = await fetch(`${emu.url}/files/${taskId}.png`);
    expect(res.headers.get('content-type')).toBe('image/png');
    return PNG.sync.read(Buffer.from(await res.arrayBuffer()));
  };

  it('answers code 1 with a long numeric id and serves a real blend of the pixels', async () => {
    const result = await client.blend({
      base64Array: [{ data: RED }, dataUri('image/jpeg', BLUE)],
      dimensions: 'SQUARE',
      botType: 'MAIN_JOURNEY',
    });
    expect(result.status).toBe(1);
    expect(result.response.properties).toEqual({});
    expect(result.response.description).toBe('Submit success');
    expect(result.taskId).toMatch(/^\d+$/);
    expect(BigInt(result.taskId!) > 2n ** 53n).toBe(true);

    const png = await download(result.taskId!);
    expect([png.width, png.height]).toEqual([512, 512]);
    const [r, g, b, a] = png.data.subarray(0, 4);
    // Red and (JPEG) blue averaged: about half of each.
    expect(Math.abs(r! - 128)).toBeLessThanOrEqual(3);
    expect(g).toBeLessThanOrEqual(3);
    expect(Math.abs(b! - 128)).toBeLessThanOrEqual(3);
    expect(a).toBe(255);

    const record = emu.requests.find((q) => q.taskId === result.taskId)!;
    expect(record.images).toEqual([
      { mime: 'image/png', bytes: RED.length, sha256: sha256(RED) },
      { mime: 'image/jpeg', bytes: BLUE.length, sha256: sha256(BLUE) },
    ]);
    expect(record.fields).toEqual({ dimensions: 'SQUARE', botType: 'MAIN_JOURNEY' });
  });

  it('sizes the image by dimensions, or else by the first image', async () => {
    const portrait = await client.blend({ base64Array: [{ data: RED }, { data: RED }], dimensions: 'PORTRAIT' });
    const wide = solidPng(40, 20, [0, 255, 0, 255]);
    const free = await client.blend({ base64Array: [{ data: wide }, { data: RED }] });
    const [p, f] = [await download(portrait.taskId!), await download(free.taskId!)];
    expect([p.width, p.height]).toEqual([512, 768]);
    expect([f.width, f.height]).toEqual([40, 20]);
  });

  it('draws a deterministic placeholder for images it cannot decode, and says so', async () => {
    const first = await client.blend({ base64Array: [{ data: GIF }, { data: RED }] });
    const second = await client.blend({ base64Array: [{ data: GIF }, { data: RED }] });
    expect(first.description).toContain('base64Array[0] (image/gif is not decoded');
    expect(first.description).toContain('placeholder');
    const bytes = async (id: string) =>
      sha256(Buffer.from(await (await fetch(`${emu.url}/files/${id}.png`)).arrayBuffer()));
    expect(await bytes(first.taskId!)).toBe(await bytes(second.taskId!));
  });

  it('answers 404 with a JSON message for a file it does not have', async () => {
    const res = await fetch(`${emu.url}/files/nothing.png`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { message: string }).message).toContain('nothing.png');
  });
});

describe('recording', () => {
  it('records every request with the secrets redacted, and counts them', async () => {
    emu.reset();
    await client.textToVideo({ prompt: 'a recorded request with some detail' });
    await client.blend({ base64Array: [{ data: RED }, { data: RED }] });
    await post(`${emu.url}/nowhere`, '{}', bearer());
    expect(emu.count()).toBe(3);
    expect(emu.count('blend')).toBe(1);
    expect(emu.count('image-to-video')).toBe(0);
    expect(emu.requests.map((r) => [r.operation, r.status])).toEqual([
      ['text-to-video', 200],
      ['blend', 200],
      [undefined, 404],
    ]);
    expect(emu.requests[0]!.headers.authorization).toBe('[redacted]');
    expect(emu.requests[1]!.headers['img-api-secret']).toBe('[redacted]');
    expect(JSON.stringify(emu.requests)).not.toContain(KEY);
  });
});

describe('large blend bodies', () => {
  it('takes images of several MiB each, decoded byte-exact', async () => {
    const images = [0, 1].map((i) => Buffer.concat([solidPng(2, 2, [i, 0, 0, 255]), randomBytes(8 * 1024 * 1024)]));
    const result = await client.blend({ base64Array: images.map((data) => ({ data })) });
    const record = emu.requests.find((r) => r.taskId === result.taskId)!;
    expect(record.images!.map((i) => i.sha256)).toEqual(images.map(sha256));
  });

  // 4 x 64 MiB (341 MiB of JSON): about 2 s and 1.5 GiB here, so only on request.
  it.runIf(process.env.MEDIAGW_BIG_TESTS === '1')('takes 4 images of 64 MiB', async () => {
    const images = [0, 1, 2, 3].map(() => Buffer.concat([RED, randomBytes(64 * 1024 * 1024 - RED.length)]));
    const result = await client.blend({ base64Array: images.map((data) => ({ data })) });
    expect(emu.requests.find((r) => r.taskId === result.taskId)!.images!.map((i) => i.sha256)).toEqual(
      images.map(sha256),
    );
  });
});
