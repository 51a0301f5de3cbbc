/**
 * Command-line parsing on `node:util` parseArgs: strict, no dependency, and the same parser Node
 * itself maintains. This module turns its errors into plain usage messages and reads numbers.
 */
import { parseArgs } from 'node:util';

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

/** `notifyHook` -> `notify-hook`, `num_inference_steps` -> `num-inference-steps`. The one spelling rule. */
export function kebabCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/_/g, '-')
    .toLowerCase();
}

/** `videoVendor` -> `MEDIAGW_VIDEO_VENDOR`. */
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

/** Parses `argv` against `specs`; parse failures become UsageErrors naming the flag. */
export function parseOptions(argv: readonly string[], specs: OptionSpecs, helpCommand: string): Values {
  const options = Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [
      name,
      { type: spec.type, ...(spec.multiple ? { multiple: true } : {}), ...(spec.short ? { short: spec.short } : {}) },
    ]),
  );
  try {
    const { values, tokens } = parseArgs({
      args: [...argv],
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
        throw new UsageError(`--${name} is given ${count} times; it takes one value`, `See: ${helpCommand} --help`);
      }
    }
    return values as Values;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as { code?: string }).code;
    const message = (error as Error).message;
    const see = `See: ${helpCommand} --help`;
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

/** A number with an error that names the flag. */
export function parseNumber(text: string, label: string, rule?: { integer?: boolean; min?: number }): number {
  const trimmed = text.trim();
  const n = trimmed === '' ? Number.NaN : Number(trimmed);
  const what = rule?.integer ? 'a whole number' : 'a number';
  if (!Number.isFinite(n)) throw new UsageError(`${label}: "${text}" is not ${what}`);
  if (rule?.integer && !Number.isInteger(n)) throw new UsageError(`${label}: "${text}" is not ${what}`);
  if (rule?.min !== undefined && n < rule.min) {
    throw new UsageError(`${label}: ${text} is too small; allowed: ${rule.min} or more`);
  }
  return n;
}
