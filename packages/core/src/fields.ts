/**
 * Fields, declared once with what every surface needs: the wire name (the key), the kind, whether it
 * is required, its range or choices, a one-line description and a UI label. From a declaration come
 * the zod schema (with messages that say what is allowed), the rule shown in help texts, and the
 * reading of text input (CLI flags, Action inputs, multipart parts) in one way for all.
 */
import * as z from 'zod/v4';
import { isSegment, type RouteSetting, SEGMENT_RULE } from './route.js';
import { show, titleCase } from './text.js';

interface Common {
  /** One line: what the field is for (help texts, Action inputs, n8n descriptions). */
  readonly description: string;
  readonly required?: boolean;
  /** The label UIs show (default: the name in Title Case). */
  readonly label?: string;
  /** An example value for placeholders. */
  readonly example?: string;
  /** A typical value UIs may pre-fill when the user adds the field; never sent unless chosen. */
  readonly suggested?: string | number;
  /** A non-fatal remark about a valid value (a short prompt, ...). */
  readonly warn?: (value: never) => string | undefined;
}
export interface TextField extends Common {
  readonly kind: 'text';
  readonly nonEmpty?: boolean;
  readonly format?: { readonly pattern: RegExp; readonly rule: string };
  /** Multi-line in UIs. */
  readonly long?: boolean;
}
export interface NumberField extends Common {
  readonly kind: 'number' | 'integer';
  readonly min?: number;
  readonly max?: number;
}
/** An integer of any size, kept as its decimal digits (a seed beyond 2^53). */
export interface DigitsField extends Common {
  readonly kind: 'digits';
}
export interface ChoiceField extends Common {
  readonly kind: 'choice';
  readonly choices: readonly [string, ...string[]];
}
export interface UrlField extends Common {
  readonly kind: 'url';
}
/** Not sent in the body: replaces the route setting it names for this call (the text-to-video model). */
export interface SegmentField extends Common {
  readonly kind: 'segment';
  readonly setting: RouteSetting;
}
export type FieldSpec = TextField | NumberField | DigitsField | ChoiceField | UrlField | SegmentField;
export type FieldSpecs = Readonly<Record<string, FieldSpec>>;

/** The value a caller gives for a field. */
export type FieldValue<F> = F extends { kind: 'choice'; choices: readonly (infer C)[] }
  ? C
  : F extends { kind: 'number' | 'integer' }
    ? number
    : F extends { kind: 'digits' }
      ? string | number | bigint
      : string;
type RequiredKeys<Fs> = { [K in keyof Fs]: Fs[K] extends { required: true } ? K : never }[keyof Fs];
/** The input object of a set of fields: required ones required, the rest optional. */
export type FieldsInput<Fs> = { [K in RequiredKeys<Fs>]: FieldValue<Fs[K]> } & {
  [K in Exclude<keyof Fs, RequiredKeys<Fs>>]?: FieldValue<Fs[K]> | undefined;
};

/** Declaration helpers that keep literal types (`required: true`, the choices). */
export const field = {
  text: <const O extends Omit<TextField, 'kind'>>(o: O) => ({ kind: 'text', ...o }) as const,
  number: <const O extends Omit<NumberField, 'kind'>>(o: O) => ({ kind: 'number', ...o }) as const,
  integer: <const O extends Omit<NumberField, 'kind'>>(o: O) => ({ kind: 'integer', ...o }) as const,
  digits: <const O extends Omit<DigitsField, 'kind'>>(o: O) => ({ kind: 'digits', ...o }) as const,
  choice: <const O extends Omit<ChoiceField, 'kind'>>(o: O) => ({ kind: 'choice', ...o }) as const,
  url: <const O extends Omit<UrlField, 'kind'>>(o: O) => ({ kind: 'url', ...o }) as const,
  segment: <const O extends Omit<SegmentField, 'kind'>>(o: O) => ({ kind: 'segment', ...o }) as const,
};

export function labelOf(name: string, spec: FieldSpec): string {
  return spec.label ?? titleCase(name);
}

function range(noun: string, min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `${noun} from ${min} to ${max}`;
  if (min !== undefined) return `${noun} of at least ${min}`;
  if (max !== undefined) return `${noun} of at most ${max}`;
  return noun;
}

