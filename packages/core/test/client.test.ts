/** The client over real HTTP to a recording server on loopback. */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { capture } from '../../../test/secrets/capture.js';
import {
  AbortedError,
  AuthenticationError,
  ConnectionError,
  createClient,
  GatewayError,
  InvalidResponseError,
  type MediaGatewayClient,
  type MediaGatewayError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RefusedError,
  ServerError,
  TimeoutError,
  ValidationError,
} from '../src/index.js';
import {
  formData,
  I2V_OK,
  JPEG,
  json,
  KEY,
  PDF,
  PNG,
  sha256,
  startRecordingServer,
  T2V_OK,
} from './recording-server.js';

type Server = Awaited<ReturnType<typeof startRecordingServer>>;
let server: Server;
let reply: Parameters<typeof startRecordingServer>[0] = (_req, res) => json(res, 200, T2V_OK);
let client: MediaGatewayClient;
let dir: string;
/** Every error a test saw, checked at the end for the key. */
const seenErrors: unknown[] = [];

async function failure(promise: Promise<unknown>): Promise<MediaGatewayError> {
  try {
    await promise;
  } catch (error) {
    seenErrors.push(error);
    capture('core', String(error), inspect(error, { depth: 10 }), error);
    return error as MediaGatewayError;
  }
  throw new Error('expected the call to fail');
}

beforeAll(async () => {
  server = await startRecordingServer((req, res, i) => reply(req, res, i));
  dir = await mkdtemp(join(tmpdir(), 'mediagw-core-'));
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  await client?.close();
  server.requests.length = 0;
});

function connect(options: Parameters<typeof createClient>[0] extends infer C ? Partial<C> : never = {}) {
  client = createClient({
    baseUrl: `${server.url}/gw/v2/`,
    apiKey: KEY,
    retry: { baseDelayMs: 10 },
    ...options,
  });
  return client;
}

