/** The entry in-process: dispatch, help, exit-code mapping, what is printed and how, the emulator command. */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AuthenticationError,
  blend,
  ConnectionError,
  DownloadError,
  InvalidResponseError,
  RefusedError,
  TimeoutError,
  textToVideo,
  ValidationError,
} from '@mediagw/core';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../src/args.js';
import { allOptions } from '../src/command.js';
import { flagOf } from '../src/errors.js';
import { EXIT, EXIT_MEANINGS, exitCodeFor } from '../src/exit-codes.js';
import { commandsFor, invocation, main } from '../src/main.js';
import { Output } from '../src/output.js';
import { capture } from './helpers.js';

const KEY = 'sk-SENTINEL-unit-7f3a';

describe('exit codes', () => {
  it('map each error family to its code', () => {
    expect(exitCodeFor(new UsageError('x'))).toBe(EXIT.usage);
    expect(exitCodeFor(new ValidationError([{ field: 'prompt', message: 'is empty' }]))).toBe(EXIT.usage);
    expect(exitCodeFor(new AuthenticationError({ status: 401 }))).toBe(EXIT.gateway);
    expect(exitCodeFor(new RefusedError({ status: 200 }))).toBe(EXIT.gateway);
    expect(exitCodeFor(new InvalidResponseError({ status: 200, problems: ['not JSON'] }))).toBe(EXIT.gateway);
    expect(exitCodeFor(new ConnectionError('refused', { sent: false }))).toBe(EXIT.noAnswer);
    expect(exitCodeFor(new ConnectionError('broke', { sent: true }))).toBe(EXIT.noAnswer);
    expect(exitCodeFor(new TimeoutError({ phase: 'total', timeoutMs: 1 }))).toBe(EXIT.noAnswer);
    expect(exitCodeFor(new DownloadError({ url: 'http://x/v.mp4', reason: 'HTTP 404' }))).toBe(EXIT.notSaved);
    expect(exitCodeFor(new TypeError('bug'))).toBe(EXIT.internal);
  });

  it('are each explained once in the help table', () => {
    expect(EXIT_MEANINGS.map(([code]) => code).sort()).toEqual(Object.values(EXIT).sort());
  });
});

describe('messages', () => {
  it('name fields as flags', () => {
    expect(flagOf('num_inference_steps', textToVideo)).toBe('--num-inference-steps');
    expect(flagOf('notifyHook', blend)).toBe('--notify-hook');
    expect(flagOf('base64Array[1]', blend)).toBe('--image #2');
    expect(flagOf('--output')).toBe('--output');
    expect(flagOf('MEDIAGW_API_KEY')).toBe('MEDIAGW_API_KEY');
    expect(flagOf('routes.videoVendor')).toBe('--video-vendor');
  });

  it('scrub the key from everything printed, stack traces included', () => {
    const c = capture();
    const out = new Output(c.io, [KEY]);
    out.out(`echo ${KEY}`);
    const code = out.fail(new Error(`gateway echoed ${KEY}`), { debug: true });
    expect(code).toBe(EXIT.internal);
    expect(c.text()).not.toContain(KEY);
    expect(c.text()).toContain('[redacted]');
  });

  it('print no escape or control character but their own line breaks; JSON keeps the data, escaped', () => {
    const c = capture();
    const out = new Output(c.io);
    const hostile = 'id\u001b[31mred\r\nforged\u0007\u009b2J\u2028\u202e';
    out.out(`one ${hostile}`, 'two');
    out.err(hostile);
    out.json({ id: hostile });
    const printed = c.text();
    const controls = [...printed].filter(
      (ch) => ch !== '\n' && (ch.charCodeAt(0) < 0x20 || /[\u007f-\u009f\u2028\u2029\u202a-\u202e]/.test(ch)),
    );
    expect(controls).toEqual([]);
    expect(c.stdout[0]!.split('\n')).toEqual(['one idred forged ', 'two', '']);
    expect(JSON.parse(c.stdout[1]!).id).toBe(hostile);
  });

  it('print a validation error as flags plus a hint, in two lines, no stack', () => {
    const c = capture();
    new Output(c.io, [], 'npm run -s mediagw --').fail(
      new ValidationError([{ field: 'guidance_scale', message: '11 is not allowed' }]),
      { command: 'text-to-video', callsGateway: true, op: textToVideo },
    );
    expect(c.stderr.join('')).toBe(
      'mediagw: --guidance-scale: 11 is not allowed\nhint: Nothing was sent. See: npm run -s mediagw -- text-to-video --help\n',
    );
  });

  it('with --json, print one error object on stdout as well', () => {
    const c = capture();
    const error = new InvalidResponseError({ status: 200, problems: ['x'], possibleTaskIds: ['77'] });
    expect(new Output(c.io).fail(error, { json: true })).toBe(EXIT.gateway);
    expect(JSON.parse(c.stdout.join(''))).toEqual({
      error: expect.objectContaining({
        kind: 'invalid-response',
        exitCode: 3,
        possibleTaskIds: ['77'],
        hint: expect.stringContaining('"77"'),
      }),
    });
  });

  it('say --api-key and MEDIAGW_API_KEY where the core says "the API key"', () => {
    const c = capture();
    new Output(c.io).fail(new AuthenticationError({ status: 401, operation: 'blend' }), { op: blend });
    expect(c.stderr.join('').split('\n')[1]).toBe(
      'hint: Check the API key (--api-key or MEDIAGW_API_KEY) and the secret header name (--secret-header or MEDIAGW_SECRET_HEADER).',
    );
  });
});

