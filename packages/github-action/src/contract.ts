/**
 * The action's contract, derived from the operation registry: which inputs exist, which operations
 * read each one, and which outputs they set. The runtime (which inputs apply to the chosen
 * operation) and the generated action.yml both read it, so neither restates an operation.
 */
import {
  type AnyOperation,
  DEFAULT_MAX_DOWNLOAD_BYTES,
  DEFAULT_RETRY,
  DEFAULT_ROUTES,
  DEFAULT_TIMEOUTS,
  type FieldSpec,
  kebabCase,
  MAX_TIMEOUT_MS,
  type Operations,
  type RouteSettings,
  routeSettings,
  ruleOf,
} from '@mediagw/core';
import { formatSize } from './size.js';

export type InputRole = 'shared' | 'field' | 'images' | 'file' | 'route';

export interface InputSpec {
  name: string;
  role: InputRole;
  description: string;
  /** Required for every operation (only the connection and the operation itself). */
  required?: boolean;
  /** What the runner injects when the input is not given (shared inputs only). */
  default?: string;
  /** The operations that read it; undefined for every operation. */
  operations?: readonly string[];
}

export interface OutputSpec {
  name: string;
  description: string;
}

/** The longest timeout-seconds Node's timers can hold. */
export const MAX_TIMEOUT_SECONDS = Math.floor(MAX_TIMEOUT_MS / 1000);
export const PATH_POLICY_INPUT = 'allow-paths-outside-workspace';
export const DOWNLOAD = { path: 'download-path', overwrite: 'overwrite', maxSize: 'download-max-size' } as const;

const names = (ops: readonly AnyOperation[]) => ops.map((op) => op.name).join(', ');

/** Operations grouped by what they say about an input, so identical lines are said once. */
function grouped(entries: readonly [AnyOperation, string][]): string {
  const byText = new Map<string, AnyOperation[]>();
  for (const [op, text] of entries) byText.set(text, [...(byText.get(text) ?? []), op]);
  return [...byText].map(([text, ops]) => `${names(ops)}${text}`).join(' ');
}

function fieldInputs(ops: Operations): InputSpec[] {
  const uses = new Map<string, [AnyOperation, string][]>();
  for (const op of ops) {
    for (const [wire, spec] of Object.entries(op.fields) as [string, FieldSpec][]) {
      const name = kebabCase(wire);
      const line = `${spec.required ? ' (required)' : ''}: ${spec.description}. Allowed: ${ruleOf(spec)}.`;
      uses.set(name, [...(uses.get(name) ?? []), [op, line]]);
    }
  }
  return [...uses].map(([name, entries]) => ({
    name,
    role: 'field',
    description: grouped(entries),
    operations: entries.map(([op]) => op.name),
  }));
}

function imageInputs(ops: Operations): InputSpec[] {
  const how = {
    image: 'A path relative to the workspace.',
    images:
      'Paths or globs relative to the workspace, one per line, in this order (each glob sorted by path); a line starting with ! leaves matches out.',
  };
  return (['image', 'images'] as const).flatMap((name) => {
    const using = ops.filter((op) => op.images && op.images.many === (name === 'images'));
    if (using.length === 0) return [];
    const entries = using.map((op): [AnyOperation, string] => [op, ` (required): ${op.images?.description}.`]);
    return [
      { name, role: 'images', description: `${grouped(entries)} ${how[name]}`, operations: using.map((op) => op.name) },
    ];
  });
}

function fileInputs(ops: Operations): InputSpec[] {
  const using = ops.filter((op) => op.file);
  if (using.length === 0) return [];
  const operations = using.map((op) => op.name);
  const kinds = [...new Set(using.map((op) => op.kind))].join(' or ');
  const only = `${names(using)}, with ${DOWNLOAD.path}`;
  return [
    {
      name: DOWNLOAD.path,
      role: 'file',
      operations,
      description:
        `${names(using)}: save the ${kinds} at this path, relative to the workspace, and set downloaded-path. ` +
        'Checked before anything is sent: never a directory, a device or a FIFO; an existing file only with overwrite.',
    },
    {
      name: DOWNLOAD.overwrite,
      role: 'file',
      operations,
      description: `${only}: true to replace an existing file there (default false).`,
    },
    {
      name: DOWNLOAD.maxSize,
      role: 'file',
      operations,
      description:
        `${only}: the most the download may bring, in bytes or with a unit (500MiB, 2GiB); ` +
        `default ${formatSize(DEFAULT_MAX_DOWNLOAD_BYTES)}. A size the answer announces caps it at that plus slack.`,
    },
  ];
}

