/**
 * Inputs -> a plan: the operation, its input (fields read with the core's text rules, image paths),
 * the client settings and the download target. Every problem becomes an issue naming its input,
 * all of them at once, before anything is sent.
 */
import * as core from '@actions/core';
import {
  type AnyOperation,
  type ClientConfig,
  DEFAULT_ROUTES,
  type FieldIssue,
  fieldsFromText,
  findOperation,
  kebabCase,
  type Operations,
  type RouteSettings,
  resolveConfig,
  ValidationError,
  validate,
} from '@mediagw/core';
import {
  actionInputs,
  DOWNLOAD,
  type InputSpec,
  inputsOf,
  MAX_TIMEOUT_SECONDS,
  PATH_POLICY_INPUT,
  usesSetting,
} from './contract.js';
import { InputError, type InputIssue, input, readBoolean, readCount, readSeconds, readSize } from './inputs.js';
import { checkPlace, type PathPolicy, pathPolicy, resolveGlobs, resolvePath, shown } from './paths.js';

export interface Plan {
  operation: AnyOperation;
  /** The operation's input: fields by wire name, images as absolute paths. */
  input: Record<string, unknown>;
  /** The image files, in order. */
  files: string[];
  client: ClientConfig;
  timeoutMs: number | undefined;
  download: { path: string; overwrite: boolean; maxBytes: number | undefined } | undefined;
}

/** The core names fields as the gateway does (`input_image`, `base64Array[1]`, `videoVendor`); users know inputs. */
export function toInputIssues(issues: readonly FieldIssue[], op: AnyOperation | undefined, files: readonly string[]) {
  return issues.map(({ field, message }): InputIssue => {
    const [, base = field, index] = /^(.*?)(?:\[(\d+)\])?$/.exec(field) ?? [];
    if (op?.images && base === op.images.field) {
      const file = files[Number(index ?? 0)];
      return { input: op.images.many ? 'images' : 'image', message: file ? `${shown(file)}: ${message}` : message };
    }
    return { input: base.startsWith('timeouts.') ? 'timeout-seconds' : kebabCase(base), message };
  });
}

/** Inputs that belong to other operations must not be given: a wrong `operation` cannot go unnoticed. */
function foreignInputs(op: AnyOperation, all: readonly InputSpec[], issues: InputIssue[]): void {
  const own = new Set(inputsOf(op, all).map((i) => i.name));
  for (const other of all) {
    if (own.has(other.name) || input(other.name) === undefined) continue;
    issues.push({
      input: other.name,
      message: `does not apply to ${op.name}; it is for ${other.operations?.join(', ')}`,
    });
  }
}

async function readImages(op: AnyOperation, policy: PathPolicy, issues: InputIssue[]): Promise<string[]> {
  if (!op.images) return [];
  const name = op.images.many ? 'images' : 'image';
  const lines = op.images.many ? core.getMultilineInput(name) : [core.getInput(name)].filter(Boolean);
  if (lines.length === 0) {
    const what = op.images.many ? 'image paths or globs, one per line' : 'an image path';
    issues.push({ input: name, message: `is required: ${what}, relative to the workspace` });
    return [];
  }
  const files = op.images.many ? await resolveGlobs(name, lines, issues) : [resolvePath(lines[0] as string)];
  for (const file of files) await checkPlace(policy, file, name, issues);
  return files;
}

async function readDownload(op: AnyOperation, policy: PathPolicy, issues: InputIssue[]): Promise<Plan['download']> {
  if (!op.file) return undefined;
  const overwrite = readBoolean(DOWNLOAD.overwrite, issues);
  const maxBytes = readSize(DOWNLOAD.maxSize, issues);
  const given = input(DOWNLOAD.path);
  if (given === undefined) {
    for (const name of [DOWNLOAD.overwrite, DOWNLOAD.maxSize]) {
      if (input(name) !== undefined) issues.push({ input: name, message: `applies only with ${DOWNLOAD.path}` });
    }
    return undefined;
  }
  const path = resolvePath(given);
  await checkPlace(policy, path, DOWNLOAD.path, issues);
  return { path, overwrite: overwrite === true, maxBytes };
}

