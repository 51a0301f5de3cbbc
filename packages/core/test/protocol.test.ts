/** The pure protocol: config, builders, parsers, exact numbers, retry policy. No network. */
import { describe, expect, it } from 'vitest';
import {
  blend,
  buildBlendRequest,
  buildImageToVideoRequest,
  buildTextToVideoRequest,
  DEFAULT_ROUTES,
  type ImageSource,
  InvalidResponseError,
  parseBlendResponse,
  parseImageToVideoResponse,
  parseJsonExact,
  parseRetryAfter,
  parseTextToVideoResponse,
  RefusedError,
  resolveConfig,
  retryDelay,
  segmentsLength,
  timestampToDate,
  ValidationError,
} from '../src/protocol.js';
import { I2V_OK, JPEG, KEY, PDF, PNG, T2V_OK } from './recording-server.js';

const config = resolveConfig({ baseUrl: 'https://gw.test/api/v1/', apiKey: KEY });
const source = (bytes: Uint8Array, name?: string): ImageSource<Uint8Array> => ({
  size: bytes.byteLength,
  head: bytes.subarray(0, 64),
  name,
  handle: bytes,
});
const raw = (body: string, status = 200) => ({ status, headers: {}, body });

function validationIssues(fn: () => unknown): { field: string; message: string }[] {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).issues;
  }
  throw new Error('expected a ValidationError');
}

describe('config', () => {
  it('defaults every neutral segment to its documented word', () => {
    expect(DEFAULT_ROUTES).toEqual({
      videoVendor: 'video_vendor',
      servicePrefix: 'service_prefix',
      textVideoModel: 'text_video_model',
      imageRelaxPrefix: 'image_relax_prefix',
      secretHeader: 'img-api-secret',
    });
  });

  it('keeps a base path prefix and ignores trailing slashes', () => {
    for (const baseUrl of ['https://gw.test/api/v1', 'https://gw.test/api/v1/', 'https://gw.test/api/v1//']) {
      const r = buildTextToVideoRequest(resolveConfig({ baseUrl }), { prompt: 'x' });
      expect(r.url).toBe('https://gw.test/api/v1/service_prefix/submit/text_video_model');
    }
  });

  it('names bad settings', () => {
    const issues = validationIssues(() =>
      resolveConfig({ baseUrl: 'ftp://x', apiKey: ' ', videoVendor: 'a b', secretHeader: 'bad header' }),
    );
    expect(issues.map((i) => i.field).sort()).toEqual(['api-key', 'base-url', 'secret-header', 'video-vendor']);
    expect(validationIssues(() => resolveConfig({ baseUrl: 'not a url' }))[0]?.message).toMatch(/not an absolute URL/);
  });
});

