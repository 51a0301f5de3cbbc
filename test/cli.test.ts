/**
 * The built `mediagw` as a subprocess against real emulators on loopback: every command, every
 * exit code, the --json shape, configuration by environment, a notifyHook delivery, --output and
 * what it refuses before sending, help, the npm script of the repository, and no key in anything printed.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { imageToVideo, kebabCase, OPERATIONS, TASK_CREATED, textToVideo } from '@mediagw/core';
import { type Emulator, startEmulator } from '@mediagw/emulator';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allOutput,
  assertBuilt,
  hookServer,
  REPO,
  runCli,
  runNpm,
  SENTINEL,
  sampleFiles,
  startCli,
  startNpm,
} from './helpers/cli.js';

const PROMPT = 'a red kite over green hills on a windy afternoon, slow pan';
const BIG_SEED = '196619188014358660123'; // beyond 2^53: every digit must survive

let emu: Emulator; // answers successfully; key pinned to the sentinel
let quiet: Emulator; // receives nothing: every test against it must fail before sending
let files: Awaited<ReturnType<typeof sampleFiles>>;
const env = () => ({ MEDIAGW_BASE_URL: emu.url, MEDIAGW_API_KEY: SENTINEL });
const quietEnv = () => ({ MEDIAGW_BASE_URL: quiet.url, MEDIAGW_API_KEY: SENTINEL });
/** The --json keys of an operation: fixed, from its descriptor. */
const jsonKeys = (op: (typeof OPERATIONS)[number], output = false) => [
  'operation',
  ...op.outputs.map((o) => o.name),
  'warnings',
  'response',
  ...(output ? ['output'] : []),
];

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
  it('mediagw --help lists every command and every exit code; --version prints the version', async () => {
    const [help, version] = await Promise.all([runCli(['--help']), runCli(['--version'])]);
    expect(help.code).toBe(0);
    for (const name of [...OPERATIONS.map((op) => op.name), 'emulator', 'demo']) expect(help.stdout).toContain(name);
    for (const code of [0, 1, 2, 3, 4, 5]) expect(help.stdout).toMatch(new RegExp(`^  ${code}  \\S`, 'm'));
    const pkg = JSON.parse(await readFile(new URL('../packages/cli/package.json', import.meta.url), 'utf8'));
    expect(version).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
  });

  it.each(
    OPERATIONS.map((op) => [op.name, op] as const),
  )('mediagw %s --help: a flag per field, in the core words', async (name, op) => {
    const run = await runCli([name, '--help']);
    expect(run.code).toBe(0);
    const flags = Object.keys(op.fields).map((f) => `--${kebabCase(f)}`);
    for (const flag of [
      ...flags,
      '--base-url',
      '--api-key',
      '--json',
      '--timeout',
      '--retries',
      '--debug',
      '-h, --help',
    ]) {
      expect(run.stdout).toContain(flag);
    }
    expect(run.stdout.includes('--image')).toBe(op.images !== undefined);
    expect(run.stdout.includes('--output')).toBe(op.file !== undefined);
    // The rules are the core's words, never an error text got by feeding the schema a wrong value.
    expect(run.stdout).not.toMatch(/got null|NaN|undefined|\[object/);
  });

  it('mediagw emulator --help and demo -h document --debug and -h', async () => {
    const [emulator, demo] = await Promise.all([runCli(['emulator', '--help']), runCli(['demo', '-h'])]);
    expect(emulator.code).toBe(0);
    for (const flag of ['--port', '--public-url', '--notify-progress', '--fault', '--debug', '-h, --help']) {
      expect(emulator.stdout).toContain(flag);
    }
    expect(emulator.stdout).toContain('sparse');
    expect(demo.code).toBe(0);
    for (const flag of ['--out', '--debug', '-h, --help']) expect(demo.stdout).toContain(flag);
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
  it('image-to-video --json: operation, its outputs, warnings, response', async () => {
    const run = await runCli(
      ['image-to-video', '--image', files.red, '--prompt', PROMPT, '--cfg', '0.5', '--aspect-ratio', '16:9', '--json'],
      env(),
    );
    expect(run.code, run.stderr).toBe(0);
    const json = JSON.parse(run.stdout);
    expect(Object.keys(json)).toEqual(jsonKeys(imageToVideo));
    expect(json).toMatchObject({ operation: 'image-to-video', status: TASK_CREATED, warnings: [] });
    expect(json.taskId).toMatch(/^\d+$/);
    expect(json.response.data.task.id).toBe(json.taskId);
    const echoed = Object.fromEntries(
      json.response.data.task.taskInfo.arguments.map((a: { name: string; value: string }) => [a.name, a.value]),
    );
    expect(echoed).toMatchObject({ prompt: PROMPT, cfg: '0.5', aspect_ratio: '16:9' });
  });

  it('image-to-video without --json: the summary of the core', async () => {
    const run = await runCli(['image-to-video', '--image', files.blue], env());
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^image-to-video: task \d+ created \(status 5\)\n {2}quota: /);
  });

  it('text-to-video --json --output: the exact seed, and a real MP4 of the announced size', async () => {
    const output = join(files.dir, 'out', 'clip.mp4');
    const run = await runCli(
      ['text-to-video', '--prompt', PROMPT, '--num-inference-steps', '20', '--guidance-scale', '6.5'].concat([
        '--seed',
        BIG_SEED,
        '--output',
        output,
        '--json',
      ]),
      env(),
    );
    expect(run.code, run.stderr).toBe(0);
    const json = JSON.parse(run.stdout);
    expect(Object.keys(json)).toEqual(jsonKeys(textToVideo, true));
    expect(json).toMatchObject({
      operation: 'text-to-video',
      status: 'COMPLETED',
      videoContentType: 'video/mp4',
      seed: BIG_SEED,
      output: { path: output },
    });
    expect(json.videoUrl.startsWith(`${emu.url}/files/`)).toBe(true);
    const video = await readFile(output);
    expect(video.length).toBe(json.videoFileSize);
    expect(json.output.bytes).toBe(video.length);
    expect(video.subarray(4, 8).toString('latin1')).toBe('ftyp');
  });

  it('--seed -1 and other negative numbers are values, not flags', async () => {
    const run = await runCli(['text-to-video', '--prompt', PROMPT, '--seed', '-1', '--json'], env());
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).seed).toBe('-1');
  });

  it('text-to-video: a short prompt warns on stderr and in --json; stdout stays one JSON object', async () => {
    const run = await runCli(['text-to-video', '--prompt', 'a cat', '--json'], env());
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^mediagw: warning: prompt: 2 word\(s\)/);
    const json = JSON.parse(run.stdout);
    expect(json.warnings).toEqual([expect.stringMatching(/^prompt: 2 word\(s\)/)]);
  });

  it('text-to-video without --json: video, seed and request id', async () => {
    const run = await runCli(['text-to-video', '--prompt', PROMPT, '--seed', '42'], env());
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^text-to-video: COMPLETED\n {2}video: http:\/\/.*\.mp4 \(video\/mp4, \d+ bytes\)\n {2}seed: 42\n {2}request ID: \S+\n$/,
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
      expect(Object.keys(json)).toEqual(jsonKeys(OPERATIONS[2]));
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
    expect(run.stderr).toContain('warning: blend got 1 image(s)');
    expect(run.stdout).toMatch(/^blend: accepted \(code 1\), task \d+/);
  });
});

