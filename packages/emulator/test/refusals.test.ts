/** Routes (404), keys (401/403), validation (400 naming the field) and size limits (413). */
import {
  AuthenticationError,
  createClient,
  NotFoundError,
  PermissionDeniedError,
  ValidationError,
} from '@mediagw/core';
import { FormData } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../src/index.js';
import { bearer, clientFor, dataUri, jsonHeaders, KEY, paths, post, solidPng } from './helpers.js';

const PNG = solidPng(4, 4, [10, 20, 30, 255]);
const FORBIDDEN = 'sk-SENTINEL-forbidden-0b9e';
let open: Emulator;
let pinned: Emulator;

beforeAll(async () => {
  open = await startEmulator();
  pinned = await startEmulator({
    apiKey: KEY,
    forbiddenKeys: [FORBIDDEN],
    routes: {
      videoVendor: 'acme',
      servicePrefix: 'svc',
      textVideoModel: 'vid-1',
      imageRelaxPrefix: 'relax',
      secretHeader: 'x-gw-key',
    },
    maxUploadBytes: 64 * 1024,
  });
});
afterAll(async () => {
  await open.close();
  await pinned.close();
});

const body = (reply: { json: () => Record<string, unknown> }) => reply.json() as { code: number; message: string };

describe('routes', () => {
  it('answers 404 with a JSON body listing what it serves', async () => {
    const reply = await post(`${open.url}/video_vendor/m2v_99_img2video_5s`, '{}', bearer());
    expect(reply.status).toBe(404);
    expect(body(reply).code).toBe(404);
    expect(body(reply).message).toContain('/video_vendor/m2v_16_img2video_10s');
    const get = await fetch(open.url + paths().blend);
    expect(get.status).toBe(404);
  });

  it('serves configured route segments and names the version entry after the vendor', async () => {
    const client = clientFor(pinned);
    const result = await client.imageToVideo({ input_image: { data: PNG }, prompt: 'acme' });
    expect(result.arguments.acme_version).toBe('1.6');
    await client.textToVideo({ prompt: 'a configured route with a configured model' });
    await client.blend({ base64Array: [{ data: PNG }, { data: PNG }] });
    expect(pinned.requests.slice(-3).map((r) => r.path)).toEqual([
      '/acme/m2v_16_img2video_10s',
      '/svc/submit/vid-1',
      '/relax/submit/blend',
    ]);
    // The renamed secret header is redacted too, although its name does not look secret.
    expect(pinned.requests.at(-1)!.headers['x-gw-key']).toBe('[redacted]');
    await client.close();
    // The default routes are not served there.
    const wrong = await post(pinned.url + paths().textToVideo, '{"prompt":"x"}', jsonHeaders(bearer()));
    expect(wrong.status).toBe(404);
  });

  it('refuses bad options with the field named', async () => {
    await expect(startEmulator({ routes: { videoVendor: 'a b' } })).rejects.toThrow(/routes\.videoVendor/);
    await expect(startEmulator({ port: -1 })).rejects.toThrow(ValidationError);
  });
});

describe('keys', () => {
  const t2v = (emu: Emulator, headers: Record<string, string>) =>
    post(
      emu.url + (emu === pinned ? '/svc/submit/vid-1' : paths().textToVideo),
      '{"prompt":"x"}',
      jsonHeaders(headers),
    );
  const blendCall = (emu: Emulator, headers: Record<string, string>) =>
    post(
      emu.url + (emu === pinned ? '/relax/submit/blend' : paths().blend),
      JSON.stringify({ base64Array: [dataUri('image/png', PNG)] }),
      jsonHeaders(headers),
    );

  it('401 without a key, with a malformed Authorization, or with Bearer in the secret header', async () => {
    for (const reply of [
      await t2v(open, {}),
      await t2v(open, { authorization: KEY }),
      await t2v(open, { authorization: 'Bearer ' }),
      await blendCall(open, {}),
      await blendCall(open, { 'img-api-secret': `Bearer ${KEY}` }),
      await blendCall(open, bearer()),
    ]) {
      expect(reply.status).toBe(401);
      expect(body(reply).code).toBe(401);
      expect(body(reply).message).not.toContain(KEY);
    }
    expect(body(await blendCall(open, {})).message).toContain('img-api-secret');
  });

  it('accepts any non-empty key by default, and only the pinned one when pinned', async () => {
    expect((await t2v(open, bearer('anything'))).status).toBe(200);
    expect((await blendCall(open, { 'img-api-secret': 'anything' })).status).toBe(200);
    const wrong = await t2v(pinned, bearer('sk-SENTINEL-wrong'));
    expect([wrong.status, body(wrong).message]).toEqual([401, 'the API key is not valid']);
    expect((await blendCall(pinned, { 'x-gw-key': KEY })).status).toBe(200);
  });

  it('403 for a forbidden key', async () => {
    expect((await t2v(pinned, bearer(FORBIDDEN))).status).toBe(403);
    expect((await blendCall(pinned, { 'x-gw-key': FORBIDDEN })).status).toBe(403);
  });

  it('maps to the core client errors', async () => {
    const wrong = clientFor(pinned, { apiKey: 'sk-SENTINEL-wrong-key' });
    await expect(wrong.textToVideo({ prompt: 'a prompt that is long enough' })).rejects.toThrow(AuthenticationError);
    await wrong.close();
    const forbidden = clientFor(pinned, { apiKey: FORBIDDEN });
    await expect(forbidden.blend({ base64Array: [{ data: PNG }] })).rejects.toThrow(PermissionDeniedError);
    await forbidden.close();
    const misrouted = createClient({ baseUrl: open.url, apiKey: KEY, videoVendor: 'other' });
    await expect(misrouted.imageToVideo({ input_image: { data: PNG } })).rejects.toThrow(NotFoundError);
    await misrouted.close();
  });
});