describe('text-to-video builder', () => {
  it('builds the exact JSON body, route and bearer auth', () => {
    const r = buildTextToVideoRequest(config, {
      prompt: 'a red fox running through fresh snow at dawn',
      negative_prompt: 'blur',
      num_inference_steps: 30,
      guidance_scale: 7.5,
      seed: '196619188014358660',
      model: 'ltx/video',
    });
    expect(r.method).toBe('POST');
    expect(r.url).toBe('https://gw.test/api/v1/service_prefix/submit/ltx/video');
    expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(r.headers['img-api-secret']).toBeUndefined();
    expect(r.body).toEqual({
      type: 'json',
      contentType: 'application/json',
      text: '{"prompt":"a red fox running through fresh snow at dawn","negative_prompt":"blur","num_inference_steps":30,"guidance_scale":7.5,"seed":196619188014358660}',
    });
    expect(r.warnings).toEqual([]);
  });

  it('leaves out optional fields and warns (only) about a short prompt', () => {
    const r = buildTextToVideoRequest(config, { prompt: 'a cat' });
    expect(r.body).toMatchObject({ text: '{"prompt":"a cat"}' });
    expect(r.warnings[0]).toMatch(/short prompts/);
  });

  it.each([
    [{}, 'prompt', /is required/],
    [{ prompt: '   ' }, 'prompt', /is empty/],
    [{ prompt: 'p', num_inference_steps: 0 }, 'num_inference_steps', /allowed: an integer from 1 to 50/],
    [{ prompt: 'p', num_inference_steps: 51 }, 'num_inference_steps', /allowed: an integer from 1 to 50/],
    [{ prompt: 'p', num_inference_steps: 2.5 }, 'num_inference_steps', /allowed: an integer from 1 to 50/],
    [{ prompt: 'p', num_inference_steps: '10' }, 'num_inference_steps', /must be an integer from 1 to 50/],
    [{ prompt: 'p', guidance_scale: 1.99 }, 'guidance_scale', /allowed: a number from 2 to 10/],
    [{ prompt: 'p', guidance_scale: 10.01 }, 'guidance_scale', /allowed: a number from 2 to 10/],
    [{ prompt: 'p', guidance_scale: Number.NaN }, 'guidance_scale', /2 to 10/],
    [{ prompt: 'p', seed: 1.5 }, 'seed', /must be an integer/],
    [{ prompt: 'p', seed: 2 ** 60 }, 'seed', /beyond 2\^53, give it as a string/],
    [{ prompt: 'p', seed: '12a' }, 'seed', /must be an integer/],
    [{ prompt: 'p', seeds: 1 }, 'seeds', /not a field of this operation; allowed: prompt/],
    [{ prompt: 'p', model: '../x' }, 'model', /not a path segment/],
  ])('refuses %j at %s', (input, field, message) => {
    const issues = validationIssues(() => buildTextToVideoRequest(config, input as never));
    const issue = issues.find((i) => i.field === field);
    expect(issue?.message).toMatch(message);
  });

  it('accepts the range edges and bigint seeds', () => {
    for (const input of [
      { prompt: 'p', num_inference_steps: 1, guidance_scale: 2, seed: 0 },
      { prompt: 'p', num_inference_steps: 50, guidance_scale: 10, seed: 123456789012345678901234567890n },
    ]) {
      expect(() => buildTextToVideoRequest(config, input)).not.toThrow();
    }
    const r = buildTextToVideoRequest(config, { prompt: 'p', seed: 123456789012345678901234567890n });
    expect(r.body).toMatchObject({ text: '{"prompt":"p","seed":123456789012345678901234567890}' });
  });
});

describe('image-to-video builder', () => {
  it('puts text fields first, then the image with the sniffed type; optional fields left out', () => {
    const r = buildImageToVideoRequest(config, { input_image: source(PNG, 'cat.png'), prompt: 'p', cfg: 0.5 });
    expect(r.url).toBe('https://gw.test/api/v1/video_vendor/m2v_16_img2video_10s');
    expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(r.body.type).toBe('multipart');
    if (r.body.type !== 'multipart') return;
    expect(r.body.parts.map((p) => p.name)).toEqual(['prompt', 'cfg', 'input_image']);
    expect(r.body.parts[1]).toEqual({ name: 'cfg', value: '0.5' });
    expect(r.body.parts[2]).toMatchObject({ filename: 'cat.png', contentType: 'image/png' });
  });

  it('trusts the bytes, not the name', () => {
    const r = buildImageToVideoRequest(config, { input_image: source(JPEG, 'photo.png') });
    if (r.body.type !== 'multipart') throw new Error('multipart expected');
    expect(r.body.parts[0]).toMatchObject({ contentType: 'image/jpeg', filename: 'photo.png' });
    const issues = validationIssues(() => buildImageToVideoRequest(config, { input_image: source(PDF, 'fake.png') }));
    expect(issues).toEqual([
      { field: 'input_image', message: expect.stringMatching(/not an image .*allowed: PNG, JPEG/) },
    ]);
  });

  it.each([
    [{}, 'input_image', /is required/],
    [{ input_image: source(PNG), aspect_ratio: '16x9' }, 'aspect_ratio', /<width>:<height>/],
    [{ input_image: source(PNG), aspect_ratio: '0:1' }, 'aspect_ratio', /positive integers/],
    [{ input_image: source(PNG), cfg: Number.POSITIVE_INFINITY }, 'cfg', /finite number/],
    [{ input_image: source(PNG), cfg: '0.5' }, 'cfg', /finite number/],
    [{ input_image: source(new Uint8Array()) }, 'input_image', /it is empty/],
  ])('refuses %j at %s', (input, field, message) => {
    const issues = validationIssues(() => buildImageToVideoRequest(config, input as never));
    expect(issues.find((i) => i.field === field)?.message).toMatch(message);
  });
});