describe('on the wire', () => {
  it('text-to-video: POST, full path with prefix, bearer, exact JSON with a big seed', async () => {
    reply = (_req, res) => json(res, 200, T2V_OK);
    const result = await connect().textToVideo({
      prompt: 'a lighthouse in a storm, waves crashing, cinematic',
      num_inference_steps: 25,
      seed: '18446744073709551617',
    });
    const [req] = server.requests;
    expect(req?.method).toBe('POST');
    expect(req?.url).toBe('/gw/v2/service_prefix/submit/text_video_model');
    expect(req?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req?.headers['img-api-secret']).toBeUndefined();
    expect(req?.headers['content-type']).toBe('application/json');
    expect(req?.body.toString()).toBe(
      '{"prompt":"a lighthouse in a storm, waves crashing, cinematic","num_inference_steps":25,"seed":18446744073709551617}',
    );
    expect(result).toMatchObject({
      operation: 'text-to-video',
      status: 'COMPLETED',
      videoUrl: 'http://cdn.test/v.mp4',
      contentType: 'video/mp4',
      fileSize: 123456,
      seed: '196619188014358660',
      requestId: 'req-1',
      warnings: [],
    });
  });

  it('image-to-video: multipart parts exactly, file from a path, sniffed type, no empty parts', async () => {
    reply = (_req, res) => json(res, 200, I2V_OK);
    const path = join(dir, 'not-really.gif');
    await writeFile(path, PNG);
    const result = await connect().imageToVideo({ input_image: path, prompt: 'waves', aspect_ratio: '16:9' });
    const [req] = server.requests;
    expect(req?.url).toBe('/gw/v2/video_vendor/m2v_16_img2video_10s');
    expect(req?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(Number(req?.headers['content-length'])).toBe(req?.body.length);
    const form = await formData(req!);
    expect([...form.keys()]).toEqual(['prompt', 'aspect_ratio', 'input_image']);
    expect(form.get('prompt')).toBe('waves');
    const file = form.get('input_image') as File;
    expect(file.name).toBe('not-really.gif');
    expect(file.type).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer()).equals(PNG)).toBe(true);
    expect(result).toMatchObject({ taskId: 'task-123', status: 5 });
  });

  it('blend: secret header with the bare key, no Authorization, data URIs, big id as a JSON number', async () => {
    reply = (_req, res) => json(res, 200, '{"code":1,"description":"ok","result":1790000000000000123}');
    const result = await connect({ secretHeader: 'X-Img-Secret' }).blend({
      base64Array: [PNG, new Blob([JPEG]), `data:image/png;base64,${PNG.toString('base64')}`],
      dimensions: 'LANDSCAPE',
      state: 's1',
    });
    const [req] = server.requests;
    expect(req?.url).toBe('/gw/v2/image_relax_prefix/submit/blend');
    expect(req?.headers['x-img-secret']).toBe(KEY);
    expect(req?.headers.authorization).toBeUndefined();
    expect(Number(req?.headers['content-length'])).toBe(req?.body.length);
    expect(JSON.parse(req!.body.toString())).toEqual({
      base64Array: [
        `data:image/png;base64,${PNG.toString('base64')}`,
        `data:image/jpeg;base64,${JPEG.toString('base64')}`,
        `data:image/png;base64,${PNG.toString('base64')}`,
      ],
      dimensions: 'LANDSCAPE',
      state: 's1',
    });
    expect(result).toMatchObject({ taskId: '1790000000000000123', status: 1, httpStatus: 200 });
  });

  it('blend: HTTP 201 is a success', async () => {
    reply = (_req, res) => json(res, 201, { code: 1, result: '42' });
    expect(await connect().blend({ base64Array: [PNG, PNG] })).toMatchObject({ taskId: '42', httpStatus: 201 });
  });

  it('a 64 MiB image arrives byte-exact (streamed, Content-Length known)', async () => {
    reply = (_req, res) => json(res, 200, I2V_OK);
    const big = Buffer.alloc(64 * 1024 * 1024);
    PNG.copy(big);
    for (let i = PNG.length; i < big.length; i += 4096) big[i] = i % 251;
    const path = join(dir, 'big.png');
    await writeFile(path, big);
    await connect().imageToVideo({ input_image: path });
    const file = (await formData(server.requests[0]!)).get('input_image') as File;
    expect(file.size).toBe(big.length);
    expect(sha256(new Uint8Array(await file.arrayBuffer()))).toBe(sha256(big));
  });

  it('a large blend image streams as base64 with the exact length', async () => {
    reply = (_req, res) => json(res, 200, { code: 1, result: '7' });
    const big = Buffer.alloc(5 * 1024 * 1024 + 1, 7);
    PNG.copy(big);
    const path = join(dir, 'blend.png');
    await writeFile(path, big);
    await connect().blend({
      base64Array: [path, { stream: [big.subarray(0, 100), big.subarray(100)], size: big.length }],
    });
    const body = JSON.parse(server.requests[0]!.body.toString()) as { base64Array: string[] };
    for (const uri of body.base64Array) {
      expect(sha256(Buffer.from(uri.slice('data:image/png;base64,'.length), 'base64'))).toBe(sha256(big));
    }
  });
});

describe('validation happens before any byte is sent', () => {
  it.each([
    ['text-to-video', (c: MediaGatewayClient) => c.textToVideo({ prompt: 'p', guidance_scale: 11 }), 'guidance_scale'],
    ['image-to-video', (c: MediaGatewayClient) => c.imageToVideo({ input_image: PDF }), 'input_image'],
    [
      'image-to-video',
      (c: MediaGatewayClient) => c.imageToVideo({ input_image: join(dir, 'missing.png') }),
      'input_image',
    ],
    ['blend', (c: MediaGatewayClient) => c.blend({ base64Array: [PNG], botType: 'X' as never }), 'botType'],
    ['blend', (c: MediaGatewayClient) => c.blend({ base64Array: [PNG, '/nope.png'] }), 'base64Array[1]'],
  ])('%s: %s', async (_op, call, field) => {
    const error = await failure(call(connect()));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.field)).toContain(field);
    expect(server.requests).toHaveLength(0);
  });

  it('a file that cannot be read names the path and the reason', async () => {
    const error = await failure(connect().imageToVideo({ input_image: join(dir, 'missing.png') }));
    expect(error.message).toMatch(/input_image: cannot read .*missing\.png: no such file/);
  });
});

