/**
 * The action: read inputs, call the core, set outputs, write the job summary, fail the step on
 * any error with a message a person can act on (never a stack trace, never the key).
 */
import * as core from '@actions/core';
import {
  type CallOptions,
  createClient,
  DEFAULT_ROUTES,
  GatewayError,
  type MediaGatewayClient,
  MediaGatewayError,
  OPERATIONS,
  type OperationName,
  type RouteSettings,
  scrub,
  ValidationError,
  validate,
} from '@mediagw/core';
import {
  InputError,
  type InputIssue,
  input,
  kebab,
  readCount,
  readFields,
  readSeconds,
  resolveGlobs,
  resolvePath,
  shown,
} from './inputs.js';
import { type ActionOperation, type OperationResult, operationInputs } from './operation.js';
import { ACTION_OPERATIONS } from './operations/index.js';
import { setOutputs } from './outputs.js';
import { writeSummary } from './summary.js';

/** Route settings with an input each; `{text_video_model}` is text-to-video's per-call `model` input. */
export const ROUTE_SETTINGS = (Object.keys(DEFAULT_ROUTES) as (keyof RouteSettings)[]).filter(
  (key) => key !== 'textVideoModel',
);

/** Inputs every operation reads. */
export const SHARED_INPUTS = [
  'operation',
  'base-url',
  'api-key',
  ...ROUTE_SETTINGS.map(kebab),
  'timeout-seconds',
  'retries',
];

interface Prepared {
  operation: ActionOperation;
  fields: Record<string, unknown>;
  files: string[];
  options: Record<string, string>;
}

export async function run(): Promise<void> {
  // Before anything else: from here on the runner masks the key in every line it logs.
  const apiKey = core.getInput('api-key');
  if (apiKey) core.setSecret(apiKey);
  const clean = (text: string) => scrub(text, [apiKey]);

  const operationName = core.getInput('operation');
  const used: [string, string][] = [];
  let client: MediaGatewayClient | undefined;
  try {
    const issues: InputIssue[] = [];
    const prepared = await prepare(operationName, issues);
    const timeoutSeconds = readSeconds('timeout-seconds', issues);
    const timeoutMs = timeoutSeconds === undefined ? undefined : Math.round(timeoutSeconds * 1000);
    client = connect(apiKey, timeoutMs, issues);
    used.push(...inputsUsed(prepared));
    if (issues.length > 0 || !prepared || !client) throw new InputError(issues);

    const { operation, fields, files, options } = prepared;
    core.info(`mediagw: ${operation.name} at ${client.settings.baseUrl}`);
    const callOptions: CallOptions = {
      timeoutMs,
      onRetry: ({ attempt, delayMs, reason }) => core.info(`retry ${attempt} in ${delayMs} ms: ${clean(reason)}`),
    };
    let result: OperationResult;
    try {
      result = await operation.run({ client, fields, files, options, callOptions });
    } catch (error) {
      if (error instanceof ValidationError) throw new InputError(toInputIssues(error, operation, files));
      throw error;
    }
    for (const warning of result.warnings) core.warning(clean(warning));
    const outputs = await setOutputs(result.outputs, result.response);
    await writeSummary({
      operation: operation.name,
      inputs: used,
      outputs,
      links: result.links,
      warnings: result.warnings.map(clean),
    });
  } catch (error) {
    const failure = describeFailure(error, clean);
    core.setFailed(failure.hint ? `${failure.message}\n${failure.hint}` : failure.message);
    await writeSummary({ operation: operationName || '(none)', inputs: used, failure }).catch(() => undefined);
  } finally {
    await client?.close();
  }
}

/** A client for the connection and route inputs; bad settings become issues. */
function connect(apiKey: string, timeoutMs: number | undefined, issues: InputIssue[]): MediaGatewayClient | undefined {
  const retries = readCount('retries', issues);
  try {
    return createClient({
      baseUrl: core.getInput('base-url'),
      apiKey,
      ...Object.fromEntries(ROUTE_SETTINGS.map((key) => [key, input(kebab(key))])),
      // The gateway answers text-to-video when the video is done: waiting for headers may take the whole time.
      ...(timeoutMs === undefined ? {} : { timeouts: { totalMs: timeoutMs, headersMs: timeoutMs } }),
      ...(retries === undefined ? {} : { retry: { retries } }),
      userAgent: 'mediagw-github-action',
    });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    for (const issue of error.issues) {
      const name = kebab(issue.field);
      // "is required" from prepare() already covers an empty base-url or api-key.
      if (!issues.some((i) => i.input === name)) issues.push({ input: name, message: issue.message });
    }
    return undefined;
  }
}

