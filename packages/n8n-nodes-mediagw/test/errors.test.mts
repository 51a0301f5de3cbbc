import { createServer } from 'node:net';
import type { Fault } from '@mediagw/emulator';
import { describe, expect, it } from 'vitest';
import {
  outcomeOf,
  readWorkflow,
  useEmulator,
  type WorkflowFixture,
  withNodeSettings,
  withParameters,
} from './harness.mts';

const KEY = 'sk-SENTINEL-n8n-errors-41d2';
const WRONG_KEY = 'sk-SENTINEL-wrong-key-9b07';
const FORBIDDEN_KEY = 'sk-SENTINEL-forbidden-5e11';
const NODE = 'Media Gateway';

const setup = useEmulator(KEY, { forbiddenKeys: [FORBIDDEN_KEY] });

async function run(workflow: WorkflowFixture) {
  const result = await setup.engine.run(workflow);
  const seen = JSON.stringify(result);
  for (const key of [KEY, WRONG_KEY, FORBIDDEN_KEY]) expect(seen).not.toContain(key);
  return outcomeOf(result, NODE);
}

const textToVideo = (options: Record<string, unknown> = {}) =>
  withParameters(readWorkflow('text-to-video.json'), NODE, { download: false, options });

describe('bad parameters: NodeOperationError naming the field, nothing sent', () => {
  it.each([
    [
      'steps out of range (an expression gets past the UI bounds)',
      textToVideo({ num_inference_steps: '={{ 0 }}' }),
      /Number of Inference Steps \(num_inference_steps\): 0 is not allowed; allowed: an integer from 1 to 50/,
    ],
    [
      'guidance out of range',
      textToVideo({ guidance_scale: 10.5 }),
      /Guidance Scale \(guidance_scale\): 10.5 is not allowed; allowed: a number from 2 to 10/,
    ],
    ['an empty prompt', withParameters(textToVideo(), NODE, { prompt: '  ' }), /Prompt \(prompt\): is empty/],
    ['a seed that is not an integer', textToVideo({ seed: '12.5' }), /Seed \(seed\): must be an integer/],
    [
      'an aspect ratio of the wrong form',
      withParameters(readWorkflow('image-to-video.json'), NODE, { options: { aspect_ratio: 'wide' } }),
      /Aspect Ratio \(aspect_ratio\): "wide" is not allowed/,
    ],
    [
      'a notify hook that is not a URL',
      withParameters(readWorkflow('blend.json'), NODE, { options: { notifyHook: 'my-server/hook' } }),
      /Notify Hook \(notifyHook\): "my-server\/hook" is not allowed; allowed: an absolute http\(s\) URL/,
    ],
    [
      'a binary property the item lacks',
      withParameters(readWorkflow('blend.json'), NODE, { binaryPropertyNames: 'first, third' }),
      /third/,
    ],
    [
      'a file that is not an image',
      withParameters(readWorkflow('image-to-video.json'), 'Images', { items: [{ binary: { data: 'notes.txt' } }] }),
      /Input Binary Field \(input_image\): is not an image/,
    ],
    [
      'a model that is not a path segment',
      textToVideo({ model: 'a model?' }),
      /Model \(model\): "a model\?" is not allowed; allowed: a path segment/,
    ],
  ])('%s', async (_, workflow, message) => {
    const { items, error } = await run(workflow);
    expect(items).toEqual([]);
    expect(error?.name).toBe('NodeOperationError');
    expect(error?.message).toMatch(message);
    expect(setup.emu.count()).toBe(0);
  });

  it('a credential base URL that is not a URL', async () => {
    setup.engine.credentials.set('gw', { baseUrl: 'gateway.example.com', apiKey: KEY });
    const { error } = await run(textToVideo());
    expect(error?.name).toBe('NodeOperationError');
    expect(error?.message).toMatch(/Base URL \(credential\) \(baseUrl\): "gateway.example.com" is not an absolute URL/);
  });
});

interface GatewayCase {
  what: string;
  fault?: Fault;
  key?: string;
  status: string;
  message: RegExp;
}

