/**
 * Action inputs -> core arguments. Input names are the core's field names in kebab-case, so the
 * core stays the one place each field is named; this file only knows how the runner hands them over.
 */
import { isAbsolute, relative, resolve } from 'node:path';
import * as core from '@actions/core';
import * as glob from '@actions/glob';

/** `negative_prompt` -> `negative-prompt`, `botType` -> `bot-type`. */
export function kebab(name: string): string {
  return name
    .replace(/_/g, '-')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase();
}

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

/** Just enough of a zod schema to read its field names and try a value against a field. */
export interface FieldSchema {
  shape: Record<string, { safeParse(value: unknown): { success: boolean } }>;
}

/** The value of an input, or undefined when it is empty (the runner passes unset inputs as ''). */
export function input(name: string): string | undefined {
  const value = core.getInput(name);
  return value === '' ? undefined : value;
}

/**
 * Inputs are text; some core fields take numbers. A text the field accepts as it is stays text
 * (prompts, and seeds, whose digits must all survive); otherwise a numeric text becomes a number,
 * so the core's own rule (range, integer) judges it and writes the message.
 */
function coerce(field: FieldSchema['shape'][string], text: string): string | number {
  if (field.safeParse(text).success) return text;
  const number = Number(text);
  return text.trim() !== '' && Number.isFinite(number) ? number : text;
}

/** Reads the inputs named after a core schema's fields; unset ones stay out. */
export function readFields(schema: FieldSchema, extra: readonly string[] = []): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    const text = input(kebab(key));
    if (text !== undefined) fields[key] = coerce(field, text);
  }
  for (const key of extra) {
    const text = input(kebab(key));
    if (text !== undefined) fields[key] = text;
  }
  return fields;
}

export function workspace(): string {
  return process.env.GITHUB_WORKSPACE || process.cwd();
}

/** A path as the user wrote it relative to the workspace, for messages and the summary. */
export function shown(path: string): string {
  const rel = relative(workspace(), path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

export function resolvePath(path: string): string {
  return resolve(workspace(), path);
}

/**
 * Paths or globs, one per line, relative to the workspace. Files come in the order of the lines
 * (blend order matters), each glob's matches sorted; `!pattern` lines exclude from all of them.
 */
export async function resolveGlobs(name: string, lines: readonly string[], issues: InputIssue[]): Promise<string[]> {
  const anchored = (line: string) =>
    line.startsWith('!') ? `!${resolvePath(line.slice(1).trim())}` : resolvePath(line);
  const patterns = lines.filter((l) => !l.startsWith('#'));
  const excludes = patterns.filter((l) => l.startsWith('!')).map(anchored);
  const files: string[] = [];
  for (const line of patterns.filter((l) => !l.startsWith('!'))) {
    const globber = await glob.create([anchored(line), ...excludes].join('\n'), {
      matchDirectories: false,
      implicitDescendants: false,
      followSymbolicLinks: true,
    });
    const matches = (await globber.glob()).sort();
    if (matches.length === 0) {
      issues.push({
        input: name,
        message: `"${line}" matches no file in the workspace (${workspace()}); allowed: paths or globs relative to it, one per line`,
      });
    }
    for (const file of matches) if (!files.includes(file)) files.push(file);
  }
  if (patterns.every((l) => l.startsWith('!'))) {
    issues.push({ input: name, message: 'is required: image paths or globs, one per line' });
  }
  return files;
}

/** A positive number of seconds, or undefined when unset. */
export function readSeconds(name: string, issues: InputIssue[]): number | undefined {
  const text = input(name);
  if (text === undefined) return undefined;
  const seconds = Number(text);
  if (Number.isFinite(seconds) && seconds > 0) return seconds;
  issues.push({ input: name, message: `"${text}" is not allowed; allowed: a positive number of seconds` });
  return undefined;
}

/** A whole number from 0 up, or undefined when unset. */
export function readCount(name: string, issues: InputIssue[]): number | undefined {
  const text = input(name);
  if (text === undefined) return undefined;
  const count = Number(text);
  if (/^\d+$/.test(text) && Number.isSafeInteger(count)) return count;
  issues.push({ input: name, message: `"${text}" is not allowed; allowed: a whole number from 0` });
  return undefined;
}
