import { describe, expect, it } from 'vitest';
import { closest, envName, kebabCase, parseNumber, parseOptions, UsageError } from '../src/args.js';

describe('names', () => {
  it('kebab-cases wire names of both styles', () => {
    expect(kebabCase('num_inference_steps')).toBe('num-inference-steps');
    expect(kebabCase('notifyHook')).toBe('notify-hook');
    expect(kebabCase('base64Array')).toBe('base64-array');
    expect(kebabCase('prompt')).toBe('prompt');
  });

  it('derives environment variable names', () => {
    expect(envName('videoVendor')).toBe('MEDIAGW_VIDEO_VENDOR');
    expect(envName('baseUrl')).toBe('MEDIAGW_BASE_URL');
  });

  it('suggests a close flag, not a far one', () => {
    expect(closest('promt', ['prompt', 'model'])).toBe('prompt');
    expect(closest('zzzzzz', ['prompt', 'model'])).toBeUndefined();
  });
});

describe('parseOptions', () => {
  const specs = {
    prompt: { type: 'string', help: '' },
    image: { type: 'string', multiple: true, help: '' },
    json: { type: 'boolean', help: '' },
  } as const;

  it('parses strings, repeated flags and booleans', () => {
    expect(parseOptions(['--prompt', 'x', '--image', 'a', '--image=b', '--json'], specs, 'mediagw t')).toEqual({
      prompt: 'x',
      image: ['a', 'b'],
      json: true,
    });
  });

  it('turns parse failures into usage errors naming the flag', () => {
    const fail = (argv: string[]) => {
      try {
        parseOptions(argv, specs, 'mediagw t');
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as UsageError).message;
      }
      throw new Error('no error');
    };
    expect(fail(['--promt', 'x'])).toBe('unknown option --promt (did you mean --prompt?)');
    expect(fail(['stray'])).toMatch(/^unexpected argument "stray"/);
    expect(fail(['--prompt'])).toMatch(/--prompt/);
    expect(fail(['--prompt', 'a', '--prompt', 'b'])).toBe('--prompt is given 2 times; it takes one value');
  });
});

describe('parseNumber', () => {
  it('accepts numbers and refuses the rest with the label', () => {
    expect(parseNumber(' 2.5 ', '--timeout')).toBe(2.5);
    expect(() => parseNumber('abc', '--timeout')).toThrow('--timeout: "abc" is not a number');
    expect(() => parseNumber('1.5', 'MEDIAGW_RETRIES', { integer: true })).toThrow(
      'MEDIAGW_RETRIES: "1.5" is not a whole number',
    );
    expect(() => parseNumber('-1', '--retries', { integer: true, min: 0 })).toThrow('allowed: 0 or more');
  });
});