/** `{video_vendor}/m2v_16_img2video_10s`: a route with its settings as the spec writes them. */
const routeText = (op: AnyOperation) =>
  op.route.map((s) => (typeof s === 'string' ? s : `{${DEFAULT_ROUTES[s.setting]}}`)).join('/');

/** Whether an operation uses a route setting: in its path, or (the secret header) for its auth. */
export function usesSetting(op: AnyOperation, key: keyof RouteSettings): boolean {
  return key === 'secretHeader' ? op.auth === 'secret-header' : routeSettings(op.route).includes(key);
}

function routeInputs(ops: Operations): InputSpec[] {
  return (Object.keys(DEFAULT_ROUTES) as (keyof RouteSettings)[]).flatMap((key) => {
    const using = ops.filter((op) => usesSetting(op, key));
    if (using.length === 0) return [];
    const what =
      key === 'secretHeader'
        ? 'the name of the header that carries the key'
        : `the {${DEFAULT_ROUTES[key]}} segment of its path: ${using.map(routeText).join('; ')}`;
    return [
      {
        name: kebabCase(key),
        role: 'route',
        operations: using.map((op) => op.name),
        description: `Route setting of ${names(using)}: ${what}. Default: ${DEFAULT_ROUTES[key]}.`,
      },
    ];
  });
}

/** Every input, in the order action.yml lists them. Throws when two roles claim one name. */
export function actionInputs(ops: Operations): InputSpec[] {
  const choices = ops.map((op) => ` ${op.name}: ${op.summary}.`).join('');
  const inputs: InputSpec[] = [
    { name: 'operation', role: 'shared', required: true, description: `What to do.${choices}` },
    {
      name: 'base-url',
      role: 'shared',
      required: true,
      description: "The gateway's base address, such as https://gateway.example.com (a path prefix is kept).",
    },
    {
      name: 'api-key',
      role: 'shared',
      required: true,
      description: 'The gateway API key. Pass it from a secret (secrets.MEDIAGW_API_KEY), never as plain text.',
    },
    ...imageInputs(ops),
    ...fieldInputs(ops),
    ...fileInputs(ops),
    ...routeInputs(ops),
    {
      name: 'timeout-seconds',
      role: 'shared',
      default: String(DEFAULT_TIMEOUTS.totalMs / 1000),
      description: `Longest wait for the call (retries included) and for a download, in seconds; at most ${MAX_TIMEOUT_SECONDS} (~24.8 days).`,
    },
    {
      name: 'retries',
      role: 'shared',
      default: String(DEFAULT_RETRY.retries),
      description:
        'Attempts after the first, made only where the gateway cannot have acted (connection refused, 429, 503).',
    },
    {
      name: PATH_POLICY_INPUT,
      role: 'shared',
      default: 'false',
      description:
        'true to read images and save downloads outside GITHUB_WORKSPACE and RUNNER_TEMP. By default such paths ' +
        '(../ or absolute ones, or symbolic links that lead out) are refused.',
    },
  ];
  const seen = new Map<string, InputRole>();
  for (const input of inputs) {
    const role = seen.get(input.name);
    if (role) throw new Error(`the input ${input.name} is claimed twice (${role} and ${input.role}); rename a field`);
    seen.set(input.name, input.role);
  }
  return inputs;
}

/** The inputs that apply to one operation. */
export function inputsOf(op: AnyOperation, inputs: readonly InputSpec[]): InputSpec[] {
  return inputs.filter((i) => !i.operations || i.operations.includes(op.name));
}

/** Every output: each descriptor's outputs in kebab-case, then the answer and the saved file. */
export function actionOutputs(ops: Operations): OutputSpec[] {
  const uses = new Map<string, [AnyOperation, string][]>();
  for (const op of ops) {
    for (const output of op.outputs) {
      const name = kebabCase(output.name);
      uses.set(name, [...(uses.get(name) ?? []), [op, `: ${output.description}.`]]);
    }
  }
  const files = ops.filter((op) => op.file);
  return [
    ...[...uses].map(([name, entries]) => ({ name, description: grouped(entries) })),
    {
      name: 'response',
      description: "The gateway's answer as JSON text (integers beyond 2^53 as digit strings; the key never).",
    },
    { name: 'response-file', description: 'Path of a file under RUNNER_TEMP holding the same JSON.' },
    ...(files.length === 0
      ? []
      : [
          {
            name: 'downloaded-path',
            description: `${names(files)} with ${DOWNLOAD.path}: the absolute path of the saved file.`,
          },
        ]),
  ];
}