/** What a field allows, in words (`an integer from 1 to 50`): for messages and help texts. */
export function ruleOf(spec: FieldSpec): string {
  switch (spec.kind) {
    case 'text':
      return spec.format?.rule ?? (spec.nonEmpty ? 'a non-empty text' : 'a text');
    case 'number':
      return `${range('a number', spec.min, spec.max)}${spec.example ? ` (such as ${spec.example})` : ''}`;
    case 'integer':
      return range('an integer', spec.min, spec.max);
    case 'digits':
      return 'an integer, every digit kept however long';
    case 'choice':
      return `one of ${spec.choices.join(', ')} (exact case)`;
    case 'url':
      return 'an absolute http(s) URL';
    case 'segment':
      return `a path segment: ${SEGMENT_RULE}`;
  }
}

/** The integer as decimal digits, or an error message. Safe numbers, bigints and digit strings. */
export function exactDigits(value: unknown, what = 'an integer'): { digits: string } | { message: string } {
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) return { digits: String(value) };
    return {
      message: Number.isInteger(value)
        ? `must be ${what}; ${value} is beyond 2^53, give it as a string to keep every digit`
        : `must be ${what}, got ${value}`,
    };
  }
  if (typeof value === 'bigint') return { digits: value.toString() };
  if (typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value)) return { digits: BigInt(value.trim()).toString() };
  return { message: `must be ${what}, got ${show(value)}` };
}

const notAllowed = (rule: string) => (issue: { input?: unknown }) =>
  `${show(issue.input)} is not allowed; allowed: ${rule}`;

function isAbsoluteHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The zod schema of one field (optional unless required), its messages naming the rule. */
export function schemaOf(spec: FieldSpec): z.ZodType {
  const rule = ruleOf(spec);
  const typeError = (issue: { input?: unknown }) =>
    issue.input === undefined ? `is required: ${rule}` : `must be ${rule}`;
  let schema: z.ZodType;
  switch (spec.kind) {
    case 'text': {
      let text: z.ZodType<string> = z.string({ error: typeError });
      if (spec.nonEmpty) text = text.refine((s) => s.trim() !== '', { error: `is empty; give ${rule}` });
      const format = spec.format;
      if (format) text = text.refine((s) => format.pattern.test(s), { error: notAllowed(rule) });
      schema = text;
      break;
    }
    case 'number':
    case 'integer': {
      const { min = -Infinity, max = Infinity } = spec;
      const whole = spec.kind === 'integer';
      schema = z
        .number({ error: typeError })
        .refine((n) => Number.isFinite(n) && (!whole || Number.isInteger(n)) && n >= min && n <= max, {
          error: notAllowed(rule),
        });
      break;
    }
    case 'digits':
      // One transform instead of a union: unions try each branch and are the slow path of zod.
      schema = z.unknown().transform((value, ctx) => {
        if (value === undefined) {
          ctx.addIssue({ code: 'custom', message: `is required: ${rule}` });
          return z.NEVER;
        }
        const read = exactDigits(value);
        if ('digits' in read) return read.digits;
        ctx.addIssue({ code: 'custom', message: read.message });
        return z.NEVER;
      });
      break;
    case 'choice':
      schema = z.enum(spec.choices, {
        error: (issue) => (issue.input === undefined ? `is required: ${rule}` : notAllowed(rule)(issue)),
      });
      break;
    case 'url':
      schema = z.string({ error: typeError }).refine(isAbsoluteHttpUrl, { error: notAllowed(rule) });
      break;
    case 'segment':
      schema = z.string({ error: typeError }).refine(isSegment, { error: notAllowed(rule) });
      break;
  }
  return spec.required ? schema : schema.optional();
}

/** A strict object schema of the fields (unknown keys are refused, naming the allowed ones). */
export function objectSchemaOf(fields: FieldSpecs): z.ZodObject {
  return z.strictObject(Object.fromEntries(Object.entries(fields).map(([name, spec]) => [name, schemaOf(spec)])));
}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * A field's value from text (a flag, an input, a multipart part): numbers in decimal notation only
 * (no hex, no exponent, no blanks), digits kept as text; anything else as given. The schema then
 * judges the value as it would any other.
 */
export function fromText(spec: FieldSpec, text: string): { value: unknown } | { message: string } {
  const t = text.trim();
  if (spec.kind === 'number' || spec.kind === 'integer') {
    if (!DECIMAL.test(t))
      return { message: `${show(text)} is not a number in decimal notation; allowed: ${ruleOf(spec)}` };
    return { value: Number(t) };
  }
  if (spec.kind === 'digits') {
    if (!/^[+-]?\d+$/.test(t)) return { message: `${show(text)} is not allowed; allowed: ${ruleOf(spec)}` };
    return { value: t.replace(/^\+/, '') };
  }
  return { value: text };
}