describe.concurrent('configuration', () => {
  it('each operation takes its route settings from MEDIAGW_* variables, and the same as flags', async () => {
    const routes = {
      videoVendor: 'acme',
      servicePrefix: 'svc/v2',
      textVideoModel: 'model-x',
      imageRelaxPrefix: 'relax',
      secretHeader: 'x-acme-api-secret',
    };
    const custom = await startEmulator({ port: 0, apiKey: SENTINEL, routes });
    try {
      const base = { MEDIAGW_BASE_URL: custom.url, MEDIAGW_API_KEY: SENTINEL };
      const byEnv = Object.fromEntries(
        Object.entries(routes).map(([k, v]) => [`MEDIAGW_${kebabCase(k).replace(/-/g, '_').toUpperCase()}`, v]),
      );
      const flags = (...keys: (keyof typeof routes)[]) => keys.flatMap((k) => [`--${kebabCase(k)}`, routes[k]]);
      const runs = await Promise.all([
        runCli(['image-to-video', '--image', files.red], { ...base, ...byEnv }),
        runCli(['text-to-video', '--prompt', PROMPT], { ...base, ...byEnv }),
        runCli(['blend', '--image', files.red, '--image', files.blue], { ...base, ...byEnv }),
        runCli(['image-to-video', '--image', files.red, ...flags('videoVendor')], base),
        runCli(['text-to-video', '--prompt', PROMPT, ...flags('servicePrefix', 'textVideoModel')], base),
        runCli(
          ['blend', '--image', files.red, '--image', files.blue, ...flags('imageRelaxPrefix', 'secretHeader')],
          base,
        ),
      ]);
      for (const run of runs) expect(run, run.stderr).toMatchObject({ code: 0 });
      expect([custom.count('image-to-video'), custom.count('text-to-video'), custom.count('blend')]).toEqual([2, 2, 2]);
    } finally {
      await custom.close();
    }
  });

  it('a route setting another operation uses is not a flag of this one', async () => {
    const run = await runCli(['text-to-video', '--prompt', PROMPT, '--video-vendor', 'acme'], quietEnv());
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown option --video-vendor');
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
    expect(badVar.stderr).toContain(
      'MEDIAGW_RETRIES: "many" is not a number in decimal notation; allowed: an integer of at least 0',
    );
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
      /--guidance-scale: "high" is not a number in decimal notation/,
    ],
    [
      'a hexadecimal number',
      () => ['image-to-video', '--image', files.red, '--cfg', '0x5'],
      /--cfg: "0x5" is not a number in decimal notation/,
    ],
    [
      'an exponent',
      () => ['text-to-video', '--prompt', PROMPT, '--num-inference-steps', '1e1'],
      /--num-inference-steps: "1e1" is not a number in decimal notation/,
    ],
    [
      'Infinity',
      () => ['text-to-video', '--prompt', PROMPT, '--guidance-scale', 'Infinity'],
      /--guidance-scale: "Infinity" is not a number in decimal notation/,
    ],
    ['a missing prompt', () => ['text-to-video'], /--prompt: is required: a non-empty text/],
    [
      'a seed that is not an integer',
      () => ['text-to-video', '--prompt', PROMPT, '--seed', '1.5'],
      /--seed: "1\.5" is not allowed; allowed: an integer/,
    ],
    [
      'a choice in the wrong case',
      () => ['blend', '--image', files.red, '--dimensions', 'square'],
      /--dimensions: "square" is not allowed; allowed: one of PORTRAIT, SQUARE, LANDSCAPE/,
    ],
    [
      'a notify hook that is not a URL',
      () => ['blend', '--image', files.red, '--notify-hook', 'later'],
      /--notify-hook: "later" is not allowed; allowed: an absolute http\(s\) URL/,
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
      'a timeout that is not a number',
      () => ['text-to-video', '--prompt', PROMPT, '--timeout', 'soon'],
      /--timeout: "soon" is not a number/,
    ],
    [
      'a timeout beyond what Node can time',
      () => ['text-to-video', '--prompt', PROMPT, '--timeout', '2147484'],
      /--timeout: 2147484 is not allowed; allowed: a number from 0\.001 to 2147483\.647/,
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
    expect(run.stderr).toMatch(/\nhint: /);
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

  it('a key with a line break: refused naming where it came from, never printed', async () => {
    const [byEnv, byFlag] = await Promise.all([
      runCli(['text-to-video', '--prompt', PROMPT], {
        MEDIAGW_BASE_URL: quiet.url,
        MEDIAGW_API_KEY: `${SENTINEL}\r\n`,
      }),
      runCli(['blend', '--image', files.red, '--api-key', `${SENTINEL}\nX-Other: 1`], { MEDIAGW_BASE_URL: quiet.url }),
    ]);
    expect(byEnv.code).toBe(2);
    expect(byEnv.stderr).toMatch(/^mediagw: MEDIAGW_API_KEY: contains a line break/);
    expect(byFlag.code).toBe(2);
    expect(byFlag.stderr).toMatch(/^mediagw: --api-key: contains a line break/);
    for (const run of [byEnv, byFlag]) expect(run.stderr).not.toContain('SENTINEL');
  });

  it('--json on failure: exactly one JSON error object on stdout, the message on stderr', async () => {
    const [bad, unknownFlag, unknownCommand] = await Promise.all([
      runCli(['image-to-video', '--image', files.red, '--cfg', '0x5', '--json'], quietEnv()),
      runCli(['blend', '--image', files.red, '--jsno', '--json'], quietEnv()),
      runCli(['blnd', '--json'], quietEnv()),
    ]);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout)).toEqual({
      error: expect.objectContaining({
        kind: 'validation',
        exitCode: 2,
        message: expect.stringMatching(/^--cfg: "0x5"/),
        hint: expect.stringContaining('Nothing was sent'),
        issues: [expect.objectContaining({ field: 'cfg', flag: '--cfg' })],
      }),
    });
    expect(bad.stdout.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/^mediagw: --cfg/);
    expect(JSON.parse(unknownFlag.stdout).error).toMatchObject({ kind: 'usage', exitCode: 2 });
    expect(JSON.parse(unknownCommand.stdout).error).toMatchObject({
      kind: 'usage',
      message: expect.stringContaining('did you mean blend?'),
    });
  });

  afterAll(() => {
    expect(quiet.count()).toBe(0);
  });
});

