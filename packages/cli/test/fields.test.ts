/** Flags come from each operation's descriptor, spelled by the core's rule, with the core's rules and text reading. */
import {
  blend,
  field,
  imageToVideo,
  kebabCase,
  MAX_TIMEOUT_MS,
  OPERATIONS,
  ruleOf,
  textToVideo,
  ValidationError,
} from '@mediagw/core';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../src/connection.js';
import { fieldOptions, readInput, readSetting } from '../src/fields.js';

function issuesOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).issues;
  }
  throw new Error('no error');
}

describe('fieldOptions', () => {
  it.each(
    OPERATIONS.map((op) => [op.name, op] as const),
  )('%s: --image if it takes images, then one flag per field', (_name, op) => {
    const options = fieldOptions(op);
    expect(Object.keys(options)).toEqual([...(op.images ? ['image'] : []), ...Object.keys(op.fields).map(kebabCase)]);
    expect(options.image?.multiple).toBe(op.images?.many);
    for (const [wire, spec] of Object.entries(op.fields)) {
      const help = options[kebabCase(wire)]?.help ?? '';
      expect(help).toContain(spec.description);
      expect(help).toContain(ruleOf(spec));
      expect(help.startsWith('required: ')).toBe(spec.required === true);
    }
  });

  it('shows ranges and choices in the core words, never a schema error', () => {
    const t2v = fieldOptions(textToVideo);
    expect(t2v['num-inference-steps']).toMatchObject({
      value: 'N',
      help: expect.stringContaining('an integer from 1 to 50'),
    });
    expect(t2v['guidance-scale']?.value).toBe('NUMBER');
    expect(t2v.seed?.help).toContain('every digit kept');
    expect(fieldOptions(blend).dimensions?.help).toContain('one of PORTRAIT, SQUARE, LANDSCAPE');
    for (const op of OPERATIONS) {
      for (const option of Object.values(fieldOptions(op))) expect(option.help).not.toMatch(/got |NaN|undefined|null/);
    }
  });
});

describe('readInput', () => {
  it('maps flags to wire names, reads decimal numbers, keeps seed digits exact (negative too)', () => {
    expect(
      readInput(textToVideo, {
        prompt: 'a long enough prompt',
        'num-inference-steps': '30',
        'guidance-scale': '7.5',
        seed: '196619188014358660123',
      }),
    ).toEqual({
      prompt: 'a long enough prompt',
      num_inference_steps: 30,
      guidance_scale: 7.5,
      seed: '196619188014358660123',
    });
    expect(readInput(textToVideo, { prompt: 'p', seed: '-1' }).seed).toBe('-1');
  });

  it.each(['0x5', '1e3', 'Infinity', '', ' ', '5px'])('refuses %j for a number, naming the field', (text) => {
    const issues = issuesOf(() => readInput(imageToVideo, { cfg: text }));
    expect(issues).toEqual([{ field: 'cfg', message: expect.stringContaining('not a number in decimal notation') }]);
  });

  it('names a missing required field and a value out of range by wire name', () => {
    expect(issuesOf(() => readInput(textToVideo, {}))).toEqual([
      { field: 'prompt', message: 'is required: a non-empty text' },
    ]);
    expect(issuesOf(() => readInput(textToVideo, { prompt: 'p', 'num-inference-steps': '99' }))[0]?.message).toBe(
      '99 is not allowed; allowed: an integer from 1 to 50',
    );
  });

  it('passes the image paths under the wire name of the images', () => {
    expect(readInput(blend, { image: ['a.png', 'b.png'], state: 's' })).toEqual({
      base64Array: ['a.png', 'b.png'],
      state: 's',
    });
    expect(readInput(imageToVideo, { image: 'a.png' })).toEqual({ input_image: 'a.png' });
  });
});

describe('readSetting', () => {
  it('reads the CLI settings the same way, naming where the value came from', () => {
    expect(readSetting(SETTINGS.timeout, '2.5', '--timeout')).toBe(2.5);
    expect(readSetting(SETTINGS.timeout, String(MAX_TIMEOUT_MS / 1000), '--timeout')).toBe(MAX_TIMEOUT_MS / 1000);
    expect(issuesOf(() => readSetting(SETTINGS.timeout, '2147484', '--timeout'))).toEqual([
      { field: '--timeout', message: '2147484 is not allowed; allowed: a number from 0.001 to 2147483.647' },
    ]);
    expect(issuesOf(() => readSetting(SETTINGS.retries, '1e1', 'MEDIAGW_RETRIES'))[0]?.field).toBe('MEDIAGW_RETRIES');
    expect(issuesOf(() => readSetting(field.integer({ min: 0, description: '' }), '1.5', '--n'))[0]?.message).toBe(
      '1.5 is not allowed; allowed: an integer of at least 0',
    );
  });
});
