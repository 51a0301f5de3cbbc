import { describe, expect, it } from 'vitest';
import { closest, envName, joinNegativeValues, type OptionSpecs, parseOptions, UsageError } from '../src/args.js';

describe('names', () => {
  it('derives environment variable names from the core spelling rule', () => {
    expect(envName('videoVendor')).toBe('MEDIAGW_VIDEO_VENDOR');
    expect(envName('baseUrl')).toBe('MEDIAGW_BASE_URL');
    expect(envName('maxDownload')).toBe('MEDIAGW_MAX_DOWNLOAD');
  });

  it('suggests a close flag, not a far one', () => {
    expect(closest('promt', ['prompt', 'model'])).toBe('prompt');
    expect(closest('zzzzzz', ['prompt', 'model'])).toBeUndefined();
  });
});

const specs: OptionSpecs = {
  prompt: { type: 'string', help: '' },
  seed: { type: 'string', help: '' },
  image: { type: 'string', multiple: true, help: '' },
  json: { type: 'boolean', help: '' },
};

function failure(argv: string[]): string {
  try {
    parseOptions(argv, specs, 'See: mediagw t --help');
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as UsageError).message;
  }
  throw new Error('no error');
}

describe('parseOptions', () => {
  it('parses strings, repeated flags and booleans', () => {
    expect(parseOptions(['--prompt', 'x', '--image', 'a', '--image=b', '--json'], specs, '')).toEqual({
      prompt: 'x',
      image: ['a', 'b'],
      json: true,
    });
  });

  it('takes a negative number as the value of a string option', () => {
    expect(parseOptions(['--seed', '-1', '--json'], specs, '')).toEqual({ seed: '-1', json: true });
    expect(parseOptions(['--seed', '-196619188014358660123'], specs, '')).toEqual({ seed: '-196619188014358660123' });
    expect(parseOptions(['--prompt', '-.5'], specs, '')).toEqual({ prompt: '-.5' });
    expect(parseOptions(['--seed=-7'], specs, '')).toEqual({ seed: '-7' });
  });

  it('leaves other dash values ambiguous, booleans alone, and nothing after -- rewritten', () => {
    expect(joinNegativeValues(['--prompt', '-x'], specs)).toEqual(['--prompt', '-x']);
    expect(joinNegativeValues(['--json', '-1'], specs)).toEqual(['--json', '-1']);
    expect(joinNegativeValues(['--', '--seed', '-1'], specs)).toEqual(['--', '--seed', '-1']);
    expect(failure(['--prompt', '--json'])).toMatch(/ambiguous/);
  });

  it('turns parse failures into usage errors naming the flag', () => {
    expect(failure(['--promt', 'x'])).toBe('unknown option --promt (did you mean --prompt?)');
    expect(failure(['stray'])).toMatch(/^unexpected argument "stray"/);
    expect(failure(['--prompt'])).toMatch(/--prompt/);
    expect(failure(['--prompt', 'a', '--prompt', 'b'])).toBe('--prompt is given 2 times; it takes one value');
  });
});
