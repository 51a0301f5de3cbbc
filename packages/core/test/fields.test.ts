/** Field declarations: their rules in words, text input read one way for every adapter, plain text, caps. */
import { describe, expect, it } from 'vitest';
import {
  blend,
  DEFAULT_MAX_DOWNLOAD_BYTES,
  downloadLimit,
  fieldsFromText,
  fileNameOf,
  fromText,
  imageToVideo,
  kebabCase,
  labelOf,
  plainText,
  ruleOf,
  scrubDeep,
  textToVideo,
  titleCase,
} from '../src/protocol.js';

describe('rules in words', () => {
  it('each field states what it allows, from its declaration', () => {
    const f = textToVideo.fields;
    expect(ruleOf(f.num_inference_steps)).toBe('an integer from 1 to 50');
    expect(ruleOf(f.guidance_scale)).toBe('a number from 2 to 10');
    expect(ruleOf(f.seed)).toBe('an integer, every digit kept however long');
    expect(ruleOf(imageToVideo.fields.cfg)).toBe('a number (such as 0.5)');
    expect(ruleOf(blend.fields.dimensions)).toBe('one of PORTRAIT, SQUARE, LANDSCAPE (exact case)');
    expect(labelOf('num_inference_steps', f.num_inference_steps)).toBe('Number of Inference Steps');
    expect(labelOf('negative_prompt', f.negative_prompt)).toBe('Negative Prompt');
  });

  it('one naming rule for flags and inputs; Title Case for labels', () => {
    expect(kebabCase('notifyHook')).toBe('notify-hook');
    expect(kebabCase('num_inference_steps')).toBe('num-inference-steps');
    expect(kebabCase('baseUrl')).toBe('base-url');
    expect(titleCase('MAIN_JOURNEY')).toBe('Main Journey');
  });
});

describe('text input', () => {
  it.each([
    ['5', 5],
    ['-1', -1],
    ['+2.5', 2.5],
    ['.5', 0.5],
    [' 7 ', 7],
  ])('decimal %j reads as %j', (text, value) => {
    expect(fromText(textToVideo.fields.guidance_scale, text)).toEqual({ value });
  });

  it.each(['0x5', '1e3', 'Infinity', 'NaN', '', '5 6', '0b1', '1_000'])('%j is not a decimal number', (text) => {
    expect(fromText(textToVideo.fields.num_inference_steps, text)).toEqual({
      message: expect.stringMatching(/is not a number in decimal notation; allowed: an integer from 1 to 50/),
    });
  });

  it('digits stay text, exactly, signs allowed', () => {
    expect(fromText(textToVideo.fields.seed, '196619188014358660')).toEqual({ value: '196619188014358660' });
    expect(fromText(textToVideo.fields.seed, '-1')).toEqual({ value: '-1' });
    expect(fromText(textToVideo.fields.seed, '0x10')).toEqual({ message: expect.stringMatching(/not allowed/) });
  });

  it("fieldsFromText reads the operation's fields and leaves unknown names to the schema", () => {
    const { values, issues } = fieldsFromText(textToVideo, { prompt: 'p', guidance_scale: '0x5', nope: 'x' });
    expect(values).toEqual({ prompt: 'p', nope: 'x' });
    expect(issues).toEqual([{ field: 'guidance_scale', message: expect.stringMatching(/decimal notation/) }]);
  });
});

describe('plain text', () => {
  it('strips escape sequences and turns control characters into one space', () => {
    expect(plainText('a\u001b[31mred\u001b[0m\r\nb\u0007c\u2028d\u202eevil')).toBe('ared b c d evil');
    expect(plainText('\u001b]8;;http://x\u0007link\u001b]8;;\u0007')).toBe('link');
  });

  it('scrubDeep replaces secrets in keys and values, and returns the same object when there are none', () => {
    const value = { a: ['x-SECRET-y', 2], SECRET: { b: 'ok' } };
    expect(scrubDeep(value, ['SECRET'])).toEqual({ a: ['x-[redacted]-y', 2], '[redacted]': { b: 'ok' } });
    const clean = { a: ['x'] };
    expect(scrubDeep(clean, ['SECRET'])).toBe(clean);
    // Deeper than any gateway nests: refused whether or not a secret is inside.
    let deep: unknown = 'x';
    for (let i = 0; i < 300; i++) deep = [deep];
    expect(() => scrubDeep(deep, ['SECRET'])).toThrow(RangeError);
    const hidden = { a: [{ b: [{ c: 'SECRET' }] }], d: 1 };
    expect(scrubDeep(hidden, ['SECRET'])).toEqual({ a: [{ b: [{ c: '[redacted]' }] }], d: 1 });
  });
});

