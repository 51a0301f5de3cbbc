/** Reading answers liberally: a created task is never a failure; only an answer without the useful part is. */
import { describe, expect, it } from 'vitest';
import {
  blend,
  hasControlCharacters,
  InvalidResponseError,
  imageToVideo,
  parseAnswer,
  RefusedError,
  resolveConfig,
  textToVideo,
} from '../src/protocol.js';
import { I2V_OK, KEY, T2V_OK } from './recording-server.js';

const config = resolveConfig({ baseUrl: 'https://gw.test', apiKey: KEY });
const raw = (body: unknown, status = 200) => ({
  status,
  headers: {},
  body: typeof body === 'string' ? body : JSON.stringify(body),
});
const options = { config, secrets: [KEY] };

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('complete answers', () => {
  it('image-to-video: typed task, dates, arguments, unknown fields kept, no warnings', () => {
    const r = parseAnswer(imageToVideo, raw({ ...I2V_OK, extra: { x: 1 } }), options);
    expect(r).toMatchObject({ operation: 'image-to-video', taskId: 'task-123', status: 5, taskType: 'm2v_img2video' });
    expect(r.quota).toEqual({ limit: 10, remaining: 9, type: 'm2v_img2video' });
    expect(r.arguments).toEqual({ prompt: 'a cat', duration: '10' });
    expect(r.createdAt?.toISOString()).toBe('2025-11-22T02:53:20.000Z');
    expect(r.timestamp?.toISOString()).toBe('2026-11-22T03:04:05.678Z');
    expect(r.response.extra).toEqual({ x: 1 });
    expect(r.warnings).toEqual([]);
  });

  it('a numeric task id beyond 2^53 keeps its digits', () => {
    const text = JSON.stringify(I2V_OK).replace('"task-123"', '1234567890123456789');
    expect(parseAnswer(imageToVideo, raw(text), options).taskId).toBe('1234567890123456789');
  });

  it('text-to-video: seed and file size beyond 2^53 exact', () => {
    const r = parseAnswer(textToVideo, raw(T2V_OK.replace('123456', '9007199254740993')), options);
    expect(r).toMatchObject({
      seed: '196619188014358660',
      fileSize: '9007199254740993',
      requestId: 'req-1',
      status: 'COMPLETED',
    });
  });

  it('blend: id as number or string, 201 is a success, the accepted codes are a setting', () => {
    expect(parseAnswer(blend, raw('{"code":1,"result":1790000000000000123}'), options).taskId).toBe(
      '1790000000000000123',
    );
    expect(parseAnswer(blend, raw('{"code":1,"result":"1790000000000000123"}', 201), options)).toMatchObject({
      taskId: '1790000000000000123',
      httpStatus: 201,
    });
    const lenient = resolveConfig({ baseUrl: 'https://gw.test', acceptedBlendCodes: [1, 22] });
    expect(parseAnswer(blend, raw('{"code":22,"result":"5123"}'), { config: lenient }).taskId).toBe('5123');
  });
});