function readFields(op: AnyOperation, issues: InputIssue[], files: string[]): Record<string, unknown> {
  const texts: Record<string, string> = {};
  for (const wire of Object.keys(op.fields)) {
    const text = input(kebabCase(wire));
    if (text !== undefined) texts[wire] = text;
  }
  const read = fieldsFromText(op, texts);
  issues.push(...toInputIssues(read.issues, op, files));
  const unread = new Set(read.issues.map((i) => kebabCase(i.field)));
  try {
    // The core checks them again when it builds the request; checking here lists every bad input at once.
    validate(op.schema, read.values, op.name);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    issues.push(...toInputIssues(error.issues, op, files).filter((i) => !unread.has(i.input)));
  }
  return read.values;
}

/**
 * Base URL, key and the route settings the operation uses, checked by the core's own rules; an
 * empty route input takes the core's default (action.yml gives none: see contract.ts).
 */
function readConnection(op: AnyOperation | undefined, issues: InputIssue[]): Omit<ClientConfig, 'timeouts' | 'retry'> {
  const routes: Partial<RouteSettings> = {};
  for (const key of Object.keys(DEFAULT_ROUTES) as (keyof RouteSettings)[]) {
    if (!op || usesSetting(op, key)) routes[key] = input(kebabCase(key));
  }
  const config = { baseUrl: core.getInput('base-url'), apiKey: core.getInput('api-key'), ...routes };
  if (!config.baseUrl) issues.push({ input: 'base-url', message: "is required: the gateway's base URL" });
  if (!config.apiKey) issues.push({ input: 'api-key', message: 'is required: the gateway API key, from a secret' });
  try {
    resolveConfig(config);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const named = new Set(issues.map((i) => i.input));
    issues.push(...toInputIssues(error.issues, undefined, []).filter((i) => !named.has(i.input)));
  }
  return { ...config, userAgent: 'mediagw-github-action' };
}

/** Reads and checks every input; throws an InputError listing each problem. */
export async function readPlan(operations: Operations): Promise<Plan> {
  const issues: InputIssue[] = [];
  const name = core.getInput('operation');
  const op = findOperation(name, operations);
  if (!op) {
    const allowed = operations.map((o) => o.name).join(', ');
    issues.push({
      input: 'operation',
      message: `${name ? `${JSON.stringify(name)} is not allowed` : 'is required'}; allowed: ${allowed}`,
    });
  }
  const connection = readConnection(op, issues);
  const seconds = readSeconds('timeout-seconds', MAX_TIMEOUT_SECONDS, issues);
  const timeoutMs = seconds === undefined ? undefined : Math.round(seconds * 1000);
  const retries = readCount('retries', issues);
  const policy = await pathPolicy(readBoolean(PATH_POLICY_INPUT, issues) === true);
  if (!op) throw new InputError(issues);

  foreignInputs(op, actionInputs(operations), issues);
  const files = await readImages(op, policy, issues);
  const download = await readDownload(op, policy, issues);
  const fields = readFields(op, issues, files);
  if (issues.length > 0) throw new InputError(issues);
  return {
    operation: op,
    input: op.images ? { ...fields, [op.images.field]: op.images.many ? files : files[0] } : fields,
    files,
    timeoutMs,
    download,
    client: {
      ...connection,
      apiKey: connection.apiKey as string,
      // An operation may answer only when its result is done: waiting for headers may take the whole time.
      ...(timeoutMs === undefined ? {} : { timeouts: { totalMs: timeoutMs, headersMs: timeoutMs } }),
      ...(retries === undefined ? {} : { retry: { retries } }),
      ...(download?.maxBytes === undefined ? {} : { maxDownloadBytes: download.maxBytes }),
    },
  };
}
