/** action.yml: generated from the registry, validated by GitHub's parser, documented in the README. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  DEFAULT_RETRY,
  DEFAULT_ROUTES,
  DEFAULT_TIMEOUTS,
  type FieldSpec,
  kebabCase,
  OPERATIONS,
  type RouteSettings,
  ruleOf,
} from '@mediagw/core';
import { describe, expect, it } from 'vitest';
import { renderActionYml } from '../src/action-yml.js';
import { actionDefaults, PACKAGE_DIR, readAction } from './helpers.js';

const { errors, action } = await readAction();
const inputs = new Map((action.inputs ?? []).map((i) => [i.id, i]));
const description = (name: string) => inputs.get(name)?.description ?? '';
const outputs = (action.outputs ?? []).map((o) => o.id);

describe('action.yml', () => {
  it('is what the registry generates (run npm run build -w @mediagw/github-action to regenerate)', async () => {
    const committed = await readFile(join(PACKAGE_DIR, 'action.yml'), 'utf8');
    expect(committed === renderActionYml(), 'action.yml is stale: npm run build -w @mediagw/github-action').toBe(true);
  });

  it('is a valid action for the node24 runtime', () => {
    expect(errors).toEqual([]);
    expect(action.runs).toMatchObject({ using: 'node24', main: 'dist/index.js' });
    expect(action.branding?.icon).toBeTruthy();
  });

  it('has an input for every field of every operation, naming each operation that uses it and its rule', () => {
    for (const op of OPERATIONS) {
      for (const [wire, spec] of Object.entries(op.fields) as [string, FieldSpec][]) {
        const text = description(kebabCase(wire));
        expect(text, wire).toMatch(new RegExp(`(^|\\. )([\\w-]+, )*${op.name}[,: (]`));
        expect(text, wire).toContain(`Allowed: ${ruleOf(spec)}.`);
      }
    }
    expect(inputs.has(OPERATIONS[0].images.many ? 'images' : 'image')).toBe(true);
  });

  it('requires only what every operation needs; prompt is not required for image-to-video (issue 16)', () => {
    const required = [...inputs.values()].filter((i) => i.required).map((i) => i.id);
    expect(required.sort()).toEqual(['api-key', 'base-url', 'operation']);
    expect(description('prompt')).toMatch(/^image-to-video: [^.]+\. Allowed: a text\. text-to-video \(required\): /);
  });

  it('gives no route input a default (the core applies its own), and says whose path each is', async () => {
    const defaults = await actionDefaults();
    for (const key of Object.keys(DEFAULT_ROUTES) as (keyof RouteSettings)[]) {
      const name = kebabCase(key);
      expect(defaults[name], name).toBeUndefined();
      expect(description(name)).toMatch(/^Route setting of (image-to-video|text-to-video|blend): /);
      expect(description(name)).toContain(`Default: ${DEFAULT_ROUTES[key]}.`);
    }
    expect(description('video-vendor')).toContain('{video_vendor}/m2v_16_img2video_10s');
    expect(defaults).toEqual({
      'timeout-seconds': String(DEFAULT_TIMEOUTS.totalMs / 1000),
      retries: String(DEFAULT_RETRY.retries),
      'allow-paths-outside-workspace': 'false',
    });
  });

  it("declares each descriptor's outputs in kebab-case, then the answer and the saved file", () => {
    const fromRegistry = [...new Set(OPERATIONS.flatMap((op) => op.outputs.map((o) => kebabCase(o.name))))];
    expect(outputs).toEqual([...fromRegistry, 'response', 'response-file', 'downloaded-path']);
    expect(outputs.slice(0, 7)).toEqual([
      'task-id',
      'status',
      'video-url',
      'video-content-type',
      'video-file-size',
      'seed',
      'request-id',
    ]);
  });

  it('is documented in the README: every input and output, what is refused and the limits', async () => {
    const readme = await readFile(join(PACKAGE_DIR, 'README.md'), 'utf8');
    for (const name of [...inputs.keys(), ...outputs]) expect(readme, name).toContain(`| \`${name}\``);
    for (const op of OPERATIONS) expect(readme).toContain(`operation: ${op.name}`);
    for (const limit of ['2GiB', '2147483', 'allow-paths-outside-workspace', 'RUNNER_TEMP'])
      expect(readme).toContain(limit);
  });
});
