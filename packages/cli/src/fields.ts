/**
 * Operation flags, derived from the core's schemas: one flag per wire field, in kebab-case.
 * Nothing here names a field, a range or an enum value: the kind of each flag (text or number),
 * whether it is required and the rule shown in `--help` all come from asking the schema itself.
 */
import { kebabCase, type OptionSpecs, parseNumber, UsageError, type Values } from './args.js';

interface ParseOutcome {
  success: boolean;
  error?: { issues: readonly { code: string; message: string }[] } | undefined;
}
/** What the CLI needs of a zod schema: `safeParse` (its public API), nothing internal. */
export interface FieldSchema {
  safeParse(value: unknown): ParseOutcome;
}
export interface ObjectSchema {
  shape: Record<string, FieldSchema>;
}

export interface FieldFlag {
  /** The wire name (`num_inference_steps`). */
  wire: string;
  /** The flag (`num-inference-steps`). */
  flag: string;
  /** Numbers are parsed here; text and exact-digit integers (`seed`, any size) pass as given. */
  kind: 'text' | 'number' | 'digits';
  required: boolean;
  /** The rule the core enforces, in its own words (`an integer from 1 to 50`). */
  rule: string;
}

const firstMessage = (outcome: ParseOutcome) => outcome.error?.issues[0]?.message ?? '';

/** The schema's own rule, read from its message for a value of the wrong kind. */
function ruleOf(schema: FieldSchema, kind: 'text' | 'number'): string {
  const message = firstMessage(schema.safeParse(kind === 'number' ? Number.NaN : null));
  const allowed = message.indexOf('allowed: ');
  if (allowed >= 0) return message.slice(allowed);
  return message.replace(/^(must be|is required:)\s*/, '');
}

export function fieldFlags(schema: ObjectSchema): FieldFlag[] {
  return Object.entries(schema.shape).map(([wire, field]) => {
    // A field that refuses text for its type (not for its content) wants a number.
    const asText = field.safeParse('');
    const typed = asText.error?.issues.some((i) => i.code === 'invalid_type') ? 'number' : 'text';
    // Text that a number also satisfies is an integer, kept as the digits given (a seed beyond 2^53).
    const digits = typed === 'text' && field.safeParse(1).success;
    const required = !field.safeParse(undefined).success;
    const rule = `${ruleOf(field, typed)}${digits ? ', kept as exact digits' : ''}`;
    return { wire, flag: kebabCase(wire), kind: digits ? 'digits' : typed, required, rule };
  });
}

export function fieldOptions(flags: readonly FieldFlag[]): OptionSpecs {
  return Object.fromEntries(
    flags.map((f) => [
      f.flag,
      {
        type: 'string',
        value: f.kind === 'text' ? 'TEXT' : 'N',
        help: `${f.required ? 'required; ' : ''}${f.rule}`,
      },
    ]),
  );
}

/** The flags' values as wire fields (only those given); numbers parsed with errors naming the flag. */
export function readFields(flags: readonly FieldFlag[], values: Values): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const f of flags) {
    const value = values[f.flag];
    if (typeof value !== 'string') {
      if (f.required) throw new UsageError(`--${f.flag} is required: ${f.rule}`);
      continue;
    }
    out[f.wire] = f.kind === 'number' ? parseNumber(value, `--${f.flag}`) : value;
  }
  return out;
}
