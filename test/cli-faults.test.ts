/**
 * Each emulator fault, set per server, seen through the built `mediagw`: the exit code a pipeline
 * branches on and the message a person reads. One emulator per case, so the cases run in parallel.
 */
import { type Fault, startEmulator } from '@mediagw/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allOutput, assertBuilt, hookServer, runCli, SENTINEL, sampleFiles } from './helpers/cli.js';

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
      message: /HTTP 401[^\n]*\nhint: Check the API key/,
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
      message: /status "FAILED", not COMPLETED/,
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
      message: /unreadable answer .*cut short/,
    },
    {
      name: 'a dropped connection',
      fault: { drop: true },
      operation: 'image-to-video',
      extra: [],
      code: 4,
      message: /could not reach the gateway/,
    },
    {
      name: 'latency beyond --timeout',
      fault: { latencyMs: 10_000 },
      operation: 'text-to-video',
      extra: ['--timeout', '0.5'],
      code: 4,
      message: /timed out \(total, 500 ms\)/,
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

  it('429 once, then success: retried after Retry-After, exit 0; --debug says so on stderr', async () => {
    const [plain, debug] = await Promise.all([
      withFault({ status: 429, retryAfter: '0', times: 1 }, 'text-to-video', ['--json']),
      withFault({ status: 429, retryAfter: '0', times: 1 }, 'text-to-video', ['--json', '--debug']),
    ]);
    expect(plain).toMatchObject({ code: 0, stderr: '', sent: 2 });
    const run = debug;
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/HTTP 429.*; retrying in \d+\.\d s \(retry 1\)/);
    expect(JSON.parse(run.stdout).status).toBe('COMPLETED');
    expect(run.sent).toBe(2);
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
      expect(typeof taskId).toBe('string');
      expect(BigInt(taskId) > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
      expect(response.result).toBe(taskId);
      // The emulator's own notification carries the id as text: the same digits.
      await expect.poll(() => hook.bodies.length, { timeout: 10_000 }).toBeGreaterThan(0);
      expect((hook.bodies[0] as { id: string }).id).toBe(taskId);
    } finally {
      await hook.close();
    }
  });
});
