/**
 * The fault matrix: every emulator fault x every operation x (core client, CLI, Action).
 * Each cell asserts the outcome (error kind / exit code), that it finished within the timeout plus
 * one second, and the emulator's count of submissions (no duplicate task where none may be made).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createClient, type MediaGatewayError } from '@mediagw/core';
import { type Fault, startEmulator } from '@mediagw/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingPrinted, makeWorkspace, runAction } from '../packages/github-action/test/helpers.js';
import { allOutput, assertBuilt, png, runCli } from './helpers/cli.js';
import { capture } from './secrets/capture.js';

const KEY = 'sk-SENTINEL-matrix-81be4f';
const PROMPT = 'a paper lantern rising over a dark lake, slow drift, warm glow';
const OPERATIONS = ['image-to-video', 'text-to-video', 'blend'] as const;
type Operation = (typeof OPERATIONS)[number];
type Outcome = 'ok' | MediaGatewayError['kind'];

/** Exit codes the CLI promises; the Action fails the step (1) on any error. */
const CLI_EXIT: Partial<Record<Outcome, number>> = {
  ok: 0,
  'rate-limited': 3,
  server: 3,
  refused: 3,
  'invalid-response': 3,
  connection: 4,
  timeout: 4,
};

interface Cell {
  name: string;
  fault: Fault;
  outcome: Outcome;
  /** Submissions the emulator must count (retries included). */
  sent: number;
  timeoutSeconds?: number;
}

// Every client runs with one retry, so "retried once" is visible in the count.
const CELLS: Cell[] = [
  { name: 'latency 300 ms', fault: { latencyMs: 300 }, outcome: 'ok', sent: 1 },
  { name: '201 Created', fault: { status: 201 }, outcome: 'ok', sent: 1 },
  { name: '429 once, Retry-After 0', fault: { status: 429, retryAfter: '0', times: 1 }, outcome: 'ok', sent: 2 },
  { name: '429 always', fault: { status: 429, retryAfter: '0' }, outcome: 'rate-limited', sent: 2 },
  { name: '500', fault: { status: 500 }, outcome: 'server', sent: 1 },
  { name: '502 HTML page', fault: { status: 502 }, outcome: 'server', sent: 1 },
  { name: '503', fault: { status: 503, retryAfter: '0' }, outcome: 'server', sent: 2 },
  { name: 'failure envelope on 200', fault: { envelopeFailure: true }, outcome: 'refused', sent: 1 },
  { name: 'dropped connection', fault: { drop: true }, outcome: 'connection', sent: 1 },
  { name: 'truncated body', fault: { truncate: true }, outcome: 'invalid-response', sent: 1 },
  { name: 'slow body within the timeout', fault: { slowBodyMs: 300 }, outcome: 'ok', sent: 1 },
  { name: 'slow body past the timeout', fault: { slowBodyMs: 3000 }, outcome: 'timeout', sent: 1, timeoutSeconds: 1 },
  { name: 'blend id as a JSON number', fault: { blendIdAsNumber: true }, outcome: 'ok', sent: 1 },
  { name: 'sparse successful answer', fault: { sparse: true }, outcome: 'ok', sent: 1 },
];

/** Cells whose outcome carries a required wording, on every surface. */
const SAYS: Partial<Record<string, RegExp>> = {
  // The request went out: the task may exist (never "could not reach", which invites a paid resubmit).
  'dropped connection': /task may exist/,
};
/** A sparse answer succeeds, and says what the answer lacked (blend's lacks nothing required by the spec). */
const warnsOfGaps = (cell: Case) => cell.fault.sparse === true && cell.operation !== 'blend';
const DEFAULT_TIMEOUT_S = 10;

let dir: string;
/** A subprocess client's own start-up (measured here, worst of three): not part of its request's timeout. */
let startupMs = 0;
const images = () => ({ red: join(dir, 'red.png'), blue: join(dir, 'blue.png') });
const actionOutput: string[] = [];

beforeAll(async () => {
  assertBuilt();
  dir = await makeWorkspace();
  await writeFile(images().red, png(16, 16, [200, 30, 30]));
  await writeFile(images().blue, png(16, 16, [30, 30, 200]));
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    await runCli(['--version']);
    startupMs = Math.max(startupMs, performance.now() - started);
  }
});

afterAll(() => {
  expect(allOutput()).not.toContain(KEY);
  expect(actionOutput.join('\n')).not.toContain(KEY);
});

type Case = Cell & { operation: Operation };
const seconds = (cell: Case) => cell.timeoutSeconds ?? DEFAULT_TIMEOUT_S;

/**
 * Runs one cell against an emulator of its own and checks what holds for every client: the
 * submissions the emulator counted, and the time bound (timeout + 1 s, plus a subprocess's start-up).
 */
