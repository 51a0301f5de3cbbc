/**
 * Flags from an operation's descriptor: one per field (`--kebab-case` of the wire name, by the
 * core's rule), its placeholder from the field's kind, its help from the field's description and
 * the core's `ruleOf`; `--image` from the images spec. Text is read the core's one way
 * (`fieldsFromText`: decimal numbers only, digits kept), then judged by the operation's schema.
 */
import {
  type AnyOperation,
  type FieldSpec,
  fieldsFromText,
  fromText,
  kebabCase,
  ruleOf,
  schemaOf,
  ValidationError,
  validate,
} from '@mediagw/core';
import type { OptionSpecs, Values } from './args.js';

const PLACEHOLDER: Record<FieldSpec['kind'], string> = {
  text: 'TEXT',
  number: 'NUMBER',
  integer: 'N',
  digits: 'N',
  choice: 'CHOICE',
  url: 'URL',
  segment: 'SEGMENT',
};

/** The value placeholder of a field's flag, by its kind. */
export const placeholderOf = (spec: FieldSpec) => PLACEHOLDER[spec.kind];

/** The help line of a field: what it is for, then what it allows (`more steps: ...; an integer from 1 to 50`). */
export function fieldHelp(spec: FieldSpec): string {
  return `${spec.required ? 'required: ' : ''}${spec.description}; ${ruleOf(spec)}`;
}

/** A setting of the CLI's own (a timeout, a port) declared like a field, for one way of reading text. */
export function settingOption(spec: FieldSpec, extra: { env?: string; value?: string } = {}) {
  return { type: 'string', value: placeholderOf(spec), help: fieldHelp(spec), ...extra } as const;
}

/** The flag of an operation's field, by wire name. */
export const flagName = (wire: string) => kebabCase(wire);

/** `--image` (repeatable where the operation takes many), then one flag per field. */
export function fieldOptions(op: AnyOperation): OptionSpecs {
  const options: OptionSpecs = {};
  if (op.images) {
    const many = op.images.many;
    options.image = {
      type: 'string',
      multiple: many,
      value: 'PATH',
      help: `required: ${op.images.description}${many ? '; repeat the flag for each image' : ''}`,
    };
  }
  for (const [wire, spec] of Object.entries(op.fields)) {
    options[flagName(wire)] = { type: 'string', value: placeholderOf(spec), help: fieldHelp(spec) };
  }
  return options;
}

/**
 * The operation's input from the flags: fields read from text and checked by the operation's
 * schema (a ValidationError naming each bad field by its wire name), images as the paths given.
 */
export function readInput(op: AnyOperation, values: Values): Record<string, unknown> {
  const texts: Record<string, string> = {};
  for (const wire of Object.keys(op.fields)) {
    const value = values[flagName(wire)];
    if (typeof value === 'string') texts[wire] = value;
  }
  const { values: read, issues } = fieldsFromText(op, texts);
  const input = { ...validate(op.schema, read, op.name, issues) } as Record<string, unknown>;
  for (const key of Object.keys(input)) if (input[key] === undefined) delete input[key];
  if (op.images) {
    const image = values.image;
    if (image !== undefined) input[op.images.field] = image;
  }
  return input;
}

/** A value of a setting read as the core reads field text; the error names where it came from. */
export function readSetting<T = number>(spec: FieldSpec, text: string, label: string): T {
  const read = fromText(spec, text);
  const checked = 'value' in read ? schemaOf(spec).safeParse(read.value) : undefined;
  if (checked?.success) return checked.data as T;
  const message = 'message' in read ? read.message : (checked?.error?.issues[0]?.message ?? 'is not allowed');
  throw new ValidationError([{ field: label, message }]);
}
