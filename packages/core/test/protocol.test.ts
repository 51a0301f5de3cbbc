/** The pure protocol: config, the generic builder over each operation's descriptor, exact numbers. No network. */
import { describe, expect, it } from 'vitest';
import {
  blend,
  buildRequest,
  DEFAULT_ROUTES,
  type ImageSource,
  imageToVideo,
  jsonBodySchema,
  KEY_PROBE,
  OPERATIONS,
  parseJsonExact,
  resolveConfig,
  segmentsLength,
  textToVideo,
  timestampToDate,
  ValidationError,
} from '../src/protocol.js';
import { JPEG, KEY, PDF, PNG } from './recording-server.js';

const config = resolveConfig({ baseUrl: 'https://gw.test/api/v1/', apiKey: KEY });
const source = (bytes: Uint8Array, name?: string): ImageSource<Uint8Array> => ({
  size: bytes.byteLength,
  head: bytes.subarray(0, 64),
  name,
  handle: bytes,
});

export function validationIssues(fn: () => unknown): { field: string; message: string }[] {
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
      const r = buildRequest(textToVideo, resolveConfig({ baseUrl }), { prompt: 'x' });
      expect(r.url).toBe('https://gw.test/api/v1/service_prefix/submit/text_video_model');
    }
  });

  it('names bad settings by their key, without quoting the key or a password', () => {
    const issues = validationIssues(() =>
      resolveConfig({ baseUrl: 'ftp://x', apiKey: ' ', videoVendor: 'a b', secretHeader: 'bad header' }),
    );
    expect(issues.map((i) => i.field).sort()).toEqual(['apiKey', 'baseUrl', 'secretHeader', 'videoVendor']);
    expect(validationIssues(() => resolveConfig({ baseUrl: 'not a url' }))[0]?.message).toMatch(/not an absolute URL/);
    const withPassword = validationIssues(() => resolveConfig({ baseUrl: 'https://u:hunter2@gw.test' }));
    expect(JSON.stringify(withPassword)).not.toContain('hunter2');
  });

  it.each([
    'sk-a\r\nX-Injected: 1',
    'sk-a\n',
    'sk\u0000a',
    ' sk-a',
  ])('refuses a key with control characters or blanks: %j', (apiKey) => {
    const [issue] = validationIssues(() => resolveConfig({ baseUrl: 'https://gw.test', apiKey }));
    expect(issue).toMatchObject({ field: 'apiKey', message: expect.stringMatching(/line break, a control character/) });
    expect(issue?.message).not.toContain('sk-a');
  });
});

describe('every operation from one descriptor', () => {
  it('the registry holds the three operations, each with its route, auth and body kind', () => {
    expect(OPERATIONS.map((op) => [op.name, op.auth, op.body])).toEqual([
      ['image-to-video', 'bearer', 'multipart'],
      ['text-to-video', 'bearer', 'json'],
      ['blend', 'secret-header', 'json'],
    ]);
  });
});

