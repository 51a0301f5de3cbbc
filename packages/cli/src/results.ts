/**
 * The `--json` object and the human summary of any operation's result, from its descriptor: the
 * outputs it declares, the warnings, the answer as parsed, and where the file was saved. The demo
 * saves the very objects `--json` prints.
 */
import { type AnyOperation, type DownloadResult, outputsOf, type Result, summaryOf } from '@mediagw/core';

/**
 * `{ operation, <each declared output>, warnings, response, output? }`. Every declared output is
 * present: null when the answer did not carry it (a warning then says so), so the shape is fixed.
 */
export function jsonOf(op: AnyOperation, result: Result, saved?: DownloadResult): Record<string, unknown> {
  const values = outputsOf(op, result);
  return {
    operation: op.name,
    ...Object.fromEntries(op.outputs.map((o) => [o.name, values[o.name] ?? null])),
    warnings: result.warnings,
    response: result.response,
    ...(saved ? { output: { path: saved.path, bytes: saved.bytes } } : {}),
  };
}

/** The summary lines (plain text: the gateway's values in them are data), and where the file went. */
export function summaryLines(op: AnyOperation, result: Result, saved?: DownloadResult): string[] {
  return [...summaryOf(op, result), ...(saved ? [`  saved to: ${saved.path} (${saved.bytes} bytes)`] : [])];
}
