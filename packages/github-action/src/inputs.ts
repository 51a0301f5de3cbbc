/**
 * How the runner hands inputs over (`INPUT_<NAME>` through @actions/core), read into values or
 * issues that name the input. Unset inputs arrive as ''; they are undefined here.
 */
import * as core from '@actions/core';
import { parseSize, SIZE_RULE } from './size.js';

/** One bad input: which one and what is allowed. */
export interface InputIssue {
  input: string;
  message: string;
}

/** Inputs refused before anything was sent. */
export class InputError extends Error {
  constructor(readonly issues: InputIssue[]) {
    super(issues.map((i) => `${i.input}: ${i.message}`).join('; '));
  }
}

/** The value of an input, or undefined when it is empty. */
export function input(name: string): string | undefined {
  const value = core.getInput(name);
  return value === '' ? undefined : value;
}

const quoted = (text: string) => JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}...` : text);

/** A positive number of seconds up to `max`, or undefined when unset. */
export function readSeconds(name: string, max: number, issues: InputIssue[]): number | undefined {
  const text = input(name);
  if (text === undefined) return undefined;
  const seconds = /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
  if (seconds > 0 && seconds <= max) return seconds;
  issues.push({
    input: name,
    message: `${quoted(text)} is not allowed; allowed: a positive number of seconds, at most ${max}`,
  });
  return undefined;
}

/** A whole number from 0 up, or undefined when unset. */
export function readCount(name: string, issues: InputIssue[]): number | undefined {
  const text = input(name);
  if (text === undefined) return undefined;
  const count = Number(text);
  if (/^\d+$/.test(text) && Number.isSafeInteger(count)) return count;
  issues.push({ input: name, message: `${quoted(text)} is not allowed; allowed: a whole number from 0` });
  return undefined;
}

/** true/false in the YAML 1.2 core spellings @actions/core accepts, or undefined when unset. */
export function readBoolean(name: string, issues: InputIssue[]): boolean | undefined {
  const text = input(name);
  if (text === undefined) return undefined;
  if (['true', 'True', 'TRUE'].includes(text)) return true;
  if (['false', 'False', 'FALSE'].includes(text)) return false;
  issues.push({ input: name, message: `${quoted(text)} is not allowed; allowed: true or false` });
  return undefined;
}

/** A size in bytes (`1048576`, `500MiB`, `2GiB`, `1GB`), or undefined when unset. */
export function readSize(name: string, issues: InputIssue[]): number | undefined {
  const text = input(name);
  if (text === undefined) return undefined;
  const bytes = parseSize(text);
  if (bytes !== undefined) return bytes;
  issues.push({ input: name, message: `${quoted(text)} is not allowed; allowed: ${SIZE_RULE}` });
  return undefined;
}