describe.concurrent('--output: local files are never destroyed, and nothing is sent that cannot be saved', () => {
  const t2v = (output: string, ...extra: string[]) => [
    'text-to-video',
    '--prompt',
    PROMPT,
    '--output',
    output,
    ...extra,
  ];

  it.each([
    [
      'a device',
      () => '/dev/null',
      /--output: \/dev\/null is a character device, not a regular file; it is never replaced/,
    ],
    ['a directory', () => files.dir, /--output: .* is a directory; give a file path inside it/],
    [
      'a folder that cannot be created (its parent is a file)',
      () => join(files.text, 'sub', 'clip.mp4'),
      /--output: cannot create the folder .*notes\.txt\/sub/,
    ],
  ])('%s: exit 2, nothing sent', async (_name, target, message) => {
    const run = await runCli(t2v(target()), quietEnv());
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toContain('hint: Nothing was sent.');
    expect(quiet.count()).toBe(0);
  });

  it('a FIFO: refused and left a FIFO, nothing sent', async () => {
    const fifo = join(files.dir, 'pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const run = await runCli(t2v(fifo, '--overwrite'), quietEnv());
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--output: .*pipe is a FIFO \(named pipe\)/);
    expect((await stat(fifo)).isFIFO()).toBe(true);
    expect(quiet.count()).toBe(0);
  });

  it('an existing file: refused without --overwrite (kept as it was), replaced with it', async () => {
    const existing = join(files.dir, 'keep.mp4');
    await writeFile(existing, 'precious');
    const refused = await runCli(t2v(existing, '--json'), quietEnv());
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stdout).error.message).toMatch(/--output: .*keep\.mp4 already exists; .*--overwrite/);
    expect(await readFile(existing, 'utf8')).toBe('precious');
    expect(quiet.count()).toBe(0);
    const replaced = await runCli(t2v(existing, '--overwrite'), env());
    expect(replaced.code, replaced.stderr).toBe(0);
    expect((await readFile(existing)).subarray(4, 8).toString('latin1')).toBe('ftyp');
  });
});