describe('blend builder', () => {
  it('streams data URIs with the sniffed MIME and the secret header (no Bearer)', () => {
    const r = buildBlendRequest(config, {
      base64Array: [source(PNG), source(JPEG)],
      botType: 'ALT_JOURNEY',
      dimensions: 'SQUARE',
      notifyHook: 'https://hooks.test/cb?x=1',
      state: 'run-7',
    });
    expect(r.url).toBe('https://gw.test/api/v1/image_relax_prefix/submit/blend');
    expect(r.headers['img-api-secret']).toBe(KEY);
    expect(r.headers.authorization).toBeUndefined();
    expect(r.auth).toEqual({ type: 'header', name: 'img-api-secret' });
    if (r.body.type !== 'json-segments') throw new Error('segments expected');
    const text = r.body.segments
      .map((s) => (typeof s === 'string' ? s : Buffer.from(s.image.handle as Uint8Array).toString('base64')))
      .join('');
    expect(JSON.parse(text)).toEqual({
      base64Array: [
        `data:image/png;base64,${PNG.toString('base64')}`,
        `data:image/jpeg;base64,${JPEG.toString('base64')}`,
      ],
      botType: 'ALT_JOURNEY',
      dimensions: 'SQUARE',
      notifyHook: 'https://hooks.test/cb?x=1',
      state: 'run-7',
    });
    expect(segmentsLength(r.body.segments)).toBe(Buffer.byteLength(text));
  });

  it('uses a configured secret header name', () => {
    const r = buildBlendRequest(resolveConfig({ baseUrl: 'http://h', apiKey: KEY, secretHeader: 'X-Other-Secret' }), {
      base64Array: [source(PNG)],
    });
    expect(r.headers['x-other-secret']).toBe(KEY);
    expect(r.warnings[0]).toMatch(/one image/);
  });

  it.each([
    [{}, 'base64Array', /at least one image/],
    [{ base64Array: [] }, 'base64Array', /at least one image/],
    [{ base64Array: [source(PDF)] }, 'base64Array[0]', /not an image/],
    [{ base64Array: ['data:image/png;base64,JVBERi0xLjcK'] }, 'base64Array[0]', /not an image/],
    [
      { base64Array: [`data:image/gif;base64,${PNG.toString('base64')}`] },
      'base64Array[0]',
      /declares image\/gif but its bytes are image\/png/,
    ],
    [{ base64Array: ['hello'] }, 'base64Array[0]', /data:<image mime>;base64/],
    [
      { base64Array: [source(PNG)], botType: 'main_journey' },
      'botType',
      /allowed: MAIN_JOURNEY, ALT_JOURNEY \(exact case\)/,
    ],
    [{ base64Array: [source(PNG)], dimensions: 'WIDE' }, 'dimensions', /allowed: PORTRAIT, SQUARE, LANDSCAPE/],
    [{ base64Array: [source(PNG)], notifyHook: '/relative' }, 'notifyHook', /absolute http\(s\) URL/],
    [{ base64Array: [source(PNG)], notifyHook: 'ftp://x.test/' }, 'notifyHook', /absolute http\(s\) URL/],
    [{ base64Array: [source(PNG)], state: 5 }, 'state', /must be a text/],
  ])('refuses %j at %s', (input, field, message) => {
    const issues = validationIssues(() => buildBlendRequest(config, input as never));
    expect(issues.find((i) => i.field === field)?.message).toMatch(message);
  });

  it('the wire schema (used by the emulator) applies the same rules', () => {
    const ok = blend.blendRequestSchema.safeParse({ base64Array: [`data:image/png;base64,${PNG.toString('base64')}`] });
    expect(ok.success).toBe(true);
    const bad = blend.blendRequestSchema.safeParse({ base64Array: ['data:image/png;base64,AAAA'], botType: 'X' });
    expect(bad.success).toBe(false);
  });
});

