/**
 * The example workflows and this repository's own, validated by GitHub's workflow parser; the
 * examples' use of the action is also held to action.yml (inputs given, outputs read).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { OPERATIONS } from '@mediagw/core';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_DIR, readAction, workflowErrors } from './helpers.js';

async function workflows(dir: string): Promise<{ name: string; content: string }[]> {
  const names = (await readdir(join(REPO_DIR, dir))).filter((n) => /\.ya?ml$/.test(n)).sort();
  return Promise.all(names.map(async (name) => ({ name, content: await readFile(join(REPO_DIR, dir, name), 'utf8') })));
}

interface Step {
  id?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
}
type Workflow = {
  jobs: Record<string, { steps: Step[]; outputs?: Record<string, string>; permissions?: Record<string, string> }>;
};

const examples = await workflows('examples/github');
const own = await workflows('.github/workflows');
const { action } = await readAction();
const inputNames = new Set((action.inputs ?? []).map((i) => i.id));
const required = (action.inputs ?? []).filter((i) => i.required).map((i) => i.id);
const outputNames = new Set((action.outputs ?? []).map((o) => o.id));

describe.each([...examples, ...own].map((w) => [w.name, w.content] as const))('%s', (name, content) => {
  it('is a valid workflow', () => {
    expect(workflowErrors(name, content)).toEqual([]);
  });

  it('keeps expressions out of run scripts (no script injection)', () => {
    const steps = Object.values((parse(content) as Workflow).jobs).flatMap((job) => job.steps);
    for (const step of steps) expect(step.run ?? '').not.toContain('${{');
  });
});

describe('examples/github', () => {
  const steps = examples.flatMap(({ name, content }) =>
    Object.values((parse(content) as Workflow).jobs)
      .flatMap((job) => job.steps)
      .filter((step) => step.uses?.includes('/packages/github-action@'))
      .map((step) => ({ name, content, step })),
  );

  it('cover every operation, blend with a glob', () => {
    const operations = steps.map(({ step }) => step.with?.operation);
    expect(new Set(operations)).toEqual(new Set(OPERATIONS.map((op) => op.name)));
    const blend = steps.find(({ step }) => step.with?.operation === 'blend');
    expect(String(blend?.step.with?.images)).toMatch(/\*/);
  });

  it('give only inputs the action has, every required one, the key from a secret', () => {
    for (const { name, step } of steps) {
      const given = Object.keys(step.with ?? {});
      for (const input of given) expect(inputNames, `${name}: ${input}`).toContain(input);
      for (const input of required) expect(given, `${name}: ${input}`).toContain(input);
      expect(step.with?.['api-key']).toMatch(/^\$\{\{ secrets\.\w+ \}\}$/);
    }
  });

  it('read only outputs the action sets, the video URL in a later job', () => {
    for (const { name, content, step } of steps) {
      for (const [, output] of content.matchAll(new RegExp(`steps\\.${step.id}\\.outputs\\.([\\w-]+)`, 'g'))) {
        expect(outputNames, `${name}: ${output}`).toContain(output);
      }
    }
    const videoJob = examples.map((w) => parse(w.content) as Workflow).find((w) => w.jobs.publish);
    expect(JSON.stringify(videoJob?.jobs.publish)).toContain('needs.generate.outputs.video-url');
  });
});

describe('.github/workflows', () => {
  const byName = Object.fromEntries(own.map((w) => [w.name, w.content]));

  it('CI installs with npm ci, builds, tests and checks dist/ is fresh', () => {
    const runs = (parse(byName['ci.yml'] ?? '') as Workflow).jobs.test?.steps.map((s) => s.run ?? '') ?? [];
    expect(runs.some((r) => r.startsWith('npm ci'))).toBe(true);
    expect(runs).toContain('npm run build');
    expect(runs).toContain('npm test');
    expect(runs.some((r) => r.includes('git diff --exit-code') && r.includes('packages/github-action/dist'))).toBe(
      true,
    );
  });

  it('CI also runs the action itself on a runner, against the emulator', () => {
    const steps = (parse(byName['ci.yml'] ?? '') as Workflow).jobs.action?.steps ?? [];
    expect(steps.some((s) => s.run?.includes('emulator --port'))).toBe(true);
    const uses = steps.filter((s) => s.uses === './packages/github-action');
    expect(uses.map((s) => s.with?.operation)).toEqual(['text-to-video', 'text-to-video']);
  });

  it('release versions with changesets and publishes with provenance', () => {
    const release = (parse(byName['release.yml'] ?? '') as Workflow).jobs.release;
    expect(release?.permissions?.['id-token']).toBe('write');
    const step = release?.steps.find((s) => s.uses?.startsWith('changesets/action@'));
    expect(step?.with).toMatchObject({ version: 'npx changeset version', publish: 'npx changeset publish' });
    expect(step?.env?.NPM_CONFIG_PROVENANCE).toBe('true');
  });
});
