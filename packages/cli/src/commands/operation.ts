/** What the three gateway operations share: a client per run, call options, and how results print. */
import { type CallOptions, createClient, type MediaGatewayClient } from '@mediagw/core';
import type { OptionSpecs, Values } from '../args.js';
import type { Context } from '../command.js';
import { type Connection, readConnection } from '../connection.js';
import { uploadProgress } from '../progress.js';

export const resultOptions: OptionSpecs = {
  json: {
    type: 'boolean',
    help: 'print exactly one JSON object on stdout (integers exact), instead of a summary',
  },
};

export const imageOption = (help: string, multiple: boolean): OptionSpecs => ({
  image: { type: 'string', multiple, value: 'PATH', help },
});

export interface Report {
  /** The `--json` object. */
  json: Record<string, unknown>;
  /** The human summary lines. */
  summary: string[];
  warnings: readonly string[];
  /** A failure that came after the result (a download): reported after the result is printed. */
  error?: unknown;
}

/**
 * Runs one gateway call: a client from the connection flags (always closed), call options with the
 * total timeout, and retry notices and upload progress on a terminal; then prints the result.
 */
export async function runOperation(
  values: Values,
  context: Context,
  operation: string,
  call: (client: MediaGatewayClient, options: CallOptions, connection: Connection) => Promise<Report>,
): Promise<number> {
  const connection = readConnection(values, context.io.env);
  const client = createClient(connection.client);
  const progress = uploadProgress(context.io.stderr, operation);
  const options: CallOptions = {
    timeoutMs: connection.timeoutMs,
    onUploadProgress: progress.onUploadProgress,
    // Retry notices are for people (a terminal, or --debug): a pipeline's stderr holds only the error.
    onRetry: ({ attempt, delayMs, reason }) => {
      if (!(context.debug || context.out.stderrIsTerminal)) return;
      progress.done();
      context.out.err(`mediagw: ${reason}; retrying in ${(delayMs / 1000).toFixed(1)} s (retry ${attempt})`);
    },
  };
  let result: Report;
  try {
    result = await call(client, options, connection);
  } finally {
    progress.done();
    await client.close();
  }
  for (const warning of result.warnings) context.out.warn(warning);
  if (values.json === true) context.out.json(result.json);
  else context.out.out(result.summary.join('\n'));
  if (result.error !== undefined) throw result.error;
  return 0;
}