describe('gateway errors become typed errors', () => {
  it.each([
    [401, AuthenticationError, 'unauthorized'],
    [403, PermissionDeniedError, 'forbidden'],
    [404, NotFoundError, 'not-found'],
    [400, GatewayError, 'http'],
    [500, ServerError, 'server'],
  ])('HTTP %i', async (status, type, kind) => {
    reply = (_req, res) =>
      json(res, status, { code: status, message: `nope ${status} ${KEY}` }, { 'x-request-id': 'rid-9' });
    const error = (await failure(connect().textToVideo({ prompt: 'p' }))) as GatewayError;
    expect(error).toBeInstanceOf(type);
    expect(error).toMatchObject({ kind, status, gatewayMessage: `nope ${status} [redacted]`, requestId: 'rid-9' });
    expect(error.hint).toBeTruthy();
    expect(server.requests).toHaveLength(1);
  });

  it('502 with an HTML page: a short text excerpt, no retry', async () => {
    reply = (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<!DOCTYPE html><html><head><style>x{}</style></head><body><h1>502 Bad Gateway</h1></body></html>');
    };
    const error = (await failure(connect().blend({ base64Array: [PNG] }))) as GatewayError;
    expect(error).toBeInstanceOf(ServerError);
    expect(error.bodyExcerpt).toBe('502 Bad Gateway');
    expect(server.requests).toHaveLength(1);
  });

  it('a failure envelope on 200 is RefusedError', async () => {
    reply = (_req, res) => json(res, 200, { status: 500, result: 0, message: 'model busy' });
    const error = await failure(connect().imageToVideo({ input_image: PNG }));
    expect(error).toBeInstanceOf(RefusedError);
    expect(error.message).toMatch(/model busy/);
  });

  it('a body cut short is InvalidResponseError', async () => {
    reply = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"code":1,"res');
      setTimeout(() => res.destroy(), 20);
    };
    const error = await failure(connect().blend({ base64Array: [PNG] }));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.message).toMatch(/cut short/);
    expect(server.requests).toHaveLength(1);
  });

  it('an answer over the size cap is InvalidResponseError', async () => {
    reply = (_req, res) => json(res, 200, `{"pad":"${'x'.repeat(4096)}"}`);
    const error = await failure(connect({ maxResponseBytes: 1024 }).textToVideo({ prompt: 'p' }));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.message).toMatch(/1024-byte limit/);
  });

  it('a dropped connection is ConnectionError and is not retried', async () => {
    reply = (_req, res) => {
      res.socket?.destroy();
    };
    const error = await failure(connect().textToVideo({ prompt: 'p' }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(server.requests).toHaveLength(1);
  });
});

describe('retries only where no task can have been created', () => {
  it('429 with Retry-After is retried after the wait, then succeeds', async () => {
    reply = (_req, res, i) =>
      i === 0 ? json(res, 429, { message: 'slow down' }, { 'retry-after': '1' }) : json(res, 200, T2V_OK);
    const retries: number[] = [];
    const started = Date.now();
    await connect().textToVideo({ prompt: 'p' }, { onRetry: (r) => retries.push(r.delayMs) });
    expect(server.requests).toHaveLength(2);
    expect(retries[0]).toBeGreaterThanOrEqual(1000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it('503 is retried (default 2 retries), then surfaces as ServerError', async () => {
    reply = (_req, res) => json(res, 503, { message: 'maintenance' });
    const error = await failure(connect().blend({ base64Array: [PNG] }));
    expect(error).toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(3);
    // The body was rebuilt for each attempt.
    for (const req of server.requests) expect(req.body.length).toBe(Number(req.headers['content-length']));
  });

  it('429 beyond retries surfaces as RateLimitError with retryAfterMs', async () => {
    reply = (_req, res) => json(res, 429, { message: 'quota' }, { 'retry-after': '0' });
    const error = (await failure(connect({ retry: { retries: 1 } }).textToVideo({ prompt: 'p' }))) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterMs).toBe(0);
    expect(server.requests).toHaveLength(2);
  });

  it('a Retry-After longer than the cap is not waited for', async () => {
    reply = (_req, res) => json(res, 429, {}, { 'retry-after': '3600' });
    await failure(connect().textToVideo({ prompt: 'p' }));
    expect(server.requests).toHaveLength(1);
  });

  it('500 is never retried', async () => {
    reply = (_req, res) => json(res, 500, { message: 'boom' });
    await failure(connect().imageToVideo({ input_image: PNG }));
    expect(server.requests).toHaveLength(1);
  });

  it('connection refused is retried, then ConnectionError', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const attempts: number[] = [];
    client = createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY, retry: { baseDelayMs: 5 } });
    const error = await failure(client.textToVideo({ prompt: 'p' }, { onRetry: (r) => attempts.push(r.attempt) }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).code).toBe('ECONNREFUSED');
    expect(attempts).toEqual([1, 2]);
  });
});

