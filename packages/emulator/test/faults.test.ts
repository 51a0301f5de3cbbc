/** Every fault, per request (header) and per server (options / setFault), seen by the core client and by plain HTTP. */
import {
  ConnectionError,
  InvalidResponseError,
  type MediaGatewayClient,
  RateLimitError,
  RefusedError,
  ServerError,
} from '@mediagw/core';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, parseFaultHeader, startEmulator } from '../src/index.js';
import { bearer, clientFor, jsonHeaders, KEY, paths, post, solidPng } from './helpers.js';

const PNG = solidPng(4, 4, [200, 100, 50, 255]);
const PROMPT = 'a detailed prompt for the fault tests';
let emu: Emulator;
let client: MediaGatewayClient;

beforeAll(async () => {
  emu = await startEmulator();
  client = clientFor(emu);
});
afterEach(() => {
  emu.setFault(undefined);
  emu.reset();
});
afterAll(async () => {
  await client.close();
  await emu.close();
});

const t2v = (fault: string, key = KEY) =>
  post(
    emu.url + paths().textToVideo,
    JSON.stringify({ prompt: PROMPT }),
    jsonHeaders({ ...bearer(key), 'x-emulator-fault': fault }),
  );

describe('the fault header', () => {
  it('reads kebab-case pairs and bare flags', () => {
    expect(parseFaultHeader('status=429; retry-after=1; times=1')).toEqual({ status: 429, retryAfter: '1', times: 1 });
    expect(parseFaultHeader('drop')).toEqual({ drop: true });
    expect(parseFaultHeader('drop-unread')).toEqual({ dropUnread: true });
    expect(
      parseFaultHeader('envelope-failure; latency-ms=300; slow-body-ms=2000; blend-id-as-number; truncate'),
    ).toEqual({
      envelopeFailure: true,
      latencyMs: 300,
      slowBodyMs: 2000,
      blendIdAsNumber: true,
      truncate: true,
    });
  });

  it('answers 400 naming a bad key or value', async () => {
    const unknown = await t2v('explode=1');
    expect([unknown.status, unknown.json().message]).toEqual([400, expect.stringContaining('unknown key "explode"')]);
    expect((await t2v('status=abc')).json().message).toContain('status="abc"');
  });

  it('comes after auth: a request without a key gets 401 and uses up no `times`', async () => {
    const noKey = await post(
      emu.url + paths().textToVideo,
      '{}',
      jsonHeaders({ 'x-emulator-fault': 'status=500; times=1' }),
    );
    expect(noKey.status).toBe(401);
    expect((await t2v('status=500; times=1')).status).toBe(500);
    expect((await t2v('status=500; times=1')).status).toBe(200);
  });

  it('`times` limits a fault to the first N matching requests; reset() starts over', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await t2v('status=503; times=2')).status);
    expect(statuses).toEqual([503, 503, 200]);
    emu.reset();
    expect((await t2v('status=503; times=2')).status).toBe(503);
    expect(emu.count()).toBe(1);
  });
});

