/**
 * The built `mediagw` as a subprocess against real emulators on loopback: every command, every
 * exit code, the --json shape, configuration by environment, a notifyHook delivery, --output, help,
 * and no key in anything printed.
 */
import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  blendOptionsSchema,
  DEFAULT_ROUTES,
  imageToVideo,
  imageToVideoFieldsSchema,
  textToVideoRequestSchema,
} from '@mediagw/core';
import { type Emulator, startEmulator } from '@mediagw/emulator';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allOutput, assertBuilt, hookServer, runCli, SENTINEL, sampleFiles, startCli } from './helpers/cli.js';

const PROMPT = 'a red kite over green hills on a windy afternoon, slow pan';
const BIG_SEED = '196619188014358660123'; // beyond 2^53: every digit must survive

let emu: Emulator; // answers successfully; key pinned to the sentinel
let quiet: Emulator; // receives nothing: every test against it must fail before sending
let files: Awaited<ReturnType<typeof sampleFiles>>;
const env = () => ({ MEDIAGW_BASE_URL: emu.url, MEDIAGW_API_KEY: SENTINEL });
const quietEnv = () => ({ MEDIAGW_BASE_URL: quiet.url, MEDIAGW_API_KEY: SENTINEL });
const kebab = (schema: { shape: object }) =>
  Object.keys(schema.shape).map(
    (k) =>
      `--${k
        .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
        .replace(/_/g, '-')
        .toLowerCase()}`,
  );

beforeAll(async () => {
  assertBuilt();
  [emu, quiet, files] = await Promise.all([
    startEmulator({ port: 0, apiKey: SENTINEL, forbiddenKeys: ['sk-revoked-key'] }),
    startEmulator({ port: 0, apiKey: SENTINEL }),
    sampleFiles(),
  ]);
});

afterAll(async () => {
  await Promise.all([emu?.close(), quiet?.close()]);
  // Nothing any run printed may carry the key.
  expect(allOutput()).not.toContain(SENTINEL);
});

it('runs on Node 24 or later', () => {
  expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
});

describe.concurrent('help and usage', () => {
  it('mediagw --help lists every command; --version prints the version', async () => {
    const [help, version] = await Promise.all([runCli(['--help']), runCli(['--version'])]);
    expect(help.code).toBe(0);
    for (const name of ['image-to-video', 'text-to-video', 'blend', 'emulator', 'demo']) {
      expect(help.stdout).toContain(name);
    }
    const pkg = JSON.parse(await readFile(new URL('../packages/cli/package.json', import.meta.url), 'utf8'));
    expect(version).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
  });

  it.each([
    ['image-to-video', kebab(imageToVideoFieldsSchema)],
    ['text-to-video', kebab(textToVideoRequestSchema)],
    ['blend', kebab(blendOptionsSchema)],
  ])('mediagw %s --help shows a flag for every wire field', async (command, flags) => {
    const run = await runCli([command, '--help']);
    expect(run.code).toBe(0);
    for (const flag of [...flags, '--image', '--base-url', '--api-key', '--json', '--timeout', '--retries']) {
      expect(run.stdout).toContain(flag);
    }
  });

  it('mediagw emulator --help and demo --help', async () => {
    const [emulator, demo] = await Promise.all([runCli(['emulator', '--help']), runCli(['demo', '-h'])]);
    expect(emulator.code).toBe(0);
    expect(emulator.stdout).toContain('--port');
    expect(demo.code).toBe(0);
    expect(demo.stdout).toContain('--out');
  });

  it('no command, an unknown command or an unknown flag: exit 2 with a plain message', async () => {
    const [none, unknown, typo] = await Promise.all([
      runCli([]),
      runCli(['text-2-video']),
      runCli(['text-to-video', '--promt', PROMPT], quietEnv()),
    ]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage: mediagw <command>');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "text-2-video"');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('unknown option --promt (did you mean --prompt?)');
  });
});

