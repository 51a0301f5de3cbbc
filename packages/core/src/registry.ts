/**
 * The operations this package speaks. Adapters take their commands, inputs and parameters from
 * this list (or from a list a caller extends with its own `defineOperation`s).
 */
import type { AnyOperation, Result } from './operation.js';
import { blend } from './operations/blend.js';
import { imageToVideo } from './operations/image-to-video.js';
import { textToVideo } from './operations/text-to-video.js';
import { plainText } from './text.js';

export const OPERATIONS = [imageToVideo, textToVideo, blend] as const;

export type OperationName = (typeof OPERATIONS)[number]['name'];

/** A list of operations an adapter serves. */
export type Operations = readonly AnyOperation[];

export function findOperation(name: string, operations: Operations = OPERATIONS): AnyOperation | undefined {
  return operations.find((op) => op.name === name);
}

/** The human summary of a result, every line plain text (the gateway's values in it are data). */
export function summaryOf(op: AnyOperation, result: Result): string[] {
  return op.describe(result).map(plainText);
}

/** The result's output values by name, those that have one. */
export function outputsOf(op: AnyOperation, result: Result): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const output of op.outputs) {
    const value = output.value(result);
    if (value !== undefined) out[output.name] = value;
  }
  return out;
}