describe('statuses', () => {
  it('429 carries Retry-After; the client retries once the fault is used up', async () => {
    const raw = await t2v('status=429; retry-after=7');
    expect([raw.status, raw.headers['retry-after'], raw.json().code]).toEqual([429, '7', 429]);

    emu.setFault({ status: 429, retryAfter: '3' });
    const error = await client.textToVideo({ prompt: PROMPT }).catch((e) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterMs).toBe(3000);

    emu.setFault({ status: 429, retryAfter: '0', times: 1 });
    const retrying = clientFor(emu, { retries: 2 });
    expect((await retrying.textToVideo({ prompt: PROMPT })).status).toBe('COMPLETED');
    expect(emu.requests.slice(-2).map((r) => r.status)).toEqual([429, 200]);
    await retrying.close();
  });

  it('500 and 503 are JSON errors the client reports as server errors', async () => {
    emu.setFault({ status: 500 });
    const error = await client.blend({ base64Array: [{ data: PNG }] }).catch((e) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect([error.status, error.gatewayMessage]).toEqual([500, 'Internal Server Error (emulated fault)']);
    emu.setFault({ status: 503, retryAfter: '0', times: 1 });
    const retrying = clientFor(emu, { retries: 1 });
    expect((await retrying.blend({ base64Array: [{ data: PNG }] })).status).toBe(1);
    expect(emu.count('blend')).toBe(3);
    await retrying.close();
  });

  it('502 is an HTML page', async () => {
    const raw = await t2v('status=502');
    expect(raw.status).toBe(502);
    expect(raw.headers['content-type']).toContain('text/html');
    expect(raw.text).toContain('<h1>502 Bad Gateway</h1>');
    emu.setFault({ status: 502 });
    const error = await client.imageToVideo({ input_image: { data: PNG } }).catch((e) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error.bodyExcerpt).toContain('502 Bad Gateway');
    expect(error.bodyExcerpt).not.toContain('<h1>');
  });

  it('201 on blend is the success body with status 201', async () => {
    emu.setFault({ status: 201 });
    const result = await client.blend({ base64Array: [{ data: PNG }, { data: PNG }] });
    expect([result.httpStatus, result.status]).toEqual([201, 1]);
  });
});

describe('failure envelopes on HTTP 200', () => {
  it('each operation says the task failed in its own way', async () => {
    emu.setFault({ envelopeFailure: true });
    const i2v = await client.imageToVideo({ input_image: { data: PNG } }).catch((e) => e);
    expect(i2v).toBeInstanceOf(RefusedError);
    expect([i2v.status, i2v.gatewayCode, i2v.gatewayMessage]).toEqual([
      200,
      500,
      'emulated failure: the task could not be created',
    ]);
    const t2vError = await client.textToVideo({ prompt: PROMPT }).catch((e) => e);
    expect(t2vError).toBeInstanceOf(RefusedError);
    expect(t2vError.gatewayCode).toBe('FAILED');
    const blendError = await client.blend({ base64Array: [{ data: PNG }] }).catch((e) => e);
    expect(blendError).toBeInstanceOf(RefusedError);
    expect([blendError.gatewayCode, blendError.gatewayMessage]).toEqual([
      22,
      'emulated failure: the blend task was refused',
    ]);
    expect(emu.requests.map((r) => r.status)).toEqual([200, 200, 200]);
  });
});

describe('broken answers', () => {
  it('drop reads the request, creates the task, and closes the connection without an answer', async () => {
    emu.setFault({ drop: true });
    const error = await client.textToVideo({ prompt: PROMPT }).catch((e) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ sent: true });
    expect(emu.requests[0]).toMatchObject({ dropped: true, taskId: expect.any(String) });
    expect(emu.requests[0]?.status).toBeUndefined();
  });

  it('drop-unread closes the connection on the headers, the body unread: the client knows no task exists', async () => {
    emu.setFault({ dropUnread: true });
    const big = Buffer.concat([PNG, Buffer.alloc(8 * 1024 * 1024)]);
    const retrying = clientFor(emu, { retries: 1 });
    const error = await retrying.imageToVideo({ input_image: { data: big }, prompt: PROMPT }).catch((e) => e);
    await retrying.close();
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ sent: false });
    expect(error.message).toMatch(/before the whole request was sent/);
    expect(emu.requests.map((r) => [r.dropped, r.taskId])).toEqual([
      [true, undefined],
      [true, undefined],
    ]);
  });

  it('truncate sends half the body that Content-Length promises', async () => {
    emu.setFault({ truncate: true });
    const error = await client.blend({ base64Array: [{ data: PNG }] }).catch((e) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.problems.join()).toContain('cut short');
  });

  it('slow body trickles the answer out in pieces, still whole', async () => {
    const res = await request(emu.url + paths().textToVideo, {
      method: 'POST',
      headers: jsonHeaders({ ...bearer(), 'x-emulator-fault': 'slow-body-ms=100' }),
      body: JSON.stringify({ prompt: PROMPT }),
    });
    const chunks: Buffer[] = [];
    for await (const chunk of res.body) chunks.push(chunk as Buffer);
    expect(chunks.length).toBeGreaterThan(1);
    expect(JSON.parse(Buffer.concat(chunks).toString()).status).toBe('COMPLETED');
  });

  it('latency delays the normal answer', async () => {
    emu.setFault({ latencyMs: 50 });
    expect((await client.textToVideo({ prompt: PROMPT })).status).toBe('COMPLETED');
    expect(emu.requests[0]!.fault).toEqual({ latencyMs: 50 });
  });

  it('blend id as a bare JSON number beyond 2^53: the client keeps every digit', async () => {
    const raw = await post(
      emu.url + paths().blend,
      JSON.stringify({ base64Array: [`data:image/png;base64,${PNG.toString('base64')}`] }),
      jsonHeaders({ 'img-api-secret': KEY, 'x-emulator-fault': 'blend-id-as-number' }),
    );
    expect(raw.text).toMatch(/"result":\d{17,}[,}]/);
    emu.setFault({ blendIdAsNumber: true });
    const result = await client.blend({ base64Array: [{ data: PNG }] });
    expect(result.taskId).toBe(emu.requests.at(-1)!.taskId);
  });
});

describe('server-wide fault from the options', () => {
  it('applies to the first N requests of any operation', async () => {
    const faulty = await startEmulator({ fault: { status: 500, times: 1 } });
    const c = clientFor(faulty);
    await expect(c.textToVideo({ prompt: PROMPT })).rejects.toThrow(ServerError);
    expect((await c.blend({ base64Array: [{ data: PNG }] })).status).toBe(1);
    await c.close();
    await faulty.close();
  });
});

describe('sparse successful answers', () => {
  it('each operation answers only the part a client needs; the client succeeds with warnings', async () => {
    emu.setFault({ sparse: true });
    const i2v = await client.imageToVideo({ input_image: { data: PNG }, prompt: PROMPT });
    expect(Object.keys(i2v.response)).toEqual(['status', 'result', 'data']);
    expect(i2v.taskId).toMatch(/^\d{19}$/);
    expect(i2v.warnings[0]).toMatch(/the answer lacks data\.limitation/);
    const t2v = await client.textToVideo({ prompt: PROMPT });
    expect(t2v.response).toEqual({ video: { url: t2v.videoUrl } });
    expect(t2v.warnings[0]).toMatch(/lacks video\.content_type/);
    const blended = await client.blend({ base64Array: [{ data: PNG }, { data: PNG }] });
    expect(Object.keys(blended.response)).toEqual(['code', 'result']);
    expect(blended.taskId).toMatch(/^\d{19}$/);
    expect(emu.requests.map((r) => r.status)).toEqual([200, 200, 200]);
  });

  it('is also a header key', () => {
    expect(parseFaultHeader('sparse; notify-progress=3; notify-failure; notify-repeat=2; notify-hold')).toEqual({
      sparse: true,
      notifyProgress: 3,
      notifyFailure: true,
      notifyRepeat: 2,
      notifyHold: true,
    });
  });
});