describe.concurrent('operations', () => {
  it('image-to-video --json: one object with operation, taskId, status, response', async () => {
    const run = await runCli(
      ['image-to-video', '--image', files.red, '--prompt', PROMPT, '--cfg', '0.5', '--aspect-ratio', '16:9', '--json'],
      env(),
    );
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout);
    expect(Object.keys(json)).toEqual(['operation', 'taskId', 'status', 'response']);
    expect(json).toMatchObject({ operation: 'image-to-video', status: imageToVideo.TASK_CREATED });
    expect(json.taskId).toMatch(/^\d+$/);
    expect(json.response.data.task.id).toBe(json.taskId);
    const echoed = Object.fromEntries(
      json.response.data.task.taskInfo.arguments.map((a: { name: string; value: string }) => [a.name, a.value]),
    );
    expect(echoed).toMatchObject({ prompt: PROMPT, cfg: '0.5', aspect_ratio: '16:9' });
  });

  it('image-to-video without --json: a short summary', async () => {
    const run = await runCli(['image-to-video', '--image', files.blue], env());
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^image-to-video: task \d+ created \(status 5\)\n/);
  });

  it('text-to-video --json --output: the exact seed, and a real MP4 of the announced size', async () => {
    const output = join(files.dir, 'out', 'clip.mp4');
    const run = await runCli(
      [
        'text-to-video',
        '--prompt',
        PROMPT,
        '--num-inference-steps',
        '20',
        '--guidance-scale',
        '6.5',
        '--seed',
        BIG_SEED,
        '--output',
        output,
        '--json',
      ],
      env(),
    );
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout);
    expect(json).toMatchObject({
      operation: 'text-to-video',
      status: 'COMPLETED',
      contentType: 'video/mp4',
      seed: BIG_SEED,
      output: { path: output },
    });
    expect(Object.keys(json)).toEqual([
      'operation',
      'status',
      'videoUrl',
      'contentType',
      'fileSize',
      'seed',
      'requestId',
      'response',
      'output',
    ]);
    expect(json.videoUrl.startsWith(`${emu.url}/files/`)).toBe(true);
    expect(typeof json.requestId).toBe('string');
    const video = await readFile(output);
    expect(video.length).toBe(json.fileSize);
    expect(video.subarray(4, 8).toString('latin1')).toBe('ftyp');
  });

  it('text-to-video: a short prompt warns on stderr; stdout stays one JSON object', async () => {
    const run = await runCli(['text-to-video', '--prompt', 'a cat', '--json'], env());
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^mediagw: warning: prompt has 2 word\(s\)/);
    expect(JSON.parse(run.stdout).status).toBe('COMPLETED');
  });

  it('text-to-video without --json: video, seed and request id', async () => {
    const run = await runCli(['text-to-video', '--prompt', PROMPT, '--seed', '42'], env());
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^text-to-video: COMPLETED\n {2}video: http:\/\/.*\.mp4 \(video\/mp4, \d+ bytes\)\n {2}seed: 42\n/,
    );
  });

  it('blend --json with a notifyHook: the hook receives the task, with the same exact id', async ({ expect }) => {
    const hook = await hookServer();
    try {
      const run = await runCli(
        [
          'blend',
          '--image',
          files.red,
          '--image',
          files.blue,
          '--notify-hook',
          hook.url,
          '--state',
          'e2e-42',
          '--json',
        ],
        env(),
      );
      expect(run.code).toBe(0);
      const json = JSON.parse(run.stdout);
      expect(Object.keys(json)).toEqual(['operation', 'taskId', 'status', 'response']);
      expect(json).toMatchObject({ operation: 'blend', status: 1 });
      expect(json.taskId).toMatch(/^\d{17,}$/);
      await expect.poll(() => hook.bodies.length, { timeout: 10_000 }).toBeGreaterThan(0);
      expect(hook.bodies[0]).toMatchObject({ id: json.taskId, state: 'e2e-42' });
    } finally {
      await hook.close();
    }
  });

  it('blend with one image: accepted, with a warning', async () => {
    const run = await runCli(['blend', '--image', files.red], env());
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('warning: blend got one image');
    expect(run.stdout).toMatch(/^blend: accepted \(code 1\), task \d+/);
  });
});

