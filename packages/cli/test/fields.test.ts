/** Operation flags come from the core's schemas: every wire field, kebab-cased, with the core's own rules. */
import { blendOptionsSchema, imageToVideoFieldsSchema, textToVideoRequestSchema } from '@mediagw/core';
import { describe, expect, it } from 'vitest';
import { kebabCase, UsageError } from '../src/args.js';
import { fieldFlags, fieldOptions, readFields } from '../src/fields.js';

const SCHEMAS = { textToVideoRequestSchema, imageToVideoFieldsSchema, blendOptionsSchema };

describe('fieldFlags', () => {
  it.each(Object.entries(SCHEMAS))('%s: one flag per schema key, in kebab-case', (_name, schema) => {
    const flags = fieldFlags(schema);
    expect(flags.map((f) => f.wire)).toEqual(Object.keys(schema.shape));
    for (const f of flags) expect(f.flag).toBe(kebabCase(f.wire));
    expect(Object.keys(fieldOptions(flags))).toEqual(flags.map((f) => f.flag));
  });

  it('reads kinds, required fields and rules from the schema', () => {
    const byFlag = Object.fromEntries(fieldFlags(textToVideoRequestSchema).map((f) => [f.flag, f]));
    expect(byFlag.prompt).toMatchObject({ kind: 'text', required: true });
    expect(byFlag['num-inference-steps']).toMatchObject({ kind: 'number', required: false });
    expect(byFlag['guidance-scale']?.kind).toBe('number');
    expect(byFlag.seed).toMatchObject({ kind: 'digits', rule: expect.stringContaining('exact digits') });
    // The rule text is the core's own: out-of-range values are refused with the same words.
    const outOfRange = textToVideoRequestSchema.shape.num_inference_steps.safeParse(99);
    expect(outOfRange.error?.issues[0]?.message).toContain(byFlag['num-inference-steps']?.rule);
  });

  it('shows enum values from the schema, not a copy', () => {
    const botType = fieldFlags(blendOptionsSchema).find((f) => f.wire === 'botType');
    const refused = blendOptionsSchema.shape.botType.safeParse('nope').error?.issues[0]?.message ?? '';
    expect(botType?.rule).toMatch(/^allowed: /);
    expect(refused).toContain(botType?.rule);
  });
});

describe('readFields', () => {
  const flags = fieldFlags(textToVideoRequestSchema);

  it('maps flags to wire names, parses numbers, keeps seed digits exact', () => {
    const fields = readFields(flags, {
      prompt: 'a long enough prompt',
      'num-inference-steps': '30',
      'guidance-scale': '7.5',
      seed: '196619188014358660123',
    });
    expect(fields).toEqual({
      prompt: 'a long enough prompt',
      num_inference_steps: 30,
      guidance_scale: 7.5,
      seed: '196619188014358660123',
    });
  });

  it('names the flag when a number is not one', () => {
    expect(() => readFields(flags, { prompt: 'p', 'guidance-scale': 'high' })).toThrow(
      new UsageError('--guidance-scale: "high" is not a number'),
    );
    expect(() => readFields(flags, { prompt: 'p', 'num-inference-steps': '' })).toThrow(/--num-inference-steps/);
  });

  it('says which required flag is missing and what it takes', () => {
    expect(() => readFields(flags, {})).toThrow(/^--prompt is required: a non-empty text/);
  });

  it('leaves out flags not given', () => {
    expect(readFields(fieldFlags(blendOptionsSchema), { state: 's' })).toEqual({ state: 's' });
  });
});