describe('sparse successful answers succeed, with warnings', () => {
  it('image-to-video with only the envelope and the task id', () => {
    const r = parseAnswer(imageToVideo, raw({ status: 200, result: 1, data: { task: { id: '98765' } } }), options);
    expect(r.taskId).toBe('98765');
    expect(r.status).toBeUndefined();
    expect(r.quota).toBeUndefined();
    expect(r.warnings).toEqual([
      expect.stringMatching(/^the answer lacks data\.limitation, .*message.*which the spec lists/),
    ]);
  });

  it('a mistyped field the result can do without is a warning naming it, and its value is kept', () => {
    const body = structuredClone(I2V_OK);
    body.data.task.status = '5' as unknown as number;
    const r = parseAnswer(imageToVideo, raw(body), options);
    expect(r.warnings).toEqual([expect.stringMatching(/^the answer's data\.task\.status: .*\(kept as sent\)/)]);
    expect((r.response.data as { task: { status: unknown } }).task.status).toBe('5');
  });

  it('text-to-video with only video.url', () => {
    const r = parseAnswer(textToVideo, raw({ video: { url: 'https://cdn.test/v.mp4' } }), options);
    expect(r).toMatchObject({ videoUrl: 'https://cdn.test/v.mp4', status: undefined, seed: undefined });
    expect(r.warnings[0]).toMatch(/lacks video\.content_type, video\.file_size, seed, status, request_id/);
  });

  it('blend with only the code: a warning that no task id came', () => {
    const r = parseAnswer(blend, raw({ code: 1 }), options);
    expect(r.taskId).toBeUndefined();
    expect(r.warnings).toEqual(['the gateway accepted the blend but sent no task id (result)']);
  });
});

describe('answers without the useful part fail, saying whether a task may exist', () => {
  it('image-to-video without data.task.id, quoting the id it saw elsewhere', () => {
    const error = thrown(() =>
      parseAnswer(imageToVideo, raw({ status: 200, result: 1, data: { taskId: '55501234' } }), options),
    ) as InvalidResponseError;
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.problems).toEqual(['data.task is missing']);
    expect(error.possibleTaskIds).toEqual(['55501234']);
    expect(error.hint).toMatch(/A task may exist anyway \(the answer names "55501234"\)/);
  });

  it('an envelope without status and result is not enough, even with a task id (quoted)', () => {
    const error = thrown(() => parseAnswer(imageToVideo, raw({ data: { task: { id: '42424242' } } }), options));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).possibleTaskIds).toEqual(['42424242']);
  });

  it('a body cut short still quotes the id it carried', () => {
    const error = thrown(() => parseAnswer(blend, raw('{"code":1,"result":"1790000000000000123'), options));
    expect((error as InvalidResponseError).problems).toEqual(['the body is cut short (incomplete JSON)']);
    expect((error as InvalidResponseError).possibleTaskIds).toEqual(['1790000000000000123']);
  });

  it.each([
    ['', /empty/],
    ['<html>oops</html>', /not JSON/],
    ['{"description":"x"}', /code is missing/],
    ['{"code":"x1"}', /code: must be an integer/],
    ['[1,2]', /the answer: /],
    ['{"code":1,"result":{"id":1}}', /result: must be a task id/],
  ])('blend: %j is InvalidResponseError', (body, problem) => {
    expect(() => parseAnswer(blend, raw(body), options)).toThrow(InvalidResponseError);
    expect(() => parseAnswer(blend, raw(body), options)).toThrow(problem);
  });

  it('text-to-video without a video URL names what is missing, no id to quote', () => {
    const error = thrown(() => parseAnswer(textToVideo, raw({ status: 'COMPLETED' }), options)) as InvalidResponseError;
    expect(error.problems).toEqual(['video is missing']);
    expect(error.possibleTaskIds).toEqual([]);
    expect(error.hint).toMatch(/a task may exist anyway/);
  });

  it('rejects invalid UTF-8', () => {
    expect(() =>
      parseAnswer(blend, { status: 200, headers: {}, body: new Uint8Array([0x7b, 0xff, 0x7d]) }, options),
    ).toThrow(/not valid UTF-8/);
  });
});

describe('refusals inside a 2xx answer', () => {
  it('image-to-video: a failure envelope is RefusedError with the gateway message', () => {
    const error = thrown(() =>
      parseAnswer(imageToVideo, raw('{"status":402,"result":0,"message":"insufficient balance","data":null}'), options),
    );
    expect(error).toBeInstanceOf(RefusedError);
    expect(error).toMatchObject({
      kind: 'refused',
      status: 200,
      gatewayCode: 402,
      gatewayMessage: 'insufficient balance',
    });
  });

  it('text-to-video: a status other than COMPLETED is refused; blend: a code not accepted', () => {
    expect(() => parseAnswer(textToVideo, raw(T2V_OK.replace('COMPLETED', 'FAILED')), options)).toThrow(RefusedError);
    expect(() => parseAnswer(blend, raw('{"code":22,"description":"queue full"}'), options)).toThrow(/queue full/);
  });
});

describe('the answer is data', () => {
  it('a key echoed back anywhere in the answer is scrubbed from the result and the response', () => {
    const echoed = JSON.parse(T2V_OK);
    echoed.request_id = `req-${KEY}`;
    echoed.video.url = `https://cdn.test/v.mp4?key=${KEY}`;
    const r = parseAnswer(textToVideo, raw(echoed), options);
    expect(JSON.stringify(r)).not.toContain(KEY);
    expect(r.requestId).toBe('req-[redacted]');
  });

  it('control characters and escape sequences in gateway text never reach a message', () => {
    const hostile = '{"status":500,"result":0,"message":"boom\\u001b[31m\\r\\n::error::forged\\u0007"}';
    const error = thrown(() => parseAnswer(imageToVideo, raw(hostile), options)) as RefusedError;
    expect(hasControlCharacters(error.message)).toBe(false);
    expect(error.gatewayMessage).toBe('boom ::error::forged');
  });
});

describe('headers are data too', () => {
  it('a key echoed in a request id header never reaches the result', () => {
    const answer = {
      status: 200,
      headers: { 'x-request-id': `id-${KEY}` },
      body: '{"video":{"url":"https://cdn.test/v.mp4"}}',
    };
    const r = parseAnswer(textToVideo, answer, options);
    expect(r.requestId).toBe('id-[redacted]');
  });
});