describe('text-to-video', () => {
  it('builds the exact JSON body, route and bearer auth; the model overrides its route segment', () => {
    const r = buildRequest(textToVideo, config, {
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
    const r = buildRequest(textToVideo, config, { prompt: 'a cat' });
    expect(r.body).toMatchObject({ text: '{"prompt":"a cat"}' });
    expect(r.warnings[0]).toMatch(/^prompt: 2 word\(s\).*short prompts/);
  });

  it.each([
    ['one two three four', 4],
    ['  one\ttwo\nthree  four  ', 4],
    ['one two three four five', undefined],
    ['\n one two three four five ', undefined],
  ])('counts the words of %j: a warning below five', (prompt, words) => {
    const { warnings } = buildRequest(textToVideo, config, { prompt });
    if (words === undefined) expect(warnings).toEqual([]);
    else expect(warnings).toEqual([expect.stringMatching(new RegExp(`^prompt: ${words} word\\(s\\)`))]);
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
    [{ prompt: 'p', model: '../x' }, 'model', /not allowed; allowed: a path segment/],
  ])('refuses %j at %s', (input, field, message) => {
    const issues = validationIssues(() => buildRequest(textToVideo, config, input as never));
    expect(issues.find((i) => i.field === field)?.message).toMatch(message);
  });

  it('accepts the range edges, negative and bigint seeds', () => {
    for (const input of [
      { prompt: 'p', num_inference_steps: 1, guidance_scale: 2, seed: 0 },
      { prompt: 'p', num_inference_steps: 50, guidance_scale: 10, seed: -1 },
    ]) {
      expect(() => buildRequest(textToVideo, config, input)).not.toThrow();
    }
    const r = buildRequest(textToVideo, config, { prompt: 'p', seed: 123456789012345678901234567890n });
    expect(r.body).toMatchObject({ text: '{"prompt":"p","seed":123456789012345678901234567890}' });
  });
});

describe('image-to-video', () => {
  it('puts text fields first, then the image with the sniffed type; optional fields left out', () => {
    const r = buildRequest(imageToVideo, config, { input_image: source(PNG, 'cat.png'), prompt: 'p', cfg: 0.5 });
    expect(r.url).toBe('https://gw.test/api/v1/video_vendor/m2v_16_img2video_10s');
    expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(r.headers['content-type']).toBeUndefined();
    if (r.body.type !== 'multipart') throw new Error('multipart expected');
    expect(r.body.parts.map((p) => p.name)).toEqual(['prompt', 'cfg', 'input_image']);
    expect(r.body.parts[1]).toEqual({ name: 'cfg', value: '0.5' });
    expect(r.body.parts[2]).toMatchObject({ filename: 'cat.png', contentType: 'image/png' });
  });

  it('trusts the bytes, not the name', () => {
    const r = buildRequest(imageToVideo, config, { input_image: source(JPEG, 'photo.png') });
    if (r.body.type !== 'multipart') throw new Error('multipart expected');
    expect(r.body.parts[0]).toMatchObject({ contentType: 'image/jpeg', filename: 'photo.png' });
    const issues = validationIssues(() => buildRequest(imageToVideo, config, { input_image: source(PDF, 'fake.png') }));
    expect(issues).toEqual([
      { field: 'input_image', message: expect.stringMatching(/not an image .*allowed: PNG, JPEG/) },
    ]);
  });

  it.each([
    ['input_image', {}, /is required/],
    ['aspect_ratio', { input_image: source(PNG), aspect_ratio: '16x9' }, /<width>:<height>/],
    ['aspect_ratio', { input_image: source(PNG), aspect_ratio: '0:1' }, /positive integers/],
    ['cfg', { input_image: source(PNG), cfg: Number.POSITIVE_INFINITY }, /must be a number \(such as 0.5\)/],
    ['cfg', { input_image: source(PNG), cfg: '0.5' }, /must be a number/],
    ['input_image', { input_image: source(new Uint8Array()) }, /it is empty/],
  ])('refuses a bad %s (case %#)', (field, input, message) => {
    const issues = validationIssues(() => buildRequest(imageToVideo, config, input as never));
    expect(issues.find((i) => i.field === field)?.message).toMatch(message);
  });
});

describe('blend', () => {
  it('streams data URIs with the sniffed MIME and the secret header (no Bearer)', () => {
    const r = buildRequest(blend, config, {
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

  it('uses a configured secret header name; one image draws a warning', () => {
    const r = buildRequest(blend, resolveConfig({ baseUrl: 'http://h', apiKey: KEY, secretHeader: 'X-Other-Secret' }), {
      base64Array: [source(PNG)],
    });
    expect(r.headers['x-other-secret']).toBe(KEY);
    expect(r.warnings[0]).toMatch(/1 image\(s\); it usually takes 2 or more/);
  });

  it.each([
    ['base64Array', {}, /at least one image/],
    ['base64Array', { base64Array: [] }, /at least one image/],
    ['base64Array[0]', { base64Array: [source(PDF)] }, /not an image/],
    ['base64Array[0]', { base64Array: ['data:image/png;base64,JVBERi0xLjcK'] }, /not an image/],
    [
      'base64Array[0]',
      { base64Array: [`data:image/gif;base64,${PNG.toString('base64')}`] },
      /declares image\/gif but its bytes are image\/png/,
    ],
    ['base64Array[0]', { base64Array: ['hello'] }, /data:<image mime>;base64/],
    [
      'botType',
      { base64Array: [source(PNG)], botType: 'main_journey' },
      /allowed: one of MAIN_JOURNEY, ALT_JOURNEY \(exact case\)/,
    ],
    ['dimensions', { base64Array: [source(PNG)], dimensions: 'WIDE' }, /allowed: one of PORTRAIT, SQUARE, LANDSCAPE/],
    ['notifyHook', { base64Array: [source(PNG)], notifyHook: '/relative' }, /absolute http\(s\) URL/],
    ['notifyHook', { base64Array: [source(PNG)], notifyHook: 'ftp://x.test/' }, /absolute http\(s\) URL/],
    ['state', { base64Array: [source(PNG)], state: 5 }, /must be a text/],
  ])('refuses a bad %s (case %#)', (field, input, message) => {
    const issues = validationIssues(() => buildRequest(blend, config, input as never));
    expect(issues.find((i) => i.field === field)?.message).toMatch(message);
  });

  it('the wire schema (used by the emulator) applies the same rules', () => {
    const schema = jsonBodySchema(blend);
    expect(schema.safeParse({ base64Array: [`data:image/png;base64,${PNG.toString('base64')}`] }).success).toBe(true);
    expect(schema.safeParse({ base64Array: ['data:image/png;base64,AAAA'], botType: 'X' }).success).toBe(false);
    expect(schema.safeParse({ base64Array: [] }).success).toBe(false);
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
    expect(timestampToDate('2026-01-02')).toBeUndefined();
  });
});

describe('the key probe', () => {
  it('is a body the core itself refuses (twice), so a right key can never create a task with it', () => {
    const issues = validationIssues(() => buildRequest(KEY_PROBE.operation, config, KEY_PROBE.body as never));
    expect(issues.map((i) => i.field).sort()).toEqual(['num_inference_steps', 'prompt']);
  });
});
