/**
 * Fuzzing: parsers and validators fed arbitrary and mutated input. Every outcome must be a typed
 * result or one of our typed errors; never another exception, never a hang.
 * `npm test` runs a moderate number of cases; `npm run fuzz` sets FUZZ_RUNS=100000 per target.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  blend,
  buildRequest,
  type ImageSource,
  imageToVideo,
  MediaGatewayError,
  parseAnswer,
  type RawResponse,
  resolveConfig,
  textToVideo,
} from '../src/protocol.js';
import { I2V_OK, PNG, T2V_OK } from './recording-server.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const counts: Record<string, { runs: number; ok: number; typedErrors: number }> = {};
const config = resolveConfig({ baseUrl: 'http://gw.test', apiKey: 'k-fuzz-key' });

/** Runs `fn`; passes if it returns or throws one of our errors. Anything else fails the property. */
function outcome(target: string, fn: () => unknown): boolean {
  counts[target] ??= { runs: 0, ok: 0, typedErrors: 0 };
  const c = counts[target];
  c.runs++;
  try {
    fn();
    c.ok++;
    return true;
  } catch (error) {
    if (error instanceof MediaGatewayError) {
      c.typedErrors++;
      return true;
    }
    throw error;
  }
}

// Mutations of a valid answer: drop, retype, enlarge, nest.
const weird = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.string(),
  fc.double(),
  fc.bigInt().map((b) => b * 10n ** 20n),
  fc.boolean(),
  fc.array(fc.jsonValue(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue(), { maxKeys: 3 }),
  fc.integer({ min: 1, max: 2000 }).map((depth) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`)),
);

function paths(value: unknown, prefix: string[] = []): string[][] {
  if (!value || typeof value !== 'object') return [prefix];
  return [prefix, ...Object.entries(value).flatMap(([k, v]) => paths(v, [...prefix, k]))];
}

const exact = (v: unknown) =>
  JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? JSON.rawJSON(x.toString()) : x)) ?? '';

function mutate(base: unknown, path: string[], replacement: unknown): string {
  const copy = structuredClone(base) as Record<string, unknown>;
  if (path.length === 0) return exact(replacement);
  let node: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = path[path.length - 1] as string;
  if (replacement === undefined) delete node[last];
  else node[last] = replacement;
  return exact(copy);
}

const parse = (op: typeof imageToVideo | typeof textToVideo | typeof blend) => (raw: RawResponse) =>
  parseAnswer(op, raw, { config, secrets: ['k-fuzz-key'] });
const parsers: [string, (raw: RawResponse) => unknown, unknown][] = [
  ['image-to-video parser', parse(imageToVideo), I2V_OK],
  ['text-to-video parser', parse(textToVideo), JSON.parse(T2V_OK)],
  ['blend parser', parse(blend), { code: 1, description: 'ok', properties: {}, result: '1790000000000000123' }],
];

const statuses = fc.oneof(fc.constant(200), fc.constant(201), fc.integer({ min: 100, max: 599 }));

describe.each(parsers)('%s', (name, parse, valid) => {
  const allPaths = paths(valid);

  it('arbitrary JSON, text and bytes', () => {
    fc.assert(
      fc.property(
        statuses,
        fc.oneof(
          fc.json(),
          fc.string(),
          fc.uint8Array({ maxLength: 64 }),
          fc.jsonValue().map((v) => JSON.stringify(v).slice(0, -1)),
        ),
        (status, body) => outcome(name, () => parse({ status, headers: {}, body })),
      ),
      { numRuns: RUNS },
    );
  });

  it('mutated valid answers', () => {
    fc.assert(
      fc.property(fc.constantFrom(...allPaths), weird, fc.constantFrom(200, 201), (path, replacement, status) =>
        outcome(name, () => parse({ status, headers: {}, body: mutate(valid, path, replacement) })),
      ),
      { numRuns: RUNS },
    );
  });
});

const image = (bytes: Uint8Array): ImageSource => ({ size: bytes.length, head: bytes.subarray(0, 64), handle: bytes });
const imageLike = fc.oneof(
  { weight: 4, arbitrary: fc.constant(image(PNG)) },
  fc.uint8Array({ maxLength: 80 }).map(image),
  fc.string(),
  fc.anything(),
);

describe('validators', () => {
  it('text-to-video with arbitrary input', () => {
    const field = fc.oneof(fc.anything(), fc.string(), fc.double(), fc.integer(), fc.bigInt());
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          fc.record(
            {
              prompt: fc.oneof(fc.string(), field),
              negative_prompt: fc.oneof(fc.string(), field),
              num_inference_steps: fc.oneof(fc.integer({ min: 1, max: 50 }), field),
              guidance_scale: fc.oneof(fc.double({ min: 2, max: 10, noNaN: true }), field),
              seed: fc.oneof(fc.bigInt(), fc.bigInt().map(String), field),
              model: fc.oneof(fc.constantFrom('m', 'a/b', '..'), field),
            },
            { requiredKeys: [] },
          ),
        ),
        (input) => outcome('text-to-video validator', () => buildRequest(textToVideo, config, input as never)),
      ),
      { numRuns: RUNS },
    );
  });

  it('image-to-video with arbitrary input', () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            input_image: imageLike,
            prompt: fc.oneof(fc.string(), fc.anything()),
            cfg: fc.oneof(fc.double(), fc.anything()),
            aspect_ratio: fc.oneof(fc.constantFrom('16:9', '1:1', '0:1'), fc.string()),
          },
          { requiredKeys: ['input_image'] },
        ),
        (input) => outcome('image-to-video validator', () => buildRequest(imageToVideo, config, input as never)),
      ),
      { numRuns: RUNS },
    );
  });

  it('blend with arbitrary input', () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            base64Array: fc.oneof(
              { weight: 3, arbitrary: fc.array(imageLike, { minLength: 1, maxLength: 4 }) },
              fc.anything(),
            ),
            botType: fc.oneof({ weight: 3, arbitrary: fc.constantFrom('MAIN_JOURNEY', 'ALT_JOURNEY') }, fc.string()),
            dimensions: fc.oneof(fc.constantFrom('PORTRAIT', 'SQUARE'), fc.anything()),
            notifyHook: fc.oneof(fc.webUrl(), fc.string()),
            state: fc.oneof(fc.string(), fc.anything()),
          },
          { requiredKeys: ['base64Array'] },
        ),
        (input) => outcome('blend validator', () => buildRequest(blend, config, input as never)),
      ),
      { numRuns: RUNS },
    );
  });

  it('config with arbitrary settings', () => {
    fc.assert(
      fc.property(
        fc.record({
          baseUrl: fc.oneof(fc.webUrl(), fc.string()),
          apiKey: fc.string(),
          videoVendor: fc.string(),
          secretHeader: fc.string(),
        }),
        (input) => outcome('config validator', () => resolveConfig(input)),
      ),
      { numRuns: RUNS },
    );
  });
});

afterAll(() => {
  const rows = Object.entries(counts).map(
    ([target, c]) =>
      `${target.padEnd(26)} ${String(c.runs).padStart(7)} cases  ${String(c.ok).padStart(7)} results  ${String(c.typedErrors).padStart(7)} typed errors`,
  );
  console.log(`fuzz (FUZZ_RUNS=${RUNS} per property):\n${rows.join('\n')}`);
  for (const c of Object.values(counts)) expect(c.runs).toBeGreaterThan(0);
});
