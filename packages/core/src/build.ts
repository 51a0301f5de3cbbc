/**
 * Typed input -> a request description, for any operation: the route from its template, the auth
 * header of its style, the fields checked by their schema, the images sniffed, and the body as
 * JSON text, JSON segments (images streamed as base64 data URIs) or multipart parts.
 */
import type { ResolvedConfig } from './config.js';
import type { FieldIssue } from './errors/index.js';
import type { FieldSpec } from './fields.js';
import { checkDataUri, checkImage, type ImageSource, type SniffedImage } from './image.js';
import { rawInteger } from './json.js';
import { type AnyOperation, bodyFieldNames, type ImagesSpec, type InputOf } from './operation.js';
import {
  type AuthHeader,
  type BodySegment,
  describeRequest,
  type MultipartPart,
  type RequestBody,
  type RequestDescription,
} from './request.js';
import { type RouteSetting, routePath } from './route.js';
import { validate } from './validate.js';

type Image = SniffedImage | string;

/** Sniffs every image (or checks each ready data URI); problems become issues naming the item. */
function checkImages(spec: ImagesSpec, given: unknown, issues: FieldIssue[]): Image[] {
  const list = spec.many ? given : given === undefined ? [] : [given];
  if (!Array.isArray(list) || list.length === 0) {
    const what = spec.many ? 'at least one image' : 'an image file (PNG, JPEG, ...)';
    issues.push({ field: spec.field, message: `is required: ${what}` });
    return [];
  }
  const images: Image[] = [];
  list.forEach((item: unknown, i) => {
    const field = spec.many ? `${spec.field}[${i}]` : spec.field;
    if (typeof item === 'string' && spec.encoding === 'data-uri') {
      checkDataUri(field, item, issues);
      images.push(item);
    } else {
      const image = checkImage(field, item as ImageSource, issues);
      if (image) images.push(image);
    }
  });
  return images;
}

/** The field values as they go on the wire: exact-digit integers written as JSON numbers. */
function wireObject(op: AnyOperation, values: Record<string, unknown>): Record<string, unknown> {
  const wire: Record<string, unknown> = {};
  for (const name of bodyFieldNames(op)) {
    const value = values[name];
    if (value !== undefined) wire[name] = op.fields[name]?.kind === 'digits' ? rawInteger(String(value)) : value;
  }
  return wire;
}

function jsonBody(op: AnyOperation, values: Record<string, unknown>, images: Image[]): RequestBody {
  const tail = JSON.stringify(wireObject(op, values));
  if (!op.images) return { type: 'json', contentType: 'application/json', text: tail };
  // {"<images>":["data:<mime>;base64,<...>", ...],<other fields>}
  const segments: BodySegment[] = [`{${JSON.stringify(op.images.field)}:[`];
  images.forEach((image, i) => {
    const sep = i === 0 ? '' : ',';
    if (typeof image === 'string') segments.push(sep + JSON.stringify(image));
    else segments.push(`${sep}"data:${image.mime};base64,`, { image, encoding: 'base64' }, '"');
  });
  segments.push(tail === '{}' ? ']}' : `],${tail.slice(1)}`);
  return { type: 'json-segments', contentType: 'application/json', segments };
}

/** Text fields first, in declared order (a server can refuse early), then the image parts. */
function multipartBody(op: AnyOperation, values: Record<string, unknown>, images: Image[]): RequestBody {
  const parts: MultipartPart[] = [];
  for (const name of bodyFieldNames(op)) {
    const value = values[name];
    if (value !== undefined) parts.push({ name, value: String(value) });
  }
  for (const image of images) {
    if (typeof image === 'string') continue;
    parts.push({
      name: op.images?.field ?? 'file',
      image,
      filename: image.name || `image.${image.extension}`,
      contentType: image.mime,
    });
  }
  return { type: 'multipart', parts };
}

function warningsOf(op: AnyOperation, values: Record<string, unknown>, images: Image[]): string[] {
  const warnings: string[] = [];
  for (const [name, spec] of Object.entries(op.fields) as [string, FieldSpec][]) {
    const value = values[name];
    const remark = value === undefined ? undefined : spec.warn?.(value as never);
    if (remark) warnings.push(`${name}: ${remark}`);
  }
  const below = op.images?.warnBelow;
  if (below !== undefined && images.length > 0 && images.length < below) {
    warnings.push(`${op.name} got ${images.length} image(s); it usually takes ${below} or more`);
  }
  return warnings;
}

/** Builds the request of an operation, or throws a ValidationError naming every bad field. */
export function buildRequest<Op extends AnyOperation>(
  op: Op,
  config: ResolvedConfig,
  input: InputOf<Op, ImageSource | string>,
): RequestDescription {
  const given = { ...((input ?? {}) as Record<string, unknown>) };
  const issues: FieldIssue[] = [];
  let images: Image[] = [];
  if (op.images) {
    images = checkImages(op.images, given[op.images.field], issues);
    delete given[op.images.field];
  }
  const values = validate(op.schema, given, op.name, issues) as Record<string, unknown>;

  const overrides: Partial<Record<RouteSetting, string>> = {};
  for (const [name, spec] of Object.entries(op.fields) as [string, FieldSpec][]) {
    if (spec.kind === 'segment' && typeof values[name] === 'string') overrides[spec.setting] = values[name] as string;
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  if (op.body === 'json') headers['content-type'] = 'application/json';
  const auth: AuthHeader =
    op.auth === 'bearer' ? { type: 'bearer' } : { type: 'header', name: config.secretHeader.toLowerCase() };
  if (config.apiKey) {
    if (auth.type === 'bearer') headers.authorization = `Bearer ${config.apiKey}`;
    else headers[auth.name] = config.apiKey;
  }
  return describeRequest({
    operation: op.name,
    method: 'POST',
    url: `${config.baseUrl}/${routePath(op.route, config, overrides)}`,
    headers,
    auth,
    body: op.body === 'json' ? jsonBody(op, values, images) : multipartBody(op, values, images),
    warnings: warningsOf(op, values, images),
  });
}
