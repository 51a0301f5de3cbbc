/**
 * The action: inputs -> plan -> run -> report. The step fails on any error with a message a person
 * can act on (never a stack trace, never the key). `operations` extends or replaces the registry,
 * so an operation defined outside the core gets its inputs and outputs the same way.
 */
import * as core from '@actions/core';
import { type AnyOperation, findOperation, OPERATIONS, type Operations } from '@mediagw/core';
import { cleaner, secretsOf } from './clean.js';
import { execute } from './execute.js';
import { readPlan } from './plan.js';
import { reportDone, reportFailure } from './report.js';

export interface RunOptions {
  /** The operations the action serves (default: the core's registry). */
  operations?: Operations;
}

export async function run({ operations = OPERATIONS }: RunOptions = {}): Promise<void> {
  // Before anything else: from here on the runner masks the key in every line it logs.
  const secrets = secretsOf(core.getInput('api-key'));
  for (const secret of secrets) core.setSecret(secret);
  const clean = cleaner(secrets);
  let op: AnyOperation | undefined;
  try {
    op = findOperation(core.getInput('operation'), operations);
    const plan = await readPlan(operations);
    const done = await execute(plan, (text) => core.info(`mediagw: ${clean.line(text)}`));
    await reportDone(operations, plan, done, clean);
  } catch (error) {
    await reportFailure(error, operations, op, clean);
  }
}
