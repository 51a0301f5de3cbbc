/**
 * Result -> report: log lines, warning annotations, outputs, the job summary; a failure -> one
 * message and a hint (annotations naming each bad input). Every text passes the cleaner first.
 */
import * as core from '@actions/core';
import {
  type AnyOperation,
  GatewayError,
  kebabCase,
  MediaGatewayError,
  type Operations,
  outputsOf,
  summaryOf,
  titleCase,
} from '@mediagw/core';
import { type Cleaner, redactUserInfo } from './clean.js';
import { actionInputs, inputsOf } from './contract.js';
import type { Done } from './execute.js';
import { InputError, input } from './inputs.js';
import { type Outputs, setOutputs } from './outputs.js';
import { shown } from './paths.js';
import type { Plan } from './plan.js';
import { writeSummary } from './summary.js';

export interface Failure {
  message: string;
  hint?: string | undefined;
}

/** Inputs as used, for the summary: never the key, never credentials in a URL. */
export function inputsUsed(
  operations: Operations,
  op: AnyOperation | undefined,
  clean: Cleaner,
  files?: readonly string[],
) {
  const specs = actionInputs(operations);
  const rows: [string, string][] = [];
  for (const spec of op ? inputsOf(op, specs) : specs.filter((s) => !s.operations)) {
    const value = input(spec.name);
    if (value === undefined || spec.name === 'api-key') continue;
    rows.push([
      spec.name,
      clean.value(spec.role === 'images' && files?.length ? files.map(shown).join('\n') : redactUserInfo(value)),
    ]);
  }
  return rows;
}

/** One message (and what to do) per failure; annotations name each bad input. */
export function describeFailure(error: unknown, clean: Cleaner): Failure {
  if (error instanceof InputError) {
    for (const issue of error.issues) {
      core.error(clean.line(`${issue.input}: ${issue.message}`), { title: `Invalid input: ${issue.input}` });
    }
    const names = [...new Set(error.issues.map((i) => i.input))].join(', ');
    return { message: `Invalid input (${names}); nothing was sent to the gateway.`, hint: clean.line(error.message) };
  }
  if (error instanceof GatewayError) {
    // Without a message of its own (an HTML error page, say) the start of the body is the best clue.
    const said = !error.gatewayMessage && error.bodyExcerpt ? `: the gateway answered "${error.bodyExcerpt}"` : '';
    const requestId = error.requestId ? ` (request id ${error.requestId})` : '';
    return { message: clean.line(`${error.message}${said}`), hint: clean.line(`${error.hint}${requestId}`) };
  }
  if (error instanceof MediaGatewayError) return { message: clean.line(error.message), hint: clean.line(error.hint) };
  return { message: clean.line(`Unexpected error: ${error instanceof Error ? error.message : String(error)}`) };
}

export function fail(failure: Failure): void {
  core.setFailed(failure.hint ? `${failure.message}\n${failure.hint}` : failure.message);
}

/** Saving failed after the operation succeeded: say that the result exists (the error names where) and under which ids. */
function saveFailure(op: AnyOperation, error: MediaGatewayError, outputs: Outputs, clean: Cleaner): Failure {
  const ids = op.outputs
    .map((o) => kebabCase(o.name))
    .filter((name) => name.endsWith('-id') && outputs[name] !== undefined)
    .map((name) => `${name} ${outputs[name]}`);
  const set = ids.length > 0 ? ` The outputs are set (${ids.join(', ')}).` : ' The outputs are set.';
  return { message: clean.line(error.message), hint: clean.line(`${error.hint}${set}`) };
}

/** Logs, annotates, sets the outputs and writes the summary; fails the step if saving failed. */
export async function reportDone(operations: Operations, plan: Plan, done: Done, clean: Cleaner): Promise<void> {
  const { operation: op } = plan;
  const { result } = done;
  for (const line of summaryOf(op, result)) core.info(clean.line(line));
  const warnings = result.warnings.map((w) => clean.line(w));
  for (const warning of warnings) core.warning(warning, { title: `mediagw: ${op.name}` });
  const values: Record<string, string | number | undefined> = { 'downloaded-path': done.downloaded?.path };
  for (const [name, value] of Object.entries(outputsOf(op, result))) values[kebabCase(name)] = value;
  const outputs = await setOutputs(values, result.response, clean);
  const file = op.file?.(result);
  const failure = done.saveFailure ? saveFailure(op, done.saveFailure, outputs, clean) : undefined;
  if (failure) fail(failure);
  await writeSummary({
    operation: op.name,
    inputs: inputsUsed(operations, op, clean, plan.files),
    outputs,
    links: file ? [{ label: titleCase(file.kind), url: clean.value(file.url) }] : [],
    warnings,
    failure,
  });
}

/** Fails the step and writes the failure summary. */
export async function reportFailure(
  error: unknown,
  operations: Operations,
  op: AnyOperation | undefined,
  clean: Cleaner,
) {
  const failure = describeFailure(error, clean);
  fail(failure);
  let inputs: [string, string][] = [];
  try {
    inputs = inputsUsed(operations, op, clean);
  } catch {
    // An operation list whose inputs clash: the failure says so; the summary goes without inputs.
  }
  const name = op?.name ?? (clean.line(core.getInput('operation')) || '(none)');
  await writeSummary({ operation: name, inputs, failure }).catch(() => undefined);
}