describe('download limits', () => {
  it('the announced size plus slack, else the maximum; an announced size above it is refused', () => {
    expect(downloadLimit(1000)).toMatchObject({ maxBytes: 1000 + 1024 * 1024, announced: 1000 });
    expect(downloadLimit('5000')).toMatchObject({ announced: 5000 });
    expect(downloadLimit(undefined)).toMatchObject({ maxBytes: DEFAULT_MAX_DOWNLOAD_BYTES });
    expect(downloadLimit(200 * 1024 ** 2).maxBytes).toBe(Math.ceil(200 * 1024 ** 2 * 1.01));
    expect(() => downloadLimit(5 * 1024 ** 3)).toThrow(/above the 2147483648-byte download limit/);
    expect(() => downloadLimit(50, 10)).toThrow(/above the 10-byte/);
  });

  it('file names come from the URL, never a path or a control character', () => {
    expect(fileNameOf('https://cdn.test/a/clip%20one.mp4?x=1', 'video.mp4')).toBe('clip one.mp4');
    expect(fileNameOf('https://cdn.test/', 'video.mp4')).toBe('video.mp4');
    expect(fileNameOf('https://cdn.test/a%2F..%2Fb', 'video.mp4')).toBe('video.mp4');
    expect(fileNameOf('https://cdn.test/a%0Ab.mp4', 'video.mp4')).toBe('video.mp4');
  });
});

describe('notifications', () => {
  it("the default rule reads the emulator's notification: progress is pending, final states end it", async () => {
    const { readNotification, DEFAULT_NOTIFICATION_RULE, valueList } = await import('../src/protocol.js');
    expect(readNotification({ id: '17900000000000000123', status: 'IN_PROGRESS', progress: '33%' })).toMatchObject({
      taskId: '17900000000000000123',
      outcome: 'pending',
    });
    expect(readNotification({ id: 5, status: 'success', imageUrl: 'http://x/i.png' })).toMatchObject({
      taskId: '5',
      outcome: 'success',
      resultUrl: 'http://x/i.png',
    });
    expect(readNotification({ id: '1', status: 'FAILURE', failReason: 'banned prompt' })).toMatchObject({
      outcome: 'failure',
      reason: 'banned prompt',
    });
    const nested = {
      ...DEFAULT_NOTIFICATION_RULE,
      idField: 'task.id',
      statusField: 'task.state',
      successValues: valueList('DONE, OK'),
    };
    expect(readNotification({ task: { id: 'a', state: 'ok' } }, nested)).toMatchObject({
      taskId: 'a',
      outcome: 'success',
    });
    expect(readNotification('not an object')).toMatchObject({ taskId: undefined, outcome: 'pending' });
  });
});

describe('base64 of a stream', () => {
  it('equals the base64 of the whole, however the bytes are cut', async () => {
    const { base64Chunks } = await import('../src/protocol.js');
    const bytes = Buffer.from(Array.from({ length: 4099 }, (_, i) => (i * 131 + 7) & 0xff));
    for (const cuts of [[1], [2], [3], [5, 1, 2], [4096], [1, 1, 1, 1], [7, 11, 13]]) {
      for (let length = 0; length <= 40; length += 1) {
        const source = bytes.subarray(0, length === 40 ? bytes.length : length);
        const pieces: Buffer[] = [];
        for (let at = 0, k = 0; at < source.length; k++) {
          const size = cuts[k % cuts.length] as number;
          pieces.push(source.subarray(at, at + size));
          at += size;
        }
        const out: Uint8Array[] = [];
        for await (const chunk of base64Chunks(pieces)) out.push(chunk);
        expect(Buffer.concat(out).toString('latin1')).toBe(source.toString('base64'));
      }
    }
  });
});