describe.concurrent('configuration', () => {
  it('every route setting from MEDIAGW_* variables, and the same as flags', async () => {
    const routes = {
      videoVendor: 'acme',
      servicePrefix: 'svc/v2',
      textVideoModel: 'model-x',
      imageRelaxPrefix: 'relax',
      secretHeader: 'x-acme-api-secret',
    };
    const custom = await startEmulator({ port: 0, apiKey: SENTINEL, routes });
    try {
      const byEnv = {
        MEDIAGW_BASE_URL: custom.url,
        MEDIAGW_API_KEY: SENTINEL,
        MEDIAGW_VIDEO_VENDOR: routes.videoVendor,
        MEDIAGW_SERVICE_PREFIX: routes.servicePrefix,
        MEDIAGW_TEXT_VIDEO_MODEL: routes.textVideoModel,
        MEDIAGW_IMAGE_RELAX_PREFIX: routes.imageRelaxPrefix,
        MEDIAGW_SECRET_HEADER: routes.secretHeader,
      };
      const byFlags = [
        '--base-url',
        custom.url,
        '--api-key',
        SENTINEL,
        '--video-vendor',
        routes.videoVendor,
        '--service-prefix',
        routes.servicePrefix,
        '--text-video-model',
        routes.textVideoModel,
        '--image-relax-prefix',
        routes.imageRelaxPrefix,
        '--secret-header',
        routes.secretHeader,
      ];
      const runs = await Promise.all([
        runCli(['image-to-video', '--image', files.red], byEnv),
        runCli(['text-to-video', '--prompt', PROMPT], byEnv),
        runCli(['blend', '--image', files.red, '--image', files.blue], byEnv),
        runCli(['image-to-video', '--image', files.red, ...byFlags]),
        runCli(['text-to-video', '--prompt', PROMPT, ...byFlags]),
        runCli(['blend', '--image', files.red, '--image', files.blue, ...byFlags]),
      ]);
      for (const run of runs) expect(run, run.stderr).toMatchObject({ code: 0 });
      expect(custom.count('image-to-video')).toBe(2);
      expect(custom.count('text-to-video')).toBe(2);
      expect(custom.count('blend')).toBe(2);
      // Default routes are 404 on this emulator: the settings really were applied.
      expect(routes.videoVendor).not.toBe(DEFAULT_ROUTES.videoVendor);
    } finally {
      await custom.close();
    }
  });

  it('--model sets the model segment for one call', async () => {
    const run = await runCli(['text-to-video', '--prompt', PROMPT, '--model', 'model-e2e'], env());
    expect(run.code).toBe(0);
    expect(emu.requests.some((r) => r.path.endsWith('/submit/model-e2e'))).toBe(true);
  });

  it('a flag wins over its variable; a bad variable is named in the error', async () => {
    const [flagWins, badVar] = await Promise.all([
      runCli(['text-to-video', '--prompt', PROMPT, '--base-url', emu.url], {
        ...env(),
        MEDIAGW_BASE_URL: 'http://127.0.0.1:9',
      }),
      runCli(['text-to-video', '--prompt', PROMPT], { ...quietEnv(), MEDIAGW_RETRIES: 'many' }),
    ]);
    expect(flagWins.code).toBe(0);
    expect(badVar.code).toBe(2);
    expect(badVar.stderr).toContain('MEDIAGW_RETRIES: "many" is not a whole number');
  });
});

describe.concurrent('exit 2: invalid input, nothing sent', () => {
  const cases: [string, () => string[], RegExp][] = [
    [
      'a number out of range',
      () => ['text-to-video', '--prompt', PROMPT, '--num-inference-steps', '99'],
      /--num-inference-steps: 99 is not allowed; allowed: an integer from 1 to 50/,
    ],
    [
      'a number that is not one',
      () => ['text-to-video', '--prompt', PROMPT, '--guidance-scale', 'high'],
      /--guidance-scale: "high" is not a number/,
    ],
    ['a missing prompt', () => ['text-to-video'], /--prompt is required/],
    [
      'a seed that is not an integer',
      () => ['text-to-video', '--prompt', PROMPT, '--seed', '1.5'],
      /--seed: must be an integer/,
    ],
    [
      'an enum value in the wrong case',
      () => ['blend', '--image', files.red, '--dimensions', 'square'],
      /--dimensions: "square" is not allowed; allowed: PORTRAIT, SQUARE, LANDSCAPE/,
    ],
    [
      'a notify hook that is not a URL',
      () => ['blend', '--image', files.red, '--notify-hook', 'later'],
      /--notify-hook: "later" is not an absolute http\(s\) URL/,
    ],
    [
      'a bad aspect ratio',
      () => ['image-to-video', '--image', files.red, '--aspect-ratio', 'wide'],
      /--aspect-ratio: "wide" is not allowed/,
    ],
    ['no image', () => ['image-to-video', '--prompt', PROMPT], /--image: is required/],
    [
      'two images for image-to-video',
      () => ['image-to-video', '--image', files.red, '--image', files.blue],
      /--image is given 2 times; it takes one value/,
    ],
    [
      'a file that is not an image',
      () => ['blend', '--image', files.red, '--image', files.text],
      /--image #2: is not an image/,
    ],
    [
      'a missing file',
      () => ['image-to-video', '--image', join(files.dir, 'gone.png')],
      /--image: cannot read .*gone\.png: no such file/,
    ],
    [
      '--output pointing at a folder',
      () => ['text-to-video', '--prompt', PROMPT, '--output', files.dir],
      /--output: .* is a directory/,
    ],
    [
      'a timeout that is not a number',
      () => ['text-to-video', '--prompt', PROMPT, '--timeout', 'soon'],
      /--timeout: "soon" is not a number/,
    ],
    [
      'a bad route segment',
      () => ['text-to-video', '--prompt', PROMPT, '--service-prefix', 'a b'],
      /--service-prefix: "a b" is not a path segment/,
    ],
    ['a stray argument', () => ['blend', files.red], /unexpected argument/],
  ];
  it.each(cases)('%s', async (_name, args, message) => {
    const run = await runCli(args(), quietEnv());
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trimEnd().split('\n').length).toBeLessThanOrEqual(2);
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });

  it('no base URL or no key: the error names the variable', async () => {
    const [noUrl, noKey] = await Promise.all([
      runCli(['text-to-video', '--prompt', PROMPT]),
      runCli(['text-to-video', '--prompt', PROMPT], { MEDIAGW_BASE_URL: quiet.url }),
    ]);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('MEDIAGW_BASE_URL');
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('MEDIAGW_API_KEY');
  });

  afterAll(() => {
    expect(quiet.count()).toBe(0);
  });
});

