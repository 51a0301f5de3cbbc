/**
 * One gateway call from the command line, for any operation: the input read and checked, a client
 * from the connection flags, the `--output` target reserved BEFORE anything is sent (a paid task is
 * never created when its result cannot be saved), the call, then the result printed and its file
 * saved. A save that fails after the task exists still prints the result, then says what exists.
 */
import {
  type AnyOperation,
  type CallOptions,
  DownloadError,
  type DownloadResult,
  OutputFile,
  type Result,
} from '@mediagw/core';
import type { Values } from './args.js';
import type { Context } from './command.js';
import { type Connection, openConnection } from './connection.js';
import { readInput } from './fields.js';
import { uploadProgress } from './progress.js';
import { jsonOf, summaryLines } from './results.js';

const OUTPUT_NAMES = { path: '--output', overwrite: '--overwrite' };

/** Downloads the result's file into the reserved target; any failure is returned, not thrown (the task exists). */
async function save(
  op: AnyOperation,
  result: Result,
  output: OutputFile,
  connection: Connection,
  signal: AbortSignal,
): Promise<{ saved?: DownloadResult; error?: unknown }> {
  const file = op.file?.(result);
  if (!file) {
    await output.discard();
    const error = new DownloadError({
      operation: op.name,
      url: '(none given)',
      path: output.path,
      reason: 'the answer names no file to download',
      hint: 'Nothing needs to be submitted again; the result printed is all the gateway sent.',
    });
    return { error };
  }
  try {
    const options = { expectedBytes: file.size, timeoutMs: connection.timeoutMs, operation: op.name, signal };
    return { saved: await connection.client.download(file.url, output, options) };
  } catch (error) {
    await output.discard();
    return { error };
  }
}

function callOptions(op: AnyOperation, context: Context, connection: Connection, signal: AbortSignal) {
  const progress = uploadProgress(context.io.stderr, op.name);
  const options: CallOptions = {
    signal,
    timeoutMs: connection.timeoutMs,
    onUploadProgress: progress.onUploadProgress,
    // Retry notices are for people (a terminal, or --debug): a pipeline's stderr holds only the error.
    onRetry: ({ attempt, delayMs, reason }) => {
      if (!(context.debug || context.out.stderrIsTerminal)) return;
      progress.done();
      context.out.err(`mediagw: ${reason}; retrying in ${(delayMs / 1000).toFixed(1)} s (retry ${attempt})`);
    },
  };
  return { options, progress };
}

export async function runOperation(op: AnyOperation, values: Values, context: Context): Promise<number> {
  const { out } = context;
  const input = readInput(op, values);
  const connection = openConnection(values, context.io.env, op, out.prog);
  // Ctrl+C or SIGTERM stops the call or the download cleanly: no temporary file is left behind.
  const stop = new AbortController();
  const finished = new AbortController();
  void context.io.untilStopped(finished.signal).then(() => stop.abort());
  try {
    const output =
      typeof values.output === 'string'
        ? await OutputFile.reserve(values.output, { overwrite: values.overwrite === true, names: OUTPUT_NAMES })
        : undefined;
    const { options, progress } = callOptions(op, context, connection, stop.signal);
    let result: Result;
    try {
      result = await connection.client.run(op, input as never, options);
    } catch (error) {
      await output?.discard();
      throw error;
    } finally {
      progress.done();
    }
    for (const warning of result.warnings) out.warn(warning);
    const { saved, error } = output ? await save(op, result, output, connection, stop.signal) : {};
    const failed = error === undefined ? undefined : out.describe(error, { command: op.name, op });
    if (values.json === true) out.json({ ...jsonOf(op, result, saved), ...(failed ? { error: failed.json } : {}) });
    else out.out(...summaryLines(op, result, saved));
    if (!failed) return 0;
    out.report(error, failed, context.debug);
    return failed.code;
  } finally {
    finished.abort();
    await connection.client.close();
  }
}
