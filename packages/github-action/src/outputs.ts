/**
 * Sets the outputs that have a value. The answer goes out twice: as `response` (JSON text) and as
 * a file under RUNNER_TEMP, for steps that would rather read a file than an expression. Every value
 * passes the cleaner: the core scrubs answers of the key, and this makes sure of it.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as core from '@actions/core';
import type { Cleaner } from './clean.js';

export type Outputs = Record<string, string>;

export async function setOutputs(
  values: Readonly<Record<string, string | number | undefined>>,
  response: unknown,
  clean: Cleaner,
): Promise<Outputs> {
  const json = clean.value(JSON.stringify(clean.json(response)));
  const dir = await mkdtemp(join(process.env.RUNNER_TEMP || tmpdir(), 'mediagw-'));
  const responseFile = join(dir, 'response.json');
  await writeFile(responseFile, `${json}\n`);
  const outputs: Outputs = {};
  for (const [name, value] of Object.entries({ ...values, response: json, 'response-file': responseFile })) {
    if (value === undefined) continue;
    outputs[name] = clean.value(String(value));
    core.setOutput(name, outputs[name]);
  }
  return outputs;
}
