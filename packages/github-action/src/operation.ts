/** What one operation of the action is: the core pieces it maps from and how it runs. */
import type { CallOptions, MediaGatewayClient, OperationName, validate } from '@mediagw/core';
import { type FieldSchema, kebab } from './inputs.js';
import type { OutputName } from './outputs.js';

export interface ActionOperation {
  name: OperationName;
  /** The core's schema of the operation's fields: each key is an input, in kebab-case. */
  fields: FieldSchema & Parameters<typeof validate>[0];
  /** Core call fields outside that schema (text-to-video's per-call `model`). */
  extraFields?: readonly string[];
  /** The input that names image files, and whether it takes many (paths or globs, one per line). */
  images?: { input: 'image' | 'images'; field: string; many: boolean };
  /** Inputs only the action reads (not sent to the gateway). */
  actionInputs?: readonly string[];
  run(call: OperationCall): Promise<OperationResult>;
}

export interface OperationCall {
  client: MediaGatewayClient;
  /** Core fields, read from the inputs. */
  fields: Record<string, unknown>;
  /** Image files (absolute paths), in order. */
  files: string[];
  /** Action-only inputs that were set, by input name. */
  options: Record<string, string>;
  /** Timeout and retry logging for the gateway call (and the download). */
  callOptions: CallOptions;
}

export interface OperationResult {
  outputs: Partial<Record<OutputName, string | number | undefined>>;
  /** The gateway's answer, as parsed by the core (unknown fields kept, big integers as digits). */
  response: unknown;
  warnings: readonly string[];
  /** Links worth a click in the job summary. */
  links: { label: string; url: string }[];
}

/** Every input an operation reads beyond the shared ones. */
export function operationInputs(operation: ActionOperation): string[] {
  return [
    ...Object.keys(operation.fields.shape),
    ...(operation.extraFields ?? []),
    ...(operation.images ? [operation.images.input] : []),
    ...(operation.actionInputs ?? []),
  ].map(kebab);
}