describe('invocation', () => {
  it('is the npm script inside this repository, else mediagw', async () => {
    expect(invocation({})).toBe('mediagw');
    expect(invocation({ npm_lifecycle_event: 'mediagw' })).toBe('npm run -s mediagw --');
    const dir = await mkdtemp(join(tmpdir(), 'mediagw-unit-'));
    await writeFile(join(dir, 'a.json'), JSON.stringify({ scripts: { demo: 'x', mediagw: 'y' } }));
    await writeFile(join(dir, 'b.json'), JSON.stringify({ scripts: { build: 'mediagw demo' } }));
    expect(invocation({ npm_lifecycle_event: 'demo', npm_package_json: join(dir, 'a.json') })).toBe(
      'npm run -s mediagw --',
    );
    expect(invocation({ npm_lifecycle_event: 'build', npm_package_json: join(dir, 'b.json') })).toBe('mediagw');
  });
});

describe('main', () => {
  it('prints the command list and every exit code for --help, the usage on stderr with no command', async () => {
    const help = capture();
    expect(await main(['--help'], help.io)).toBe(EXIT.ok);
    for (const command of commandsFor()) expect(help.stdout.join('')).toContain(command.name);
    for (const code of Object.values(EXIT)) expect(help.stdout.join('')).toMatch(new RegExp(`^  ${code}  \\S`, 'm'));
    const none = capture();
    expect(await main([], none.io)).toBe(EXIT.usage);
    expect(none.stdout).toEqual([]);
    expect(none.stderr.join('')).toContain('Usage: mediagw <command>');
  });

  it.each(
    commandsFor().map((c) => [c.name, c] as const),
  )('%s --help lists every flag it parses', async (name, command) => {
    const c = capture();
    expect(await main([name, '--help'], c.io)).toBe(EXIT.ok);
    for (const flag of Object.keys(allOptions(command))) expect(c.stdout.join('')).toContain(`--${flag}`);
    expect(c.stdout.join('')).toContain('-h, --help');
  });

  it('refuses a missing base URL or key before sending, naming the variable', async () => {
    const noUrl = capture();
    expect(await main(['text-to-video', '--prompt', 'p'], noUrl.io)).toBe(EXIT.usage);
    expect(noUrl.stderr.join('')).toContain('MEDIAGW_BASE_URL');
    const noKey = capture({ MEDIAGW_BASE_URL: 'http://127.0.0.1:9' });
    expect(await main(['text-to-video', '--prompt', 'p'], noKey.io)).toBe(EXIT.usage);
    expect(noKey.stderr.join('')).toContain('MEDIAGW_API_KEY');
  });

  it('never echoes a key given on the command line, even in a parse error', async () => {
    const c = capture();
    expect(await main(['blend', '--api-key', KEY, KEY], c.io)).toBe(EXIT.usage);
    expect(c.text()).not.toContain(KEY);
  });

  it('runs the emulator until told to stop, printing its URL on stdout', async () => {
    const { promise: stop, resolve } = Promise.withResolvers<string>();
    const c = capture({}, () => stop);
    const running = main(['emulator', '--port', '0', '--api-key', KEY], c.io);
    await expect.poll(() => c.stdout.length).toBe(1);
    const url = c.stdout[0]!.trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const answer = await fetch(`${url}/service_prefix/submit/text_video_model`, { method: 'POST' });
    expect(answer.status).toBe(401);
    resolve('SIGTERM');
    expect(await running).toBe(EXIT.ok);
    expect(c.stderr.join('')).toContain('stopped (SIGTERM)');
    expect(c.text()).not.toContain(KEY);
  });

  it('refuses a bad --fault spec with the emulator parser message, and a port out of range', async () => {
    const c = capture();
    expect(await main(['emulator', '--fault', 'explode'], c.io)).toBe(EXIT.usage);
    expect(c.stderr.join('')).toMatch(/--fault: .*unknown key "explode"/);
    const port = capture();
    expect(await main(['emulator', '--port', '70000'], port.io)).toBe(EXIT.usage);
    expect(port.stderr.join('')).toContain('--port: 70000 is not allowed; allowed: an integer from 0 to 65535');
  });
});