describe.concurrent('exit 3 and 4: the gateway refused, or could not be reached', () => {
  it('a wrong key: 401, exit 3, the key never printed', async () => {
    const run = await runCli(['text-to-video', '--prompt', PROMPT, '--api-key', 'sk-SENTINEL-cli-e2e-wrong'], {
      MEDIAGW_BASE_URL: emu.url,
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/^mediagw: text-to-video failed with HTTP 401.*\nhint: Check the API key/);
    expect(run.stderr).not.toContain('sk-SENTINEL-cli-e2e-wrong');
  });

  it('a forbidden key: 403, exit 3', async () => {
    const run = await runCli(['blend', '--image', files.red, '--image', files.blue], {
      MEDIAGW_BASE_URL: emu.url,
      MEDIAGW_API_KEY: 'sk-revoked-key',
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/HTTP 403/);
  });

  it('a wrong route: 404, exit 3, with the hint to check the routes', async () => {
    const run = await runCli(['image-to-video', '--image', files.red, '--video-vendor', 'nobody'], env());
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/HTTP 404.*\nhint: Check the base URL and the route settings/);
  });

  it('nothing listening: exit 4', async () => {
    const closed = await startEmulator({ port: 0 });
    const url = closed.url;
    await closed.close();
    const run = await runCli(['text-to-video', '--prompt', PROMPT, '--retries', '0'], {
      MEDIAGW_BASE_URL: url,
      MEDIAGW_API_KEY: SENTINEL,
    });
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/could not reach the gateway \(ECONNREFUSED\)/);
  });

  it('--debug adds the stack trace', async () => {
    const run = await runCli(['image-to-video', '--image', files.red, '--video-vendor', 'nope', '--debug'], env());
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/^\s+at /m);
  });
});

describe('mediagw emulator', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('prints its URL, serves the CLI, stops on %s with exit 0', async (signal) => {
    const server = await startCli(['emulator', '--port', '0', '--api-key', SENTINEL]);
    expect(server.firstLine).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const run = await runCli(['text-to-video', '--prompt', PROMPT, '--json'], {
      MEDIAGW_BASE_URL: server.firstLine,
      MEDIAGW_API_KEY: SENTINEL,
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).videoUrl.startsWith(server.firstLine)).toBe(true);
    const stopped = await server.stop(signal);
    expect(stopped.code).toBe(0);
    expect(stopped.stderr).toContain(`stopped (${signal})`);
  });

  it('a port in use: exit 2 with a plain message', async () => {
    const port = new URL(emu.url).port;
    const run = await runCli(['emulator', '--port', port]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/cannot listen on 127\.0\.0\.1:\d+ \(EADDRINUSE\)/);
  });
});

describe('mediagw demo', () => {
  it('leaves a playable MP4, a real blended PNG and the JSON answers, and prints a table', async () => {
    const out = join(files.dir, 'demo');
    await mkdir(out);
    const run = await runCli(['demo', '--out', out], {}, files.dir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/image-to-video +task \d+ created/);
    expect(run.stdout).toMatch(/text-to-video +COMPLETED/);
    expect(run.stdout).toMatch(/blend +task \d+ accepted/);

    const video = await readFile(join(out, 'video.mp4'));
    expect(video.subarray(4, 8).toString('latin1')).toBe('ftyp');
    const t2v = JSON.parse(await readFile(join(out, 'text-to-video.json'), 'utf8'));
    expect(t2v.fileSize).toBe(video.length);

    const blended = PNG.sync.read(await readFile(join(out, 'blended.png')));
    expect(blended.width).toBeGreaterThan(0);
    expect(new Set(blended.data).size).toBeGreaterThan(2); // real pixels, not one flat colour
    const blend = JSON.parse(await readFile(join(out, 'blend.json'), 'utf8'));
    const notification = JSON.parse(await readFile(join(out, 'blend-notification.json'), 'utf8'));
    expect(notification.id).toBe(blend.taskId);
    expect((await stat(join(out, 'image-to-video.json'))).size).toBeGreaterThan(0);
  });
});