describe.concurrent('exit 3 and 4: the gateway refused, or no answer', () => {
  it('a wrong key: 401, exit 3, the hint names --api-key and MEDIAGW_API_KEY, the key never printed', async () => {
    const run = await runCli(['text-to-video', '--prompt', PROMPT, '--api-key', 'sk-SENTINEL-cli-e2e-wrong'], {
      MEDIAGW_BASE_URL: emu.url,
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(
      /^mediagw: text-to-video failed with HTTP 401.*\nhint: Check the API key \(--api-key or MEDIAGW_API_KEY\)\.\n$/,
    );
    expect(run.stderr).not.toContain('sk-SENTINEL-cli-e2e-wrong');
  });

  it('a forbidden key: 403, exit 3; with --json one error object', async () => {
    const run = await runCli(['blend', '--image', files.red, '--image', files.blue, '--json'], {
      MEDIAGW_BASE_URL: emu.url,
      MEDIAGW_API_KEY: 'sk-revoked-key',
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/HTTP 403/);
    expect(JSON.parse(run.stdout).error).toMatchObject({ kind: 'forbidden', status: 403, exitCode: 3 });
  });

  it("a wrong route: 404, exit 3, the hint names this operation's route flags", async () => {
    const run = await runCli(['image-to-video', '--image', files.red, '--video-vendor', 'nobody'], env());
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(
      /HTTP 404.*\nhint: Check the base URL \(--base-url or MEDIAGW_BASE_URL\) and the route settings of image-to-video \(--video-vendor\)/,
    );
  });

  it('nothing listening: exit 4, and it says nothing was sent', async () => {
    const closed = await startEmulator({ port: 0 });
    const url = closed.url;
    await closed.close();
    const run = await runCli(['text-to-video', '--prompt', PROMPT, '--retries', '0'], {
      MEDIAGW_BASE_URL: url,
      MEDIAGW_API_KEY: SENTINEL,
    });
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/could not reach the gateway at 127\.0\.0\.1:\d+ \(ECONNREFUSED\); nothing was sent/);
    expect(run.stderr).toContain('hint: Nothing was sent. Check the base URL (--base-url or MEDIAGW_BASE_URL)');
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

  it('--public-url, --notify-progress and --fault sparse reach the emulator', async ({ expect }) => {
    const server = await startCli([
      'emulator',
      '--public-url',
      'http://media.example:8787',
      '--notify-progress',
      '2',
      '--fault',
      'sparse',
    ]);
    const hook = await hookServer();
    try {
      const base = { MEDIAGW_BASE_URL: server.firstLine, MEDIAGW_API_KEY: 'any-key' };
      const [video, blended] = await Promise.all([
        runCli(['text-to-video', '--prompt', PROMPT, '--json'], base),
        runCli(['blend', '--image', files.red, '--image', files.blue, '--notify-hook', hook.url], base),
      ]);
      expect(video.code, video.stderr).toBe(0);
      expect(JSON.parse(video.stdout).videoUrl).toMatch(/^http:\/\/media\.example:8787\/files\//);
      expect(video.stderr).toMatch(/^mediagw: warning: the answer lacks /m);
      expect(blended.code, blended.stderr).toBe(0);
      await expect.poll(() => hook.bodies.length, { timeout: 10_000 }).toBe(3);
      expect(hook.bodies.map((b) => (b as { status: string }).status)).toEqual([
        'IN_PROGRESS',
        'IN_PROGRESS',
        'SUCCESS',
      ]);
    } finally {
      await hook.close();
      await server.stop('SIGTERM');
    }
  });

  it('a port in use: exit 2 with a plain message', async () => {
    const run = await runCli(['emulator', '--port', new URL(emu.url).port]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/cannot listen on 127\.0\.0\.1:\d+ \(EADDRINUSE\)/);
  });

  it('without the optional @mediagw/emulator: emulator and demo say how to get it; the operations still run', async () => {
    const hide = `data:text/javascript,${encodeURIComponent(
      `import { registerHooks } from 'node:module';
      registerHooks({ resolve(specifier, context, next) {
        if (specifier === '@mediagw/emulator') throw Object.assign(new Error("Cannot find package '@mediagw/emulator'"), { code: 'ERR_MODULE_NOT_FOUND' });
        return next(specifier, context);
      } });`,
    )}`;
    const nodeArgs = ['--import', hide];
    const [emulator, demo, call] = await Promise.all([
      runCli(['emulator'], {}, { nodeArgs }),
      runCli(['demo', '--out', join(files.dir, 'no-demo')], {}, { nodeArgs }),
      runCli(['text-to-video', '--prompt', PROMPT], env(), { nodeArgs }),
    ]);
    for (const run of [emulator, demo]) {
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(
        /needs @mediagw\/emulator, an optional dependency that is not installed\nhint: Install it beside the CLI: npm install @mediagw\/emulator/,
      );
    }
    expect(call.code, call.stderr).toBe(0);
  });
});

describe('mediagw demo', () => {
  it('leaves a playable MP4, a real blended PNG and the JSON answers, and runs again into the same folder', async () => {
    const out = join(files.dir, 'demo');
    await mkdir(out);
    const run = await runCli(['demo', '--out', out], {}, files.dir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/image-to-video +task \d+ created/);
    expect(run.stdout).toMatch(/text-to-video +COMPLETED: video\/mp4, (\d+) bytes, seed 196619188014358660/);
    expect(run.stdout).toMatch(/blend +task \d+ accepted, notifyHook called/);
    expect(run.stdout).toContain('Next: mediagw emulator --port 8787');

    const video = await readFile(join(out, 'video.mp4'));
    expect(video.subarray(4, 8).toString('latin1')).toBe('ftyp');
    const t2v = JSON.parse(await readFile(join(out, 'text-to-video.json'), 'utf8'));
    expect(t2v.videoFileSize).toBe(video.length);
    expect(t2v.output.bytes).toBe(video.length);
    expect(Number(/(\d+) bytes/.exec(run.stdout)?.[1])).toBe(video.length);

    const blended = PNG.sync.read(await readFile(join(out, 'blended.png')));
    expect(new Set(blended.data).size).toBeGreaterThan(2); // real pixels, not one flat colour
    const blend = JSON.parse(await readFile(join(out, 'blend.json'), 'utf8'));
    const notification = JSON.parse(await readFile(join(out, 'blend-notification.json'), 'utf8'));
    expect(notification.id).toBe(blend.taskId);
    const i2v = JSON.parse(await readFile(join(out, 'image-to-video.json'), 'utf8'));
    expect(Object.keys(i2v)).toEqual(jsonKeys(imageToVideo));

    const again = await runCli(['demo', '--out', out], {}, files.dir);
    expect(again.code, again.stderr).toBe(0);
  });
});

describe('npm run -s mediagw -- (the repository script)', () => {
  it("resolves relative paths from the caller's folder, and shows hints in that form", async () => {
    // A folder inside the repository that git ignores (npm finds the root's package.json from it).
    const cache = join(REPO, 'node_modules', '.cache');
    await mkdir(cache, { recursive: true });
    const here = await mkdtemp(join(cache, 'mediagw-e2e-'));
    try {
      await writeFile(join(here, 'red.png'), await readFile(files.red));
      const [saved, bad] = await Promise.all([
        runNpm(['image-to-video', '--image', 'red.png', '--json'], env(), here),
        runNpm(['text-to-video', '--prompt', PROMPT, '--output', 'out/clip.mp4', '--timeout', 'soon'], env(), here),
      ]);
      expect(saved.code, saved.stderr).toBe(0);
      expect(JSON.parse(saved.stdout).operation).toBe('image-to-video');
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('hint: Nothing was sent. See: npm run -s mediagw -- text-to-video --help');
      const video = await runNpm(['text-to-video', '--prompt', PROMPT, '--output', 'out/clip.mp4'], env(), here);
      expect(video.code, video.stderr).toBe(0);
      expect((await readFile(join(here, 'out', 'clip.mp4'))).subarray(4, 8).toString('latin1')).toBe('ftyp');
      await expect(stat(join(REPO, 'out'))).rejects.toThrow();
    } finally {
      await rm(here, { recursive: true, force: true });
    }
  });

  it('kill $! (SIGTERM to npm) stops the emulator npm started', async () => {
    const npm = await startNpm(['emulator', '--port', '0']);
    try {
      expect(npm.firstLine).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(`${npm.firstLine}/files/none`)).status).toBe(404);
      npm.kill('SIGTERM');
      // npm exits at once; its output closes only when the emulator (holding the same pipe) is gone.
      const stopped = await Promise.race([npm.exited, new Promise((done) => setTimeout(done, 5000, undefined))]);
      expect(stopped, 'the emulator outlived npm').toMatchObject({
        stderr: expect.stringContaining('mediagw emulator stopped (SIGTERM)'),
      });
      await expect(fetch(`${npm.firstLine}/files/none`)).rejects.toThrow();
    } finally {
      npm.cleanup();
    }
  });
});