/** Checks the operation and reads its inputs; every problem becomes an issue naming the input. */
async function prepare(name: string, issues: InputIssue[]): Promise<Prepared | undefined> {
  if (!core.getInput('base-url')) issues.push({ input: 'base-url', message: "is required: the gateway's base URL" });
  if (!core.getInput('api-key')) {
    issues.push({ input: 'api-key', message: 'is required: the gateway API key, from a secret' });
  }
  const operation = ACTION_OPERATIONS[name as OperationName];
  if (!OPERATIONS.includes(name as OperationName) || !operation) {
    issues.push({
      input: 'operation',
      message: `${name ? `"${name}" is not allowed` : 'is required'}; allowed: ${OPERATIONS.join(', ')}`,
    });
    return undefined;
  }
  const own = operationInputs(operation);
  const others = new Set(Object.values(ACTION_OPERATIONS).flatMap(operationInputs));
  for (const other of others) {
    if (!own.includes(other) && input(other) !== undefined) {
      issues.push({ input: other, message: `does not apply to ${name}; its inputs: ${own.join(', ')}` });
    }
  }

  const files: string[] = [];
  if (operation.images) {
    const { input: imagesInput, many } = operation.images;
    const lines = (many ? core.getMultilineInput(imagesInput) : [core.getInput(imagesInput)]).filter(Boolean);
    if (lines.length === 0) {
      const what = many ? 'image paths or globs, one per line' : 'an image path';
      issues.push({ input: imagesInput, message: `is required: ${what}, relative to the workspace` });
    } else if (many) files.push(...(await resolveGlobs(imagesInput, lines, issues)));
    else files.push(resolvePath(lines[0] as string));
  }
  const options: Record<string, string> = {};
  for (const name of operation.actionInputs ?? []) {
    const value = input(name);
    if (value !== undefined) options[name] = value;
  }
  const fields = readFields(operation.fields, operation.extraFields);
  // The core checks these again when it builds the request; checking here too lists every bad input at once.
  const schemaFields = Object.fromEntries(Object.entries(fields).filter(([key]) => key in operation.fields.shape));
  try {
    validate(operation.fields, schemaFields, operation.name);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    issues.push(...toInputIssues(error, operation, files));
  }
  return { operation, fields, files, options };
}

/** The core names fields as the gateway does; the user knows them by input name. */
function toInputIssues(error: ValidationError, operation: ActionOperation, files: string[]): InputIssue[] {
  return error.issues.map(({ field, message }) => {
    const [, base = field, index] = /^(.*?)(?:\[(\d+)\])?$/.exec(field) ?? [];
    if (operation.images && base === operation.images.field) {
      const file = files[Number(index ?? 0)];
      return { input: operation.images.input, message: file ? `${shown(file)}: ${message}` : message };
    }
    return { input: kebab(base), message };
  });
}

/** Inputs as used, for the summary: never the key. */
function inputsUsed(prepared: Prepared | undefined): [string, string][] {
  const [operation, baseUrl, ...settings] = SHARED_INPUTS;
  const names = [operation, baseUrl, ...(prepared ? operationInputs(prepared.operation) : []), ...settings];
  const rows: [string, string][] = [];
  for (const name of names as string[]) {
    if (name === 'api-key') continue;
    if (name === prepared?.operation.images?.input) rows.push([name, prepared.files.map(shown).join('\n')]);
    else {
      const value = input(name);
      if (value !== undefined) rows.push([name, value]);
    }
  }
  return rows;
}

/** One message (and what to do) per failure; annotations name each bad input. */
function describeFailure(error: unknown, clean: (text: string) => string): { message: string; hint?: string } {
  if (error instanceof InputError) {
    for (const issue of error.issues) {
      core.error(clean(`${issue.input}: ${issue.message}`), { title: `Invalid input: ${issue.input}` });
    }
    const names = [...new Set(error.issues.map((i) => i.input))].join(', ');
    return { message: `Invalid input (${names}); nothing was sent to the gateway.`, hint: clean(error.message) };
  }
  if (error instanceof GatewayError) {
    // Without a message of its own (an HTML error page, say) the start of the body is the best clue.
    const said = !error.gatewayMessage && error.bodyExcerpt ? `: the gateway answered "${error.bodyExcerpt}"` : '';
    const requestId = error.requestId ? ` (request id ${error.requestId})` : '';
    return { message: clean(`${error.message}${said}`), hint: clean(`${error.hint}${requestId}`) };
  }
  if (error instanceof MediaGatewayError) return { message: clean(error.message), hint: clean(error.hint) };
  return { message: clean(`Unexpected error: ${error instanceof Error ? error.message : String(error)}`) };
}
