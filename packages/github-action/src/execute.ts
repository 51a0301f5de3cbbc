/**
 * A plan carried out: the download target reserved first (a paid task is never created when its
 * result cannot be saved), the operation run, then what it made saved. A failure to save after the
 * task exists is returned with the result, not thrown: the outputs still go out.
 */
import {
  createClient,
  type DownloadResult,
  type MediaGatewayClient,
  MediaGatewayError,
  OutputFile,
  type Result,
  ValidationError,
} from '@mediagw/core';
import { DOWNLOAD } from './contract.js';
import { InputError } from './inputs.js';
import { type Plan, toInputIssues } from './plan.js';

export interface Done {
  result: Result;
  downloaded?: DownloadResult | undefined;
  /** Saving what the operation made failed; the result (the task, the video) exists. */
  saveFailure?: MediaGatewayError | undefined;
}

export async function execute(plan: Plan, log: (text: string) => void): Promise<Done> {
  const { operation: op } = plan;
  const refused = (error: unknown) =>
    error instanceof ValidationError ? new InputError(toInputIssues(error.issues, op, plan.files)) : error;
  let client: MediaGatewayClient;
  let output: OutputFile | undefined;
  try {
    client = createClient(plan.client);
    if (plan.download) {
      const { path, overwrite } = plan.download;
      output = await OutputFile.reserve(path, {
        overwrite,
        names: { path: DOWNLOAD.path, overwrite: DOWNLOAD.overwrite },
      });
    }
  } catch (error) {
    throw refused(error);
  }
  try {
    log(`${op.name} at ${client.settings.baseUrl}`);
    let result: Result;
    try {
      result = await client.run(op, plan.input as never, {
        timeoutMs: plan.timeoutMs,
        onRetry: ({ attempt, delayMs, reason }) => log(`retry ${attempt} in ${delayMs} ms: ${reason}`),
      });
    } catch (error) {
      throw refused(error);
    }
    const file = output && op.file?.(result);
    if (!output || !file) return { result };
    try {
      const downloaded = await client.download(file.url, output, {
        expectedBytes: file.size,
        timeoutMs: plan.timeoutMs,
        operation: op.name,
      });
      output = undefined;
      return { result, downloaded };
    } catch (error) {
      if (error instanceof MediaGatewayError) return { result, saveFailure: error };
      throw error;
    }
  } finally {
    await output?.discard();
    await client.close();
  }
}
