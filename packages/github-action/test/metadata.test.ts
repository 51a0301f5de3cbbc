/** action.yml, validated by GitHub's parser and held to the core so the two cannot drift. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  BOT_TYPES,
  DEFAULT_RETRY,
  DEFAULT_ROUTES,
  DEFAULT_TIMEOUTS,
  DIMENSIONS,
  OPERATIONS,
  textToVideoRequestSchema,
} from '@mediagw/core';
import { describe, expect, it } from 'vitest';
import { kebab } from '../src/inputs.js';
import { ROUTE_SETTINGS, SHARED_INPUTS } from '../src/main.js';
import { operationInputs } from '../src/operation.js';
import { ACTION_OPERATIONS } from '../src/operations/index.js';
import { OUTPUTS } from '../src/outputs.js';
import { actionDefaults, PACKAGE_DIR, readAction } from './helpers.js';

const { errors, action } = await readAction();
const inputs = new Map((action.inputs ?? []).map((i) => [i.id, i]));
const description = (name: string) => inputs.get(name)?.description ?? '';

describe('action.yml', () => {
  it('is a valid action for the node24 runtime', () => {
    expect(errors).toEqual([]);
    expect(action.runs).toMatchObject({ using: 'node24', main: 'dist/index.js' });
    expect(action.branding?.icon).toBeTruthy();
    expect(action.branding?.color).toBeTruthy();
  });

  it('declares exactly the inputs the action reads, each described', () => {
    const read = new Set([...SHARED_INPUTS, ...Object.values(ACTION_OPERATIONS).flatMap(operationInputs)]);
    expect(new Set(inputs.keys())).toEqual(read);
    for (const input of inputs.values()) expect(input.description, input.id).toMatch(/\S{3}/);
    const required = [...inputs.values()].filter((i) => i.required).map((i) => i.id);
    expect(required.sort()).toEqual(['api-key', 'base-url', 'operation']);
  });

  it('declares exactly the outputs the action sets, each described', () => {
    expect((action.outputs ?? []).map((o) => o.id)).toEqual([...OUTPUTS]);
    for (const output of action.outputs ?? []) expect(output.description, output.id).toMatch(/\S{3}/);
  });

  it("defaults the route inputs to the core's DEFAULT_ROUTES, and timeout and retries to the core's", async () => {
    const defaults = await actionDefaults();
    for (const key of ROUTE_SETTINGS) expect(defaults[kebab(key)], key).toBe(DEFAULT_ROUTES[key]);
    expect(Number(defaults['timeout-seconds'])).toBe(DEFAULT_TIMEOUTS.totalMs / 1000);
    expect(Number(defaults.retries)).toBe(DEFAULT_RETRY.retries);
    expect(Object.keys(defaults).sort()).toEqual([...ROUTE_SETTINGS.map(kebab), 'retries', 'timeout-seconds'].sort());
  });

  it("names the core's allowed values where it documents them", () => {
    for (const name of OPERATIONS) expect(description('operation')).toContain(name);
    for (const value of BOT_TYPES) expect(description('bot-type')).toContain(value);
    for (const value of DIMENSIONS) expect(description('dimensions')).toContain(value);
    // A documented range is the one the core enforces: its refusal message says the same words.
    for (const [name, tooBig] of [
      ['num-inference-steps', 1e6],
      ['guidance-scale', 1e6],
    ] as const) {
      const range = /from \S+ to \S+(?=\.)/.exec(description(name))?.[0];
      const field = textToVideoRequestSchema.shape[name.replace(/-/g, '_') as 'num_inference_steps'];
      const refusal = field.safeParse(tooBig).error?.issues[0]?.message;
      expect(range, name).toBeTruthy();
      expect(refusal).toContain(range);
    }
  });

  it('is documented in the README: every input and every output', async () => {
    const readme = await readFile(join(PACKAGE_DIR, 'README.md'), 'utf8');
    for (const name of [...inputs.keys(), ...OUTPUTS]) expect(readme, name).toContain(`| \`${name}\``);
    for (const name of OPERATIONS) expect(readme).toContain(`operation: ${name}`);
  });
});