const gatewayCases: GatewayCase[] = [
  { what: 'a wrong key', key: WRONG_KEY, status: '401', message: /HTTP 401.*the API key is not valid/ },
  { what: 'a forbidden key', key: FORBIDDEN_KEY, status: '403', message: /HTTP 403.*may not use this operation/ },
  { what: 'a server error', fault: { status: 500 }, status: '500', message: /HTTP 500/ },
  { what: 'an HTML 502 page', fault: { status: 502 }, status: '502', message: /HTTP 502/ },
  { what: 'a refusal inside HTTP 200', fault: { envelopeFailure: true }, status: '200', message: /HTTP 200/ },
  { what: 'a body cut short', fault: { truncate: true }, status: '200', message: /broke after the request was sent/ },
];

describe('gateway failures: NodeApiError with status and gateway message', () => {
  it.each(gatewayCases)('$what stops the run', async ({ fault, key, status, message }) => {
    setup.emu.setFault(fault);
    if (key) setup.engine.credentials.set('gw', { baseUrl: setup.emu.url, apiKey: key });
    const { items, error } = await run(readWorkflow('image-to-video.json'));
    expect(items).toEqual([]);
    expect(error?.name).toBe('NodeApiError');
    expect(error?.message).toMatch(message);
    if (!fault?.truncate) expect(error?.httpCode).toBe(status);
  });

  it.each(gatewayCases)('$what becomes an error item with continue on fail', async ({ fault, key, message }) => {
    setup.emu.setFault(fault && { ...fault, times: 1 });
    if (key) setup.engine.credentials.set('gw', { baseUrl: setup.emu.url, apiKey: key });
    const images = [{ binary: { data: 'red.png' } }, { binary: { data: 'green.jpg' } }];
    let workflow = withParameters(readWorkflow('image-to-video.json'), 'Images', { items: images });
    workflow = withParameters(workflow, NODE, { options: { concurrency: 1 } });
    workflow = withNodeSettings(workflow, NODE, { onError: 'continueRegularOutput' });
    const { items, error } = await run(workflow);
    expect(error).toBeUndefined();
    expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
    expect(items[0]?.json.error).toMatch(message);
    if (key) expect(items[1]?.json.error).toMatch(message);
    else expect(items[1]?.json.taskId).toBeTypeOf('string');
  });

  it('the gateway message reaches the error description', async () => {
    setup.engine.credentials.set('gw', { baseUrl: setup.emu.url, apiKey: WRONG_KEY });
    const { error } = await run(readWorkflow('blend.json'));
    expect(error?.description).toMatch(/Gateway said: the API key is not valid/);
    expect(error?.description).toMatch(/Check the API key/);
  });

  it('a wrong route is a 404 naming the route settings', async () => {
    setup.engine.credentials.set('gw', {
      baseUrl: setup.emu.url,
      apiKey: KEY,
      customizeRoutes: true,
      servicePrefix: 'nope',
    });
    const { error } = await run(textToVideo());
    expect(error?.httpCode).toBe('404');
    expect(error?.description).toMatch(/route settings/);
  });

  it('an unreachable gateway names the host, not the request', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    setup.engine.credentials.set('gw', { baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY });
    const { error } = await run(textToVideo());
    expect(error?.name).toBe('NodeApiError');
    expect(error?.message).toMatch(/refused the connection/);
    expect(error?.description).toMatch(
      new RegExp(`could not reach the gateway at 127.0.0.1:${port} \\(ECONNREFUSED\\)`),
    );
  });
});

describe('429', () => {
  it('is retried after the wait the gateway asks for, then succeeds', async () => {
    setup.emu.setFault({ status: 429, retryAfter: '0', times: 1 });
    const { items, error } = await run(readWorkflow('blend.json'));
    expect(error).toBeUndefined();
    expect(items[0]?.json.taskId).toMatch(/^\d+$/);
    expect(setup.emu.requests.map((r) => r.status)).toEqual([429, 200]);
  });

  it('gives up after the configured retries with the 429 error', async () => {
    setup.emu.setFault({ status: 429, retryAfter: '0' });
    const workflow = withParameters(readWorkflow('blend.json'), NODE, { options: { retries: 1 } });
    const { error } = await run(workflow);
    expect(error?.httpCode).toBe('429');
    expect(error?.description).toMatch(/rate limiting/);
    expect(setup.emu.count()).toBe(2);
  });

  it('is not retried on other failures (the task may exist)', async () => {
    setup.emu.setFault({ status: 500, times: 1 });
    const { error } = await run(textToVideo());
    expect(error?.httpCode).toBe('500');
    expect(setup.emu.count()).toBe(1);
  });
});
