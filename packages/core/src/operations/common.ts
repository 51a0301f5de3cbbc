/** Pieces the operations share for reading answers: tolerant readers and the schemas of ids and integers. */
import * as z from 'zod/v4';
import { exactDigits } from '../fields.js';
import { show } from '../text.js';

/** The value at a path of a decoded answer, or undefined anywhere along it. */
export function at(value: unknown, ...path: readonly (string | number)[]): unknown {
  let v = value;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[key];
  }
  return v;
}

export const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** An integer the gateway sent: a number when safe, else its exact digits (json.ts turns big ones into digit strings). */
export function integer(value: unknown): number | string | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
  if (typeof value === 'string' && /^-?\d+$/.test(value)) {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : value;
  }
  return undefined;
}

/** A safe integer only (status codes, milliseconds). */
export function smallInteger(value: unknown): number | undefined {
  const n = integer(value);
  return typeof n === 'number' ? n : undefined;
}

/** An id the gateway sent as text or as a (possibly huge) number, as text with every digit. */
export function idText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  const read = exactDigits(value);
  return 'digits' in read ? read.digits : undefined;
}

/** A task id: a text, or an integer of any size (the spec types the blend id as a string, some gateways send a number). */
export const taskIdSchema = z.custom<string | number>(
  (value) => (typeof value === 'string' && value !== '') || (typeof value === 'number' && Number.isInteger(value)),
  { error: (issue) => `must be a task id (a text or an integer), got ${show(issue.input)}` },
);

/** An integer as the gateway sends it; beyond 2^53 it arrives as a digit string (json.ts). */
export const wireInteger = z.custom<number | string>(
  (value) =>
    (typeof value === 'number' && Number.isInteger(value)) || (typeof value === 'string' && /^-?\d+$/.test(value)),
  { error: (issue) => `must be an integer, got ${show(issue.input)}` },
);
