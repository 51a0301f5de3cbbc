/**
 * An operation defined outside the core (the toy `echo` of test/fixtures: one text field, one image) gets its inputs, its
 * outputs and its action.yml entries from the registry the action is given, and round-trips against
 * an emulator route registered the same way. `run()` runs in this process (the bundle serves the
 * core's registry only), with the environment a runner gives it.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defineOperation, field, OPERATIONS } from '@mediagw/core';
import { startEmulator } from '@mediagw/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { echo, echoRoute } from '../../../test/fixtures/echo.js';
import { renderActionYml } from '../src/action-yml.js';
import { actionInputs, actionOutputs } from '../src/contract.js';
import { run } from '../src/main.js';
import { parseOutputFile, png, SENTINEL_KEY, workspaceWith } from './helpers.js';

const operations = [...OPERATIONS, echo];

/** Runs the action in this process as a runner would set it up; returns its outputs and stdout. */
async function runInProcess(inputs: Record<string, string>, ws: string) {
  const temp = `${ws}-temp`;
  await mkdir(temp, { recursive: true });
  const env: Record<string, string> = {
    GITHUB_OUTPUT: join(temp, 'github_output'),
    GITHUB_STEP_SUMMARY: join(temp, 'step_summary'),
    GITHUB_WORKSPACE: ws,
    RUNNER_TEMP: temp,
  };
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
  await writeFile(env.GITHUB_OUTPUT as string, '');
  await writeFile(env.GITHUB_STEP_SUMMARY as string, '');
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  let stdout = '';
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string) => {
    stdout += chunk;
    return true;
  }) as typeof process.stdout.write;
  try {
    await run({ operations });
    const outputs = parseOutputFile(await readFile(env.GITHUB_OUTPUT as string, 'utf8'));
    return { code: process.exitCode ?? 0, stdout, outputs };
  } finally {
    process.stdout.write = write;
    process.exitCode = 0;
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
});

describe('an operation defined outside the core', () => {
  it('gets its inputs and outputs in action.yml, by the same rules', () => {
    const inputs = actionInputs(operations);
    const byName = new Map(inputs.map((i) => [i.name, i]));
    expect(byName.get('shout-text')).toMatchObject({ role: 'field', operations: ['echo'] });
    expect(byName.get('shout-text')?.description).toBe(
      'echo (required): the text to send back. Allowed: a non-empty text.',
    );
    expect(byName.get('image')?.operations).toEqual(['image-to-video', 'echo']);
    expect(byName.get('operation')?.description).toContain('echo: send a text and an image back.');
    expect(actionOutputs(operations).map((o) => o.name)).toEqual(
      expect.arrayContaining(['echoed-text', 'image-sha256', 'response', 'response-file']),
    );
    const yml = renderActionYml(operations);
    expect(yml).toContain(
      '  shout-text:\n    description: "echo (required): the text to send back. Allowed: a non-empty text."',
    );
    expect(yml).toContain('  echoed-text:\n    description: "echo: the text as the gateway got it."');
  });

  it("refuses an operation list whose field would take another input's name", () => {
    const clash = defineOperation({ ...echo, name: 'clash', fields: { overwrite: field.text({ description: 'x' }) } });
    expect(() => actionInputs([...OPERATIONS, clash])).toThrow(
      'the input overwrite is claimed twice (field and file); rename a field',
    );
  });

  it('round-trips against an emulator route registered the same way', async () => {
    const emu = await startEmulator({ port: 0, operations: [echoRoute] });
    close = () => emu.close();
    const image = png(4, [10, 200, 30]);
    const ws = await workspaceWith({ 'pic.png': image });
    const result = await runInProcess(
      {
        operation: 'echo',
        'base-url': emu.url,
        'api-key': SENTINEL_KEY,
        'shout-text': 'hello there',
        image: 'pic.png',
      },
      ws,
    );
    expect(result.code, result.stdout).toBe(0);
    expect(emu.requests[0]).toMatchObject({ operation: 'echo', path: '/service_prefix/tools/echo' });
    expect(result.outputs['echoed-text']).toBe('hello there');
    expect(result.outputs['image-sha256']).toBe(createHash('sha256').update(image).digest('hex'));
    expect(result.stdout).toContain('echo: hello there');

    const other = await runInProcess(
      {
        operation: 'echo',
        'base-url': emu.url,
        'api-key': SENTINEL_KEY,
        'shout-text': 'x',
        image: 'pic.png',
        prompt: 'p',
      },
      ws,
    );
    expect(other.code).toBe(1);
    expect(other.stdout).toContain('prompt: does not apply to echo; it is for image-to-video, text-to-video');
    expect(emu.count('echo')).toBe(1);
  });
});
