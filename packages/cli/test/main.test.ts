/** The entry in-process: dispatch, help, exit-code mapping, key scrubbing, the emulator command. */
import {
  AuthenticationError,
  ConnectionError,
  InvalidResponseError,
  RefusedError,
  TimeoutError,
  ValidationError,
} from '@mediagw/core';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../src/args.js';
import { allOptions } from '../src/command.js';
import { textToVideoCommand } from '../src/commands/text-to-video.js';
import { EXIT, exitCodeFor } from '../src/exit-codes.js';
import { COMMANDS, main } from '../src/main.js';
import { flagOf, type Io, Output } from '../src/output.js';

const KEY = 'sk-SENTINEL-unit-7f3a';

function capture(env: NodeJS.ProcessEnv = {}, untilStopped: Io['untilStopped'] = () => new Promise(() => {})) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io: Io = {
    stdout: { write: (t: string) => stdout.push(t) },
    stderr: { write: (t: string) => stderr.push(t) },
    env,
    untilStopped,
  };
  return { io, stdout, stderr, text: () => stdout.join('') + stderr.join('') };
}

describe('exit codes', () => {
  it('map each error family to its code', () => {
    expect(exitCodeFor(new UsageError('x'))).toBe(EXIT.usage);
    expect(exitCodeFor(new ValidationError([{ field: 'prompt', message: 'is empty' }]))).toBe(EXIT.usage);
    expect(exitCodeFor(new AuthenticationError({ status: 401 }))).toBe(EXIT.gateway);
    expect(exitCodeFor(new RefusedError({ status: 200 }))).toBe(EXIT.gateway);
    expect(exitCodeFor(new InvalidResponseError({ status: 200, problems: ['not JSON'] }))).toBe(EXIT.gateway);
    expect(exitCodeFor(new ConnectionError('refused', {}))).toBe(EXIT.unreachable);
    expect(exitCodeFor(new TimeoutError({ phase: 'total', timeoutMs: 1 }))).toBe(EXIT.unreachable);
    expect(exitCodeFor(new TypeError('bug'))).toBe(EXIT.internal);
  });
});

describe('messages', () => {
  it('name fields as flags', () => {
    expect(flagOf('num_inference_steps')).toBe('--num-inference-steps');
    expect(flagOf('notifyHook')).toBe('--notify-hook');
    expect(flagOf('input_image')).toBe('--image');
    expect(flagOf('base64Array[1]')).toBe('--image #2');
    expect(flagOf('base-url')).toBe('--base-url');
    expect(flagOf('routes.video-vendor')).toBe('--video-vendor');
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

  it('print a validation error as flags plus a hint, in two lines, no stack', () => {
    const c = capture();
    new Output(c.io).fail(new ValidationError([{ field: 'guidance_scale', message: '11 is not allowed' }]), {
      command: textToVideoCommand,
    });
    expect(c.stderr).toEqual([
      'mediagw: --guidance-scale: 11 is not allowed\n',
      'hint: Nothing was sent. See: mediagw text-to-video --help\n',
    ]);
  });
});

describe('main', () => {
  it('prints the command list for --help and the usage on stderr with no command', async () => {
    const help = capture();
    expect(await main(['--help'], help.io)).toBe(EXIT.ok);
    for (const command of COMMANDS) expect(help.stdout.join('')).toContain(command.name);
    const none = capture();
    expect(await main([], none.io)).toBe(EXIT.usage);
    expect(none.stdout).toEqual([]);
    expect(none.stderr.join('')).toContain('Usage: mediagw <command>');
  });

  it.each(COMMANDS.map((c) => [c.name, c] as const))('%s --help lists every flag it parses', async (name, command) => {
    const c = capture();
    expect(await main([name, '--help'], c.io)).toBe(EXIT.ok);
    for (const flag of Object.keys(allOptions(command))) expect(c.stdout.join('')).toContain(`--${flag}`);
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

  it('refuses a bad --fault spec with the emulator parser message', async () => {
    const c = capture();
    expect(await main(['emulator', '--fault', 'explode'], c.io)).toBe(EXIT.usage);
    expect(c.stderr.join('')).toMatch(/--fault: .*unknown key "explode"/);
  });
});
