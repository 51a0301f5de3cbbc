/**
 * Command-line parsing on `node:util` parseArgs: strict, no dependency, and the same parser Node
 * itself maintains. This module turns its errors into plain usage messages, lets a negative number
 * be a value (`--seed -1`), and names environment variables by the one spelling rule.
 */
import { parseArgs } from 'node:util';
import { kebabCase } from '@mediagw/core';

/** Bad command line or input: exit 2, nothing was sent. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
  override get name(): string {
    return 'UsageError';
  }
}

export interface OptionSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
  /** Placeholder shown in help (`PATH`, `N`, ...). */
  value?: string;
  /** One line for `--help`. */
  help: string;
  /** Environment variable read when the flag is absent. */
  env?: string;
}

export type OptionSpecs = Record<string, OptionSpec>;
export type Values = Record<string, string | boolean | string[] | undefined>;

/** `videoVendor` -> `MEDIAGW_VIDEO_VENDOR`: the prefix, then the core's spelling rule in upper snake case. */
export function envName(name: string): string {
  return `MEDIAGW_${kebabCase(name).replace(/-/g, '_').toUpperCase()}`;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/** The known flag closest to a mistyped one, if any is close. */
export function closest(unknown: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(unknown.length / 3)) + 1;
  for (const candidate of known) {
    const d = editDistance(unknown, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

const NEGATIVE_NUMBER = /^-(?:\d|\.\d)/;

/**
 * parseArgs calls `--seed -1` ambiguous (the value looks like a flag). A negative number after a
 * string option is that option's value: written as `--seed=-1`, which parseArgs reads plainly.
 * Nothing after `--` is touched.
 */
export function joinNegativeValues(argv: readonly string[], specs: OptionSpecs): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return [...out, ...argv.slice(i)];
    const next = argv[i + 1];
    const spec = arg.startsWith('--') && !arg.includes('=') ? specs[arg.slice(2)] : undefined;
    if (spec?.type === 'string' && next !== undefined && NEGATIVE_NUMBER.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** Parses `argv` against `specs`; parse failures become UsageErrors naming the flag. */
export function parseOptions(argv: readonly string[], specs: OptionSpecs, see: string): Values {
  const options = Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [
      name,
      { type: spec.type, ...(spec.multiple ? { multiple: true } : {}), ...(spec.short ? { short: spec.short } : {}) },
    ]),
  );
  try {
    const { values, tokens } = parseArgs({
      args: joinNegativeValues(argv, specs),
      options,
      strict: true,
      allowPositionals: false,
      tokens: true,
    });
    // parseArgs keeps the last of a repeated flag silently; a second --prompt is more likely a mistake.
    const seen = new Map<string, number>();
    for (const token of tokens) if (token.kind === 'option') seen.set(token.name, (seen.get(token.name) ?? 0) + 1);
    for (const [name, count] of seen) {
      if (count > 1 && !specs[name]?.multiple && specs[name]?.type === 'string') {
        throw new UsageError(`--${name} is given ${count} times; it takes one value`, see);
      }
    }
    return values as Values;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as { code?: string }).code;
    const message = (error as Error).message;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const flag = /'([^']+)'/.exec(message)?.[1] ?? message;
      const guess = closest(flag.replace(/^-+/, '').split('=')[0] ?? '', Object.keys(specs));
      throw new UsageError(`unknown option ${flag}${guess ? ` (did you mean --${guess}?)` : ''}`, see);
    }
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      const arg = /'([^']*)'/.exec(message)?.[1] ?? '';
      throw new UsageError(`unexpected argument "${arg}": every value goes after a flag (such as --prompt "...")`, see);
    }
    if (code?.startsWith('ERR_PARSE_ARGS')) {
      const [first, ...rest] = message.split('\n');
      throw new UsageError(first ?? message, rest.join(' ').trim() || see);
    }
    throw error;
  }
}

/** A flag's value, else its environment variable's (empty counts as unset). */
export function flagOrEnv(values: Values, name: string, spec: OptionSpec, env: NodeJS.ProcessEnv): string | undefined {
  const flag = values[name];
  if (typeof flag === 'string') return flag;
  const fromEnv = spec.env ? env[spec.env] : undefined;
  return fromEnv === undefined || fromEnv === '' ? undefined : fromEnv;
}

/** Where a value came from, for messages: `--timeout` or `MEDIAGW_TIMEOUT`. */
export function sourceOf(values: Values, name: string, spec: OptionSpec): string {
  return typeof values[name] === 'string' || !spec.env ? `--${name}` : spec.env;
}
