/**
 * What can go wrong on the other side, seen through the built `mediagw`: each emulator fault (set
 * per server), sparse answers, a hostile gateway (escape sequences, line breaks), and a file host
 * that fails, streams forever or loses the file on the way. The exit code a pipeline branches on,
 * the message a person reads, and what is (not) left on disk.
 */

import { readdir, readFile, rm, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { OPERATIONS } from '@mediagw/core';
import { type Fault, startEmulator } from '@mediagw/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, type Recorded, startRecordingServer } from '../packages/core/test/recording-server.js';
import {
  allOutput,
  assertBuilt,
  hookServer,
  runCli,
  SENTINEL,
  sampleFiles,
  spawnCli,
  terminalControls,
} from './helpers/cli.js';

const PROMPT = 'a paper boat drifting down a rain-soaked street at dusk';
let files: Awaited<ReturnType<typeof sampleFiles>>;

beforeAll(async () => {
  assertBuilt();
  files = await sampleFiles();
});

afterAll(() => {
  expect(allOutput()).not.toContain(SENTINEL);
});

type Operation = 'image-to-video' | 'text-to-video' | 'blend';
const ARGS: Record<Operation, () => string[]> = {
  'image-to-video': () => ['image-to-video', '--image', files.red, '--prompt', PROMPT],
  'text-to-video': () => ['text-to-video', '--prompt', PROMPT],
  blend: () => ['blend', '--image', files.red, '--image', files.blue],
};

/** Runs one operation against an emulator with `fault` on every request. */
async function withFault(fault: Fault, operation: Operation, extra: string[] = []) {
  const emu = await startEmulator({ port: 0, apiKey: SENTINEL, fault });
  try {
    const run = await runCli([...ARGS[operation](), ...extra], {
      MEDIAGW_BASE_URL: emu.url,
      MEDIAGW_API_KEY: SENTINEL,
    });
    return { ...run, sent: emu.count(operation) };
  } finally {
    await emu.close();
  }
}

describe.concurrent('faults', () => {
  it.each([
    {
      name: '429 (no retries left)',
      fault: { status: 429, retryAfter: '0' },
      operation: 'text-to-video',
      extra: ['--retries', '0'],
      code: 3,
      message: /HTTP 429[^\n]*\nhint: The gateway is rate limiting/,
    },
    {
      name: '500',
      fault: { status: 500 },
      operation: 'image-to-video',
      extra: [],
      code: 3,
      message: /image-to-video failed with HTTP 500[^\n]*\nhint: The gateway failed\. It may have created the task/,
    },
    {
      name: '502 with an HTML page',
      fault: { status: 502 },
      operation: 'blend',
      extra: [],
      code: 3,
      message: /blend failed with HTTP 502/,
    },
    {
      name: '503 (no retries left)',
      fault: { status: 503 },
      operation: 'text-to-video',
      extra: ['--retries', '0'],
      code: 3,
      message: /HTTP 503/,
    },
    {
      name: '401 from the gateway',
      fault: { status: 401 },
      operation: 'blend',
      extra: [],
      code: 3,
      message:
        /HTTP 401[^\n]*\nhint: Check the API key \(--api-key or MEDIAGW_API_KEY\) and the secret header name \(--secret-header or MEDIAGW_SECRET_HEADER\)/,
    },
    {
      name: 'an image-to-video failure envelope',
      fault: { envelopeFailure: true },
      operation: 'image-to-video',
      extra: [],
      code: 3,
      message: /image-to-video failed with HTTP 200 \(gateway code \d+\)/,
    },
    {
      name: 'a text-to-video FAILED status',
      fault: { envelopeFailure: true },
      operation: 'text-to-video',
      extra: [],
      code: 3,
      message: /gateway code FAILED/,
    },
    {
      name: 'a blend code other than 1',
      fault: { envelopeFailure: true },
      operation: 'blend',
      extra: [],
      code: 3,
      message: /blend failed with HTTP 200 \(gateway code 22\)/,
    },
    {
      name: 'a truncated body',
      fault: { truncate: true },
      operation: 'text-to-video',
      extra: [],
      code: 3,
      message: /unusable answer .*cut short/,
    },
    {
      name: 'a connection closed after the request was sent',
      fault: { drop: true },
      operation: 'image-to-video',
      extra: [],
      code: 4,
      message: /broke after the request was sent, before an answer[^\n]*\nhint: .*the task may exist/,
    },
    {
      name: 'latency beyond --timeout',
      fault: { latencyMs: 10_000 },
      operation: 'text-to-video',
      extra: ['--timeout', '0.5'],
      code: 4,
      message:
        /timed out \(total, 500 ms\)\nhint: Raise the timeout \(--timeout or MEDIAGW_TIMEOUT\)\. The task may have been created/,
    },
    {
      name: 'a slow body beyond --timeout',
      fault: { slowBodyMs: 10_000 },
      operation: 'blend',
      extra: ['--timeout', '0.5'],
      code: 4,
      message: /timed out/,
    },
  ] satisfies {
    name: string;
    fault: Fault;
    operation: Operation;
    extra: string[];
    code: number;
    message: RegExp;
  }[])('$name: exit $code', async ({ fault, operation, extra, code, message }) => {
    const run = await withFault(fault, operation, extra);
    expect(run.code, run.stderr).toBe(code);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trimEnd().split('\n').length).toBeLessThanOrEqual(2);
    expect(run.sent).toBe(1);
  });

  it('Ctrl+C while waiting for the answer: stopped at once, saying the task may exist', async () => {
    const emu = await startEmulator({ port: 0, fault: { latencyMs: 20_000 } });
    try {
      const cli = spawnCli(ARGS['text-to-video'](), { MEDIAGW_BASE_URL: emu.url, MEDIAGW_API_KEY: SENTINEL });
      await expect.poll(() => emu.count('text-to-video'), { timeout: 10_000 }).toBe(1);
      cli.child.kill('SIGINT');
      const run = await cli.done;
      expect(run.code).toBe(4);
      expect(run.stderr).toMatch(
        /^mediagw: text-to-video was aborted\nhint: Stopped on request\. If the request had gone out, the task may exist/,
      );
    } finally {
      await emu.close();
    }
  });

  it('a dropped connection with --json: one error object that says the request was sent', async () => {
    const run = await withFault({ drop: true }, 'text-to-video', ['--json']);
    expect(run.code).toBe(4);
    expect(JSON.parse(run.stdout).error).toMatchObject({ kind: 'connection', sent: true, exitCode: 4 });
    expect(run.stderr).not.toMatch(/could not reach/);
  });

  it('429 once, then success: retried after Retry-After, exit 0; --debug says so on stderr', async () => {
    const [plain, debug] = await Promise.all([
      withFault({ status: 429, retryAfter: '0', times: 1 }, 'text-to-video', ['--json']),
      withFault({ status: 429, retryAfter: '0', times: 1 }, 'text-to-video', ['--json', '--debug']),
    ]);
    expect(plain).toMatchObject({ code: 0, stderr: '', sent: 2 });
    expect(debug.code).toBe(0);
    expect(debug.stderr).toMatch(/HTTP 429.*; retrying in \d+\.\d s \(retry 1\)/);
    expect(JSON.parse(debug.stdout).status).toBe('COMPLETED');
    expect(debug.sent).toBe(2);
  });

  it('blend answered 201: accepted, exit 0', async () => {
    const run = await withFault({ status: 201 }, 'blend', ['--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ operation: 'blend', status: 1 });
  });

  it('a blend id sent as a bare JSON number beyond 2^53: printed with every digit', async ({ expect }) => {
    const hook = await hookServer();
    try {
      const run = await withFault({ blendIdAsNumber: true }, 'blend', ['--notify-hook', hook.url, '--json']);
      expect(run.code).toBe(0);
      const { taskId, response } = JSON.parse(run.stdout);
      expect(BigInt(taskId) > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
      expect(response.result).toBe(taskId);
      await expect.poll(() => hook.bodies.length, { timeout: 10_000 }).toBeGreaterThan(0);
      expect((hook.bodies[0] as { id: string }).id).toBe(taskId);
    } finally {
      await hook.close();
    }
  });
});

describe.concurrent('sparse answers: the task exists, so exit 0 with warnings', () => {
  // Blend's sparse answer ({code, result}) is all the spec requires: the rest it lists is optional.
  const lacking: string[] = OPERATIONS.filter((op) => op.name !== 'blend').map((op) => op.name);
  it.each(OPERATIONS.map((op) => op.name as Operation))('%s', async (operation) => {
    const [plain, asJson] = await Promise.all([
      withFault({ sparse: true }, operation),
      withFault({ sparse: true }, operation, ['--json']),
    ]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(new RegExp(`^${operation}: `));
    expect(asJson.code).toBe(0);
    const out = JSON.parse(asJson.stdout);
    expect(out.operation).toBe(operation);
    // Every warning is on stderr and in --json, the same words.
    expect(asJson.stderr).toBe(out.warnings.map((w: string) => `mediagw: warning: ${w}\n`).join(''));
    if (lacking.includes(operation)) {
      expect(plain.stderr).toMatch(
        /^mediagw: warning: the answer lacks .+, which the spec lists; the result does without$/m,
      );
      expect(out.warnings).toEqual([expect.stringMatching(/^the answer lacks /)]);
    }
    expect(plain.sent + asJson.sent).toBe(2);
  });
});

/** A gateway on loopback answering every POST with `answer`, and serving files as `files` says. */
async function gateway(
  answer: (req: Recorded, url: string) => [number, unknown],
  files?: (req: Recorded, res: ServerResponse) => void,
) {
  let url = '';
  const server = await startRecordingServer((req, res) => {
    if (req.method === 'GET' && files) return files(req, res);
    const [status, body] = answer(req, url);
    json(res, status, body);
  });
  url = server.url;
  return server;
}

describe.concurrent('a hostile gateway: what it sends is data, never terminal control', () => {
  const hostile = 'x\u001b[31mred\u001b]0;title\u0007\r\nmediagw: forged line\u009b2J\u202e';

  it('in a successful answer: the summary keeps its lines, --json keeps the data escaped', async () => {
    const server = await gateway((_req, url) => [
      200,
      {
        video: { url: `${url}/v.mp4?${hostile}`, content_type: hostile, file_size: 3 },
        seed: 7,
        status: 'COMPLETED',
        request_id: hostile,
        extra: hostile,
      },
    ]);
    try {
      const env = { MEDIAGW_BASE_URL: server.url, MEDIAGW_API_KEY: SENTINEL };
      const [plain, asJson] = await Promise.all([
        runCli(ARGS['text-to-video'](), env),
        runCli([...ARGS['text-to-video'](), '--json'], env),
      ]);
      expect(plain.code, plain.stderr).toBe(0);
      expect(plain.stdout.split('\n')).toHaveLength(5); // four summary lines, and the final newline
      expect(asJson.stdout.split('\n')).toHaveLength(2);
      expect(JSON.parse(asJson.stdout).response.extra).toBe(hostile);
      for (const run of [plain, asJson]) expect(terminalControls(run.stdout + run.stderr)).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('in an error answer, a warning and an unusable answer', async () => {
    const server = await gateway((req) =>
      req.url.includes('m2v_16')
        ? [200, { data: { task: { id: 'task-4242', status: hostile } }, message: hostile }]
        : req.url.includes('blend')
          ? [200, { code: 1, result: '99887766', description: hostile, properties: hostile }]
          : [400, { message: hostile, code: hostile }],
    );
    try {
      const env = { MEDIAGW_BASE_URL: server.url, MEDIAGW_API_KEY: SENTINEL };
      const [refused, unusable, warned] = await Promise.all([
        runCli(ARGS['text-to-video'](), env),
        runCli([...ARGS['image-to-video'](), '--json'], env),
        runCli(ARGS.blend(), env),
      ]);
      expect(refused.code).toBe(3);
      expect(refused.stderr.split('\n')).toHaveLength(3); // the message, the hint, the final newline
      expect(unusable.code).toBe(3);
      expect(unusable.stderr).toMatch(
        /hint: A task may exist anyway \(the answer names "task-4242"\): check with the gateway/,
      );
      expect(JSON.parse(unusable.stdout).error).toMatchObject({
        kind: 'invalid-response',
        possibleTaskIds: ['task-4242'],
      });
      expect(warned.code).toBe(0);
      expect(warned.stderr).toMatch(/^mediagw: warning: the answer's properties: /m);
      for (const run of [refused, unusable, warned]) expect(terminalControls(run.stdout + run.stderr)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe.concurrent('saving fails after the task exists: the result is printed, exit 5, no file left', () => {
  /** A text-to-video gateway whose video is served by `serve`; size announced as given. */
  async function videoGateway(serve: (req: Recorded, res: ServerResponse) => void, fileSize?: number) {
    return gateway(
      (_req, url) => [
        200,
        {
          video: {
            url: `${url}/video.mp4`,
            content_type: 'video/mp4',
            ...(fileSize === undefined ? {} : { file_size: fileSize }),
          },
          seed: 1,
          status: 'COMPLETED',
          request_id: 'req-77',
        },
      ],
      serve,
    );
  }
  const forever = async (_req: Recorded, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'video/mp4' });
    const chunk = Buffer.alloc(64 * 1024, 7);
    while (!res.destroyed) {
      if (!res.write(chunk)) {
        await new Promise((next) => {
          res.once('drain', next);
          res.once('close', next);
        });
      }
    }
  };
  async function save(server: { url: string }, folder: string, extra: string[] = [], env: Record<string, string> = {}) {
    const dir = join(files.dir, folder);
    const run = await runCli([...ARGS['text-to-video'](), '--output', join(dir, 'clip.mp4'), ...extra], {
      MEDIAGW_BASE_URL: server.url,
      MEDIAGW_API_KEY: SENTINEL,
      ...env,
    });
    const left = await readdir(dir).catch(() => [] as string[]);
    return { ...run, left };
  }

  it('the file host answers 404: the summary, then the error naming the URL; no network hint', async () => {
    const server = await videoGateway((_req, res) => json(res, 404, { message: 'gone' }), 3);
    try {
      const [plain, asJson] = await Promise.all([save(server, 'gone-plain'), save(server, 'gone-json', ['--json'])]);
      expect(plain.code).toBe(5);
      expect(plain.stdout).toMatch(/^text-to-video: COMPLETED\n {2}video: http:\/\/127\.0\.0\.1:\d+\/video\.mp4/);
      expect(plain.stderr).toMatch(
        /^mediagw: text-to-video succeeded, but saving its result to .*clip\.mp4 failed: HTTP 404 from the file host\nhint: .*The result is at http:\/\/127\.0\.0\.1:\d+\/video\.mp4\.\n$/,
      );
      expect(plain.stderr).not.toMatch(/network|reach the gateway/);
      expect(asJson.code).toBe(5);
      const out = JSON.parse(asJson.stdout);
      expect(out).toMatchObject({
        operation: 'text-to-video',
        requestId: 'req-77',
        error: { kind: 'download', status: 404, exitCode: 5 },
      });
      expect(out.output).toBeUndefined();
      expect([plain.left, asJson.left]).toEqual([[], []]);
    } finally {
      await server.close();
    }
  });

  it('a host that streams forever: stopped at the announced size plus slack, nothing left', async () => {
    const server = await videoGateway(forever, 1000);
    try {
      const started = performance.now();
      const run = await save(server, 'forever-announced');
      expect(run.code).toBe(5);
      expect(run.stderr).toMatch(
        /more than \d+ bytes arrived \(the announced 1000 bytes plus slack\); stopped at \d+, nothing was saved/,
      );
      expect(run.left).toEqual([]);
      expect(performance.now() - started).toBeLessThan(10_000);
    } finally {
      await server.close();
    }
  });

  it('no size announced: stopped at --max-download (or MEDIAGW_MAX_DOWNLOAD), nothing left', async () => {
    const server = await videoGateway(forever);
    try {
      const [byFlag, byEnv] = await Promise.all([
        save(server, 'forever-flag', ['--max-download', '300000']),
        save(server, 'forever-env', [], { MEDIAGW_MAX_DOWNLOAD: '200000' }),
      ]);
      expect(byFlag.code).toBe(5);
      expect(byFlag.stderr).toMatch(/more than 300000 bytes arrived \(the download limit\)/);
      expect(byEnv.code).toBe(5);
      expect(byEnv.stderr).toMatch(/more than 200000 bytes arrived/);
      expect([byFlag.left, byEnv.left]).toEqual([[], []]);
    } finally {
      await server.close();
    }
  });

  it('Ctrl+C during the download: stopped, the result printed, no temporary file left', async () => {
    const server = await videoGateway(forever);
    const dir = join(files.dir, 'interrupted');
    try {
      const cli = spawnCli([...ARGS['text-to-video'](), '--output', join(dir, 'clip.mp4')], {
        MEDIAGW_BASE_URL: server.url,
        MEDIAGW_API_KEY: SENTINEL,
      });
      // The download is under way once its temporary file has grown.
      const growing = async () => {
        const part = (await readdir(dir).catch(() => [] as string[])).find((f) => f.endsWith('.part'));
        return part ? (await stat(join(dir, part))).size : 0;
      };
      await expect.poll(growing, { timeout: 10_000 }).toBeGreaterThan(0);
      cli.child.kill('SIGINT');
      const run = await cli.done;
      expect(run.code).toBe(5);
      expect(run.stdout).toMatch(/^text-to-video: COMPLETED/);
      expect(run.stderr).toMatch(/saving its result to .*clip\.mp4 failed: aborted by the caller/);
      expect(await readdir(dir).catch(() => [])).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('the local folder disappears during the download: the OS reason, and where the result is', async () => {
    const dir = join(files.dir, 'vanishing');
    const server = await videoGateway(async (_req, res) => {
      await rm(dir, { recursive: true, force: true });
      res.writeHead(200, { 'content-type': 'video/mp4' });
      res.end(Buffer.alloc(3000, 1));
    }, 3000);
    try {
      const run = await save(server, 'vanishing');
      expect(run.code).toBe(5);
      expect(run.stdout).toMatch(/^text-to-video: COMPLETED/);
      expect(run.stderr).toMatch(
        /saving its result to .*clip\.mp4 failed: .*\(ENOENT\)\nhint: Nothing needs to be submitted again: fix the local problem and fetch the result from http:/,
      );
      await expect(readFile(join(dir, 'clip.mp4'))).rejects.toThrow();
    } finally {
      await server.close();
    }
  });
});