async function runCell<T>(cell: Case, startup: number, run: (url: string) => Promise<T>): Promise<T> {
  const emulator = await startEmulator({ port: 0, fault: cell.fault, notifyRetries: 0 });
  try {
    const started = performance.now();
    const result = await run(emulator.url);
    expect(emulator.count(cell.operation)).toBe(cell.sent);
    expect(performance.now() - started).toBeLessThan(seconds(cell) * 1000 + 1000 + startup);
    return result;
  } finally {
    await emulator.close();
  }
}

function coreCall(url: string, operation: Operation, timeoutSeconds: number) {
  const client = createClient({
    baseUrl: url,
    apiKey: KEY,
    retry: { retries: 1 },
    timeouts: { totalMs: timeoutSeconds * 1000 },
  });
  const { red, blue } = images();
  const call =
    operation === 'image-to-video'
      ? client.imageToVideo({ input_image: red, prompt: PROMPT })
      : operation === 'text-to-video'
        ? client.textToVideo({ prompt: PROMPT })
        : client.blend({ base64Array: [red, blue] });
  return call
    .then(
      (result) => ({
        outcome: 'ok' as Outcome,
        result: result as { taskId?: string; warnings: readonly string[] },
        text: '',
      }),
      (error: MediaGatewayError) => {
        capture('core', String(error), error);
        return { outcome: error.kind as Outcome, result: undefined, text: `${error.message} ${error.hint}` };
      },
    )
    .finally(() => client.close());
}

const cases = OPERATIONS.flatMap((operation) => CELLS.map((cell) => ({ operation, ...cell })));

describe.concurrent('core client', () => {
  it.each(cases)('$operation x $name', async (cell) => {
    const result = await runCell(cell, 0, (url) => coreCall(url, cell.operation, seconds(cell)));
    expect(result.outcome).toBe(cell.outcome);
    if (cell.fault.blendIdAsNumber && cell.operation === 'blend') expect(result.result?.taskId).toMatch(/^\d{17,}$/);
    if (warnsOfGaps(cell)) expect(result.result?.warnings.join('\n')).toMatch(/the answer lacks/);
    if (SAYS[cell.name]) expect(result.text).toMatch(SAYS[cell.name]!);
  });
});

describe.concurrent('CLI', () => {
  it.each(cases)('$operation x $name', async (cell) => {
    const { red, blue } = images();
    const args = {
      'image-to-video': ['image-to-video', '--image', red, '--prompt', PROMPT],
      'text-to-video': ['text-to-video', '--prompt', PROMPT],
      blend: ['blend', '--image', red, '--image', blue],
    }[cell.operation];
    const result = await runCell(cell, startupMs, (url) =>
      runCli([...args, '--json', '--retries', '1', '--timeout', String(seconds(cell))], {
        MEDIAGW_BASE_URL: url,
        MEDIAGW_API_KEY: KEY,
      }),
    );
    expect(result.code, result.stderr).toBe(CLI_EXIT[cell.outcome]);
    if (cell.outcome === 'ok') expect(JSON.parse(result.stdout).operation).toBe(cell.operation);
    else expect(result.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
    if (warnsOfGaps(cell)) expect(result.stderr).toMatch(/warning: the answer lacks/);
    if (SAYS[cell.name]) expect(result.stderr).toMatch(SAYS[cell.name]!);
  });
});

describe.concurrent('Action', () => {
  it.each(cases)('$operation x $name', async (cell) => {
    const ws = await makeWorkspace();
    await writeFile(join(ws, 'red.png'), png(16, 16, [200, 30, 30]));
    await writeFile(join(ws, 'blue.png'), png(16, 16, [30, 30, 200]));
    const inputs: Record<string, string> = {
      'image-to-video': { image: 'red.png', prompt: PROMPT },
      'text-to-video': { prompt: PROMPT },
      blend: { images: 'red.png\nblue.png' },
    }[cell.operation];
    const result = await runCell(cell, startupMs, (url) =>
      runAction(
        {
          operation: cell.operation,
          'base-url': url,
          'api-key': KEY,
          retries: '1',
          'timeout-seconds': String(seconds(cell)),
          ...inputs,
        },
        ws,
      ),
    );
    actionOutput.push(everythingPrinted(result));
    expect(result.code, result.stdout).toBe(cell.outcome === 'ok' ? 0 : 1);
    expect(result.stdout).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
    if (cell.outcome === 'ok') expect(result.outputs.response).toBeTruthy();
    if (warnsOfGaps(cell)) expect(result.stdout).toMatch(/::warning.*the answer lacks/);
    if (SAYS[cell.name]) expect(result.stdout).toMatch(SAYS[cell.name]!);
  });
});