describe('parsers', () => {
  it('image-to-video: typed task, dates, arguments, unknown fields kept', () => {
    const r = parseImageToVideoResponse(raw(JSON.stringify({ ...I2V_OK, extra: { x: 1 } })));
    expect(r).toMatchObject({ taskId: 'task-123', status: 5, taskType: 'm2v_img2video', message: 'success' });
    expect(r.quota).toEqual({ limit: 10, remaining: 9, type: 'm2v_img2video' });
    expect(r.arguments).toEqual({ prompt: 'a cat', duration: '10' });
    expect(r.createdAt.toISOString()).toBe('2025-11-22T02:53:20.000Z');
    expect(r.timestamp?.toISOString()).toBe('2026-11-22T03:04:05.678Z');
    expect((r.response as Record<string, unknown>).extra).toEqual({ x: 1 });
  });

  it('image-to-video: a failure envelope on HTTP 200 is RefusedError with the gateway message', () => {
    const error = (() => {
      try {
        parseImageToVideoResponse(raw('{"status":402,"result":0,"message":"insufficient balance","data":null}'));
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(RefusedError);
    expect(error).toMatchObject({
      kind: 'refused',
      status: 200,
      gatewayCode: 402,
      gatewayMessage: 'insufficient balance',
    });
  });

  it('image-to-video: a numeric task id beyond 2^53 keeps its digits', () => {
    const text = JSON.stringify(I2V_OK).replace('"task-123"', '1234567890123456789');
    expect(parseImageToVideoResponse(raw(text)).taskId).toBe('1234567890123456789');
  });

  it('text-to-video: seed beyond 2^53 exact; non-COMPLETED is refused', () => {
    const r = parseTextToVideoResponse(raw(T2V_OK));
    expect(r).toMatchObject({ seed: '196619188014358660', fileSize: 123456, requestId: 'req-1', status: 'COMPLETED' });
    expect(() => parseTextToVideoResponse(raw(T2V_OK.replace('COMPLETED', 'FAILED')))).toThrow(RefusedError);
  });

  it('blend: id as number or string, 201 is success, other codes refused unless accepted', () => {
    expect(parseBlendResponse(raw('{"code":1,"result":1790000000000000123}')).taskId).toBe('1790000000000000123');
    expect(parseBlendResponse(raw('{"code":1,"result":"1790000000000000123"}', 201))).toMatchObject({
      taskId: '1790000000000000123',
      httpStatus: 201,
    });
    expect(() => parseBlendResponse(raw('{"code":22,"description":"queue full"}'))).toThrow(/queue full/);
    expect(parseBlendResponse(raw('{"code":22,"result":"5"}'), { acceptedCodes: [1, 22] }).taskId).toBe('5');
  });

  it.each([
    ['', /empty/],
    ['<html>oops</html>', /not JSON/],
    ['{"code":1,"result":"12', /cut short/],
    ['{"description":"x"}', /code is missing/],
    ['{"code":"1"}', /code: /],
  ])('blend: unreadable answer %j is InvalidResponseError', (body, problem) => {
    expect(() => parseBlendResponse(raw(body))).toThrow(InvalidResponseError);
    expect(() => parseBlendResponse(raw(body))).toThrow(problem);
  });

  it('text-to-video: names every missing field', () => {
    try {
      parseTextToVideoResponse(raw('{"video":{"url":"u"},"status":"COMPLETED"}'));
      throw new Error('expected a throw');
    } catch (error) {
      expect((error as InvalidResponseError).problems).toEqual(
        expect.arrayContaining([
          'video.content_type is missing',
          'video.file_size is missing',
          'seed is missing',
          'request_id is missing',
        ]),
      );
    }
  });

  it('rejects invalid UTF-8', () => {
    expect(() => parseBlendResponse({ status: 200, headers: {}, body: new Uint8Array([0x7b, 0xff, 0x7d]) })).toThrow(
      /not valid UTF-8/,
    );
  });
});

describe('exact numbers and time', () => {
  it('parseJsonExact keeps digits beyond 2^53 and leaves safe numbers alone', () => {
    expect(parseJsonExact('{"a":9007199254740993,"b":12,"c":1.5,"d":[18446744073709551617]}')).toEqual({
      a: '9007199254740993',
      b: 12,
      c: 1.5,
      d: ['18446744073709551617'],
    });
  });

  it('timestampToDate reads year..nanoseconds as UTC', () => {
    expect(timestampToDate([2026, 1, 2, 3, 4, 5, 999999999])?.toISOString()).toBe('2026-01-02T03:04:05.999Z');
    expect(timestampToDate([2026])).toBeUndefined();
  });
});

describe('retry policy', () => {
  it('reads Retry-After as seconds or a date', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:28:10 GMT', Date.parse('Wed, 21 Oct 2026 07:28:00 GMT'))).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('waits at least Retry-After, backs off otherwise, gives up after the retries or past the cap', () => {
    const policy = { retries: 2, maxDelayMs: 60_000, baseDelayMs: 500 };
    expect(retryDelay(0, 2000, policy, () => 0)).toBe(2000);
    expect(retryDelay(0, 2000, policy, () => 1)).toBeGreaterThan(2000);
    expect(retryDelay(0, undefined, policy, () => 0)).toBe(500);
    expect(retryDelay(1, undefined, policy, () => 0)).toBe(1000);
    expect(retryDelay(2, undefined, policy, () => 0)).toBeUndefined();
    expect(retryDelay(0, 120_000, policy, () => 0)).toBeUndefined();
  });
});
