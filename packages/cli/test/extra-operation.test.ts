/**
 * An operation defined outside the core (the toy `echo` of test/fixtures: one text field, one image) gets a command through
 * `main(argv, io, { operations })`: its flags, help and --json from the descriptor, and a round trip
 * against an emulator route registered the same way.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPERATIONS } from '@mediagw/core';
import { startEmulator } from '@mediagw/emulator';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { echo, echoRoute } from '../../../test/fixtures/echo.js';
import { EXIT } from '../src/exit-codes.js';
import { main } from '../src/main.js';
import { capture } from './helpers.js';

const operations = [...OPERATIONS, echo];
let emulator: Awaited<ReturnType<typeof startEmulator>>;
let image: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, operations: [echoRoute] });
  const png = new PNG({ width: 8, height: 8 });
  png.data.fill(200);
  image = join(await mkdtemp(join(tmpdir(), 'mediagw-echo-')), 'a.png');
  await writeFile(image, PNG.sync.write(png));
});
afterAll(() => emulator?.close());

const env = () => ({ MEDIAGW_BASE_URL: emulator.url, MEDIAGW_API_KEY: 'any-key' });

describe('an operation from outside the core', () => {
  it('is a command with flags from its descriptor', async () => {
    const c = capture();
    expect(await main(['--help'], c.io, { operations })).toBe(EXIT.ok);
    expect(c.stdout.join('')).toMatch(/^ {2}echo +send a text and an image back/m);
    const help = capture();
    expect(await main(['echo', '--help'], help.io, { operations })).toBe(EXIT.ok);
    const text = help.stdout.join('');
    expect(text).toContain('Usage: mediagw echo --image PATH --shout-text TEXT [options]');
    expect(text).toMatch(/--shout-text TEXT +required: the text to send back; a non-empty text/);
    expect(text).toContain('--service-prefix SEGMENT');
    expect(text).not.toContain('--output');
  });

  it('round-trips against an emulator route registered the same way', async () => {
    const c = capture(env());
    expect(await main(['echo', '--shout-text', 'hi', '--image', image, '--json'], c.io, { operations })).toBe(EXIT.ok);
    const json = JSON.parse(c.stdout.join(''));
    expect(json).toMatchObject({
      operation: 'echo',
      echoedText: 'hi',
      imageSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      warnings: [],
    });
    expect(Object.keys(json)).toEqual(['operation', 'echoedText', 'imageSha256', 'warnings', 'response']);
    expect(emulator.count('echo')).toBe(1);
    const plain = capture(env());
    expect(await main(['echo', '--shout-text', 'hi', '--image', image], plain.io, { operations })).toBe(EXIT.ok);
    expect(plain.stdout.join('')).toMatch(/^echo: hi\n$/);
  });

  it('run in-process with the process signals, leaves no listener behind', async () => {
    const before = [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
    const { io } = capture(env());
    for (let i = 0; i < 3; i++) {
      const code = await main(
        ['echo', '--shout-text', 'hi', '--image', image],
        { ...io, untilStopped: undefined },
        { operations },
      );
      expect(code).toBe(EXIT.ok);
    }
    expect([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')]).toEqual(before);
  });

  it('refuses its own field rules before sending, naming its flags', async () => {
    const before = emulator.count('echo');
    const c = capture(env());
    expect(await main(['echo', '--shout-text', ' ', '--image', image], c.io, { operations })).toBe(EXIT.usage);
    expect(c.stderr.join('')).toMatch(
      /^mediagw: --shout-text: is empty; give a non-empty text\nhint: Nothing was sent\./,
    );
    const noImage = capture(env());
    expect(await main(['echo', '--shout-text', 'hi'], noImage.io, { operations })).toBe(EXIT.usage);
    expect(noImage.stderr.join('')).toMatch(/^mediagw: --image: is required/);
    expect(emulator.count('echo')).toBe(before);
  });
});