describe('validation', () => {
  const issuesOf = (reply: { json: () => Record<string, unknown> }) =>
    (reply.json().issues as { field: string }[]).map((i) => i.field);

  it('text-to-video: 400 naming each bad field', async () => {
    const reply = await post(
      open.url + paths().textToVideo,
      JSON.stringify({ prompt: 'ok', num_inference_steps: 51, guidance_scale: 1, colour: 'red' }),
      jsonHeaders(bearer()),
    );
    expect(reply.status).toBe(400);
    expect(issuesOf(reply).sort()).toEqual(['colour', 'guidance_scale', 'num_inference_steps']);
    expect(body(reply).message).toContain('num_inference_steps');
    const missing = await post(open.url + paths().textToVideo, '{}', jsonHeaders(bearer()));
    expect(issuesOf(missing)).toEqual(['prompt']);
    const notJson = await post(open.url + paths().textToVideo, '{"prompt":', jsonHeaders(bearer()));
    expect([notJson.status, body(notJson).message]).toEqual([400, expect.stringContaining('not valid JSON')]);
  });

  it('image-to-video: 400 for a missing or non-image file and bad fields', async () => {
    const form = new FormData();
    form.append('cfg', 'lots');
    form.append('aspect_ratio', 'wide');
    form.append('input_image', new Blob([Buffer.from('%PDF-1.7 not an image')]), 'doc.pdf');
    const reply = await post(open.url + paths().imageToVideo, form, bearer());
    expect(reply.status).toBe(400);
    expect(issuesOf(reply).sort()).toEqual(['aspect_ratio', 'cfg', 'input_image']);

    const noFile = new FormData();
    noFile.append('prompt', 'no image');
    expect(issuesOf(await post(open.url + paths().imageToVideo, noFile, bearer()))).toEqual(['input_image']);
    const notMultipart = await post(open.url + paths().imageToVideo, '{"prompt":"x"}', jsonHeaders(bearer()));
    expect([notMultipart.status, issuesOf(notMultipart)]).toEqual([400, ['input_image']]);
  });

  it('blend: 400 for a data URI that is not the image it claims, or a bad enum', async () => {
    const send = (payload: unknown) =>
      post(open.url + paths().blend, JSON.stringify(payload), jsonHeaders({ 'img-api-secret': KEY }));
    const images = await send({ base64Array: [dataUri('image/jpeg', PNG), 'data:image/png;base64,aGVsbG8='] });
    expect(images.status).toBe(400);
    expect(issuesOf(images)).toEqual(['base64Array[0]', 'base64Array[1]']);
    expect(body(images).message).toContain('declares image/jpeg but its bytes are image/png');
    const enumValue = await send({ base64Array: [dataUri('image/png', PNG)], dimensions: 'square' });
    expect(issuesOf(enumValue)).toEqual(['dimensions']);
    expect(body(enumValue).message).toContain('allowed: one of PORTRAIT, SQUARE, LANDSCAPE');
    expect(issuesOf(await send({ botType: 'MAIN_JOURNEY' }))).toEqual(['base64Array']);
  });
});

describe('size limits', () => {
  it('413 for an upload above maxUploadBytes, as JSON', async () => {
    const client = clientFor(pinned);
    const big = Buffer.concat([PNG, Buffer.alloc(80 * 1024)]);
    const error = await client.imageToVideo({ input_image: { data: big } }).catch((e) => e);
    expect(error.status).toBe(413);
    expect(error.gatewayMessage).toContain('maxUploadBytes');
    expect(pinned.requests.at(-1)!.status).toBe(413);
    await client.close();
  });

  it('413 for a blend body above the limit maxUploadBytes sets', async () => {
    const client = clientFor(pinned);
    const big = Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]);
    const error = await client.blend({ base64Array: [{ data: big }] }).catch((e) => e);
    expect(error.status).toBe(413);
    await client.close();
  });
});
