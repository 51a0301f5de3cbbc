/**
 * What a hostile or odd gateway sends is data (issues 14, 15.3, 15.4): dist/index.js as a runner
 * runs it, against a recording server on loopback that answers as each test tells it.
 */
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { json, startRecordingServer } from '../../core/test/recording-server.js';
import {
  annotations,
  expectClean,
  failure,
  png,
  runAction,
  runnerCommands,
  SENTINEL_KEY,
  workspaceWith,
} from './helpers.js';

type Server = Awaited<ReturnType<typeof startRecordingServer>>;
let server: Server | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const PROMPT = 'a paper lantern rising over a dark lake, slow drift, warm glow';
const textToVideo = (inputs: Record<string, string> = {}) =>
  runAction({
    operation: 'text-to-video',
    'base-url': server?.url as string,
    'api-key': SENTINEL_KEY,
    prompt: PROMPT,
    ...inputs,
  });

/** Gateway text that would be workflow commands if it started a line. */
const INJECTED = 'INJECTED';
const hostile = (before: string) =>
  `${before}\n::error::${INJECTED}\r::add-mask::${INJECTED}\r\n::set-output name=task-id::${INJECTED}\n##[warning]${INJECTED}`;

/** Every command the runner would act on is the action's own: the key's mask, annotations. */
function expectOnlyOwnCommands(run: Awaited<ReturnType<typeof runAction>>) {
  const commands = runnerCommands(run);
  for (const c of commands) expect(['add-mask', 'error', 'warning'], `${c.name}: ${c.message}`).toContain(c.name);
  expect(commands.filter((c) => c.name === 'add-mask').map((c) => c.message)).toEqual([SENTINEL_KEY]);
  for (const c of commands) expect(c.message).not.toBe(INJECTED);
  // The hostile text did reach the log (as data): the check above had something to catch.
  expect(run.stdout).toContain(INJECTED);
}

describe('gateway text is data, never a workflow command (15.3)', () => {
  it('in retry notices, summary lines, warnings and the job summary', async () => {
    server = await startRecordingServer((_req, res, index) => {
      if (index === 0) return json(res, 429, { message: hostile('slow down') }, { 'retry-after': '0' });
      json(res, 200, {
        video: {
          url: `${server?.url}/v.mp4?${hostile('q')}`,
          content_type: hostile('video/mp4'),
          file_size: hostile('1'),
        },
        seed: 7,
        status: 'COMPLETED',
        request_id: hostile('req'),
      });
    });
    const run = await textToVideo({ retries: '1' });
    expectClean(run);
    expect(run.code, run.stdout).toBe(0);
    expect(server.requests).toHaveLength(2);
    expectOnlyOwnCommands(run);
    expect(annotations(run).some((a) => a.level === 'warning' && a.message.includes('file_size'))).toBe(true);
    expect(run.summary).not.toContain('<script');
  });

  it('in a failure the gateway words', async () => {
    server = await startRecordingServer((_req, res) => json(res, 400, { message: hostile('bad prompt') }));
    const run = await textToVideo();
    expect(run.code).toBe(1);
    expectOnlyOwnCommands(run);
    expect(failure(run)).toMatch(/^text-to-video failed with HTTP 400: bad prompt ::error::INJECTED/);
  });
});

describe('a key the gateway echoes back (15.3)', () => {
  it('never reaches GITHUB_OUTPUT, the step summary, the response file or the log', async () => {
    server = await startRecordingServer((_req, res) =>
      json(
        res,
        200,
        {
          video: { url: `${server?.url}/v.mp4?key=${SENTINEL_KEY}`, content_type: 'video/mp4', file_size: 10 },
          seed: 7,
          status: 'COMPLETED',
          [`echo-${SENTINEL_KEY}`]: `you sent ${SENTINEL_KEY}`,
        },
        // No request_id in the body: the request id comes from this header.
        { 'x-request-id': `req-${SENTINEL_KEY}` },
      ),
    );
    const run = await textToVideo();
    expectClean(run);
    expect(run.code, run.stdout).toBe(0);
    const outputFile = await readFile(`${run.runnerTemp}/github_output`, 'utf8');
    const responseFile = await readFile(run.outputs['response-file'] as string, 'utf8');
    for (const text of [outputFile, run.summary, responseFile]) expect(text).not.toContain(SENTINEL_KEY);
    expect(run.outputs['request-id']).toBe('req-[redacted]');
    expect(run.outputs['video-url']).toBe(`${server.url}/v.mp4?key=[redacted]`);
    expect(JSON.parse(responseFile)['echo-[redacted]']).toBe('you sent [redacted]');
  });
});

describe('tolerant answers (14)', () => {
  it('an answer without the useful part fails, saying a task may exist and quoting the id seen', async () => {
    server = await startRecordingServer((_req, res) =>
      json(res, 200, { status: 200, result: 1, data: { task: { state: 'queued' } }, request_id: 'req-778899' }),
    );
    const ws = await workspaceWith({ 'a.png': png(4, [9, 9, 9]) });
    const run = await runAction(
      { operation: 'image-to-video', 'base-url': server.url, 'api-key': SENTINEL_KEY, image: 'a.png' },
      ws,
    );
    expectClean(run);
    expect(run.code).toBe(1);
    expect(server.requests).toHaveLength(1);
    expect(failure(run)).toContain('data.task.id is missing');
    expect(failure(run)).toContain('A task may exist anyway (the answer names "req-778899")');
    expect(run.summary).toContain('req-778899');
    expect(run.outputs).toEqual({});
  });
});

describe('Retry-After (15.4)', () => {
  it('a negative Retry-After is no valid one: the usual backoff, then success', async () => {
    server = await startRecordingServer((_req, res, index) => {
      if (index === 0) return json(res, 429, { message: 'busy' }, { 'retry-after': '-5' });
      json(res, 200, {
        video: { url: 'http://cdn.test/v.mp4', content_type: 'video/mp4', file_size: 1 },
        seed: 1,
        status: 'COMPLETED',
        request_id: 'r',
      });
    });
    const run = await textToVideo({ retries: '1' });
    expect(run.code, run.stdout).toBe(0);
    expect(server.requests).toHaveLength(2);
    const delay = Number(/^mediagw: retry 1 in (\d+) ms/m.exec(run.stdout)?.[1]);
    // The first backoff step: 500 ms less up to a quarter of jitter; never "at once".
    expect(delay).toBeGreaterThanOrEqual(375);
    expect(delay).toBeLessThanOrEqual(500);
    expect(server.requests[1]?.url).toBe(server.requests[0]?.url);
  });
});