describe('timeouts and abort', () => {
  it('the headers timeout fires and the request is not retried', async () => {
    reply = (_req, res) => {
      setTimeout(() => json(res, 200, T2V_OK), 1500);
    };
    const error = await failure(connect({ timeouts: { headersMs: 200 } }).textToVideo({ prompt: 'p' }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ phase: 'headers', timeoutMs: 200 });
    expect(server.requests).toHaveLength(1);
  });

  it('the overall timeout fires', async () => {
    reply = (_req, res) => {
      setTimeout(() => json(res, 200, T2V_OK), 1500);
    };
    const error = await failure(connect().textToVideo({ prompt: 'p' }, { timeoutMs: 150 }));
    expect(error).toMatchObject({ kind: 'timeout', phase: 'total' });
  });

  it('an AbortSignal aborts', async () => {
    reply = (_req, res) => {
      setTimeout(() => json(res, 200, T2V_OK), 1500);
    };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await failure(connect().textToVideo({ prompt: 'p' }, { signal: controller.signal }));
    expect(error).toBeInstanceOf(AbortedError);
  });
});

describe('download', () => {
  it('streams a produced file to disk without sending the key', async () => {
    reply = (_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      res.end(Buffer.alloc(1000, 9));
    };
    const out = join(dir, 'sub', 'video.mp4');
    const result = await connect().download(`${server.url}/files/v.mp4`, out);
    expect(result).toMatchObject({ path: out, bytes: 1000, contentType: 'video/mp4' });
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('follows a redirect to where the file lives', async () => {
    reply = (req, res) => {
      if (req.url === '/files/moved.mp4') {
        res.writeHead(302, { location: '/cdn/v.mp4' });
        res.end();
      } else {
        res.writeHead(200, { 'content-type': 'video/mp4' });
        res.end(Buffer.alloc(10, 1));
      }
    };
    const result = await connect().download(`${server.url}/files/moved.mp4`, join(dir, 'moved.mp4'));
    expect(result.bytes).toBe(10);
    expect(server.requests.map((r) => r.url)).toEqual(['/files/moved.mp4', '/cdn/v.mp4']);
  });
});

describe('secrets', () => {
  it('the key is in no error text, JSON, inspect output, request description or client', async () => {
    const { blend, buildRequest, resolveConfig } = await import('../src/protocol.js');
    const request = buildRequest(blend, resolveConfig({ baseUrl: 'http://h', apiKey: KEY }), {
      base64Array: [{ size: PNG.length, head: PNG, handle: PNG }],
    });
    const texts = [
      inspect(request, { depth: 10 }),
      JSON.stringify(request),
      inspect(connect(), { depth: 10 }),
      JSON.stringify(connect().settings),
      ...seenErrors.flatMap((e) => [
        String(e),
        inspect(e, { depth: 10 }),
        JSON.stringify(e),
        (e as Error).stack ?? '',
        inspect((e as Error).cause, { depth: 10 }),
      ]),
    ];
    expect(seenErrors.length).toBeGreaterThan(10);
    for (const text of texts) expect(text).not.toContain(KEY);
    expect(inspect(request)).toContain('[redacted]');
  });
});
