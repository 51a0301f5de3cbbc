/**
 * The request as the gateway reads it, for servers (the emulator) and for adapters that take text
 * (CLI flags, Action inputs): the same field rules, applied to what arrives on the wire.
 */
import * as z from 'zod/v4';
import type { FieldIssue } from './errors/index.js';
import { type FieldSpec, fromText, schemaOf } from './fields.js';
import { checkDataUri } from './image.js';
import { type AnyOperation, bodyFieldNames } from './operation.js';

/**
 * The JSON body schema: the body fields (strict) and, for data-URI images, the list of URIs whose
 * bytes must be images of the declared type.
 */
export function jsonBodySchema(op: AnyOperation): z.ZodType<Record<string, unknown>> {
  const shape: Record<string, z.ZodType> = {};
  for (const name of bodyFieldNames(op)) shape[name] = schemaOf(op.fields[name] as FieldSpec);
  const images = op.images;
  if (images?.encoding === 'data-uri') {
    const list = z.array(z.string(), { error: 'is required: a list of image data URIs' }).min(1, {
      error: 'is empty; give at least one image',
    });
    shape[images.field] = images.many ? list : z.string({ error: 'is required: an image data URI' });
  }
  return z.strictObject(shape).superRefine((body, ctx) => {
    if (images?.encoding !== 'data-uri') return;
    const value = body[images.field];
    const uris = Array.isArray(value) ? value : [value];
    const issues: FieldIssue[] = [];
    uris.forEach((uri, i) => {
      checkDataUri(images.many ? `${images.field}[${i}]` : images.field, uri, issues);
    });
    for (const issue of issues) ctx.addIssue({ code: 'custom', message: issue.message, path: [issue.field] });
  }) as unknown as z.ZodType<Record<string, unknown>>;
}

/**
 * Field values from text (flags, inputs, multipart parts), by wire name: numbers read in decimal
 * notation, digits kept; names the operation does not have are left for the schema to refuse.
 */
export function fieldsFromText(
  op: AnyOperation,
  texts: Readonly<Record<string, string>>,
): { values: Record<string, unknown>; issues: FieldIssue[] } {
  const values: Record<string, unknown> = {};
  const issues: FieldIssue[] = [];
  for (const [name, text] of Object.entries(texts)) {
    const spec = op.fields[name];
    if (!spec) {
      values[name] = text;
      continue;
    }
    const read = fromText(spec, text);
    if ('value' in read) values[name] = read.value;
    else issues.push({ field: name, message: read.message });
  }
  return { values, issues };
}
