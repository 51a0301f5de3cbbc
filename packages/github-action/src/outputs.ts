/** The action's outputs (its contract: action.yml declares exactly these). */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as core from '@actions/core';

export const OUTPUTS = [
  'task-id',
  'status',
  'video-url',
  'video-content-type',
  'video-file-size',
  'seed',
  'request-id',
  'response',
  'response-file',
  'downloaded-path',
] as const;
export type OutputName = (typeof OUTPUTS)[number];

export type Outputs = Partial<Record<OutputName, string>>;

/**
 * Sets the outputs that have a value. The answer goes out twice: as `response` (JSON text) and
 * as a file under RUNNER_TEMP, for steps that would rather read a file than an expression.
 */
export async function setOutputs(values: Partial<Record<OutputName, string | number | undefined>>, response: unknown) {
  const json = JSON.stringify(response);
  const dir = await mkdtemp(join(process.env.RUNNER_TEMP || tmpdir(), 'mediagw-'));
  const responseFile = join(dir, 'response.json');
  await writeFile(responseFile, `${json}\n`);
  const outputs: Outputs = {};
  for (const [name, value] of Object.entries({ ...values, response: json, 'response-file': responseFile })) {
    if (value !== undefined) outputs[name as OutputName] = String(value);
  }
  for (const name of OUTPUTS) if (outputs[name] !== undefined) core.setOutput(name, outputs[name]);
  return outputs;
}
