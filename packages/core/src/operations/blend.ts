/**
 * Blend (spec 2.5, 2.6, 4.3): POST {base}/{image_relax_prefix}/submit/blend, JSON with images as
 * data URIs in, a task id out. Auth is the secret header with the bare key.
 * The body is described as segments so that large images stream as base64 with a known length.
 */
import * as z from 'zod/v4';
import { joinUrl, type ResolvedConfig } from '../config.js';
import { type FieldIssue, RefusedError } from '../errors.js';
import {
  checkImage,
  decodeBase64Head,
  type ImageSource,
  type SniffedImage,
  sniffImageType,
  splitDataUri,
} from '../image.js';
import { type BodySegment, describeRequest, type RequestDescription } from '../request.js';
import { conform, type ParseContext, type RawResponse, readJson } from '../response.js';
import { validate } from '../validate.js';
import { absoluteHttpUrl, exactInteger, show } from './common.js';

export const OPERATION = 'blend';
export const BLEND_ROUTE = ['submit', 'blend'] as const;
/** The JSON field that carries the images. */
export const IMAGES_FIELD = 'base64Array';

export const BOT_TYPES = ['MAIN_JOURNEY', 'ALT_JOURNEY'] as const;
export const DIMENSIONS = ['PORTRAIT', 'SQUARE', 'LANDSCAPE'] as const;

const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, {
    error: (issue) => `${show(issue.input)} is not allowed; allowed: ${values.join(', ')} (exact case)`,
  });

/** Every field but the images; the same rules serve the builder and the emulator. */
export const blendOptionsSchema = z.strictObject({
  botType: oneOf(BOT_TYPES).optional(),
  dimensions: oneOf(DIMENSIONS).optional(),
  notifyHook: absoluteHttpUrl().optional(),
  state: z.string({ error: 'must be a text' }).optional(),
});

/** A data URI whose bytes really are an image of the type it declares. */
export function checkDataUri(field: string, uri: unknown, issues: FieldIssue[]): void {
  if (typeof uri !== 'string') {
    issues.push({ field, message: 'must be a data URI text: data:<image mime>;base64,<data>' });
    return;
  }
  const parts = splitDataUri(uri);
  if (!parts) {
    issues.push({ field, message: 'is not of the form data:<image mime>;base64,<data>' });
    return;
  }
  let type: ReturnType<typeof sniffImageType>;
  try {
    type = sniffImageType(decodeBase64Head(parts.base64));
  } catch {
    type = undefined;
  }
  if (!type) issues.push({ field, message: `is not an image (declared ${parts.mime}, the bytes match no image type)` });
  else if (type.mime !== parts.mime)
    issues.push({ field, message: `declares ${parts.mime} but its bytes are ${type.mime}` });
}

/** The request body as the gateway reads it (the emulator validates with this). */
export const blendRequestSchema = blendOptionsSchema
  .extend({
    base64Array: z.array(z.string(), { error: 'is required: a list of image data URIs' }).min(1, {
      error: 'is empty; give at least one image',
    }),
  })
  .superRefine((body, ctx) => {
    const issues: FieldIssue[] = [];
    body.base64Array.forEach((uri, i) => {
      checkDataUri(`${IMAGES_FIELD}[${i}]`, uri, issues);
    });
    for (const issue of issues) ctx.addIssue({ code: 'custom', message: issue.message, path: [issue.field] });
  });

export type BlendOptions = z.input<typeof blendOptionsSchema>;
export interface BlendInput<Handle = unknown> extends BlendOptions {
  /** Images: sources the core encodes as data URIs, or ready data URI strings. */
  base64Array: readonly (ImageSource<Handle> | string)[];
}

export const blendResponseSchema = z.looseObject({
  code: z.number().int(),
  description: z.string().optional(),
  properties: z.record(z.string(), z.unknown()).optional(),
  result: z.union([z.string(), exactInteger('a task id')]).optional(),
});
export type BlendResponse = z.output<typeof blendResponseSchema>;

export interface BlendResult {
  operation: typeof OPERATION;
  /** The task id as exact digits (undefined if the gateway sent none: the spec marks it optional). */
  taskId: string | undefined;
  /** The gateway's `code` (1 = accepted). */
  status: number;
  description: string | undefined;
  /** 200 or 201. */
  httpStatus: number;
  response: BlendResponse;
}

export function buildBlendRequest<H>(config: ResolvedConfig, input: BlendInput<H>): RequestDescription {
  const { base64Array, ...rest } = (input ?? {}) as BlendInput<H>;
  const issues: FieldIssue[] = [];
  const images: (SniffedImage<H> | string | undefined)[] = [];
  if (!Array.isArray(base64Array) || base64Array.length === 0) {
    issues.push({ field: IMAGES_FIELD, message: 'is required: at least one image' });
  } else {
    base64Array.forEach((item, i) => {
      const field = `${IMAGES_FIELD}[${i}]`;
      if (typeof item === 'string') {
        checkDataUri(field, item, issues);
        images.push(item);
      } else images.push(checkImage(field, item, issues));
    });
  }
  const options = validate(blendOptionsSchema, rest, OPERATION, issues);

  // {"base64Array":["data:<mime>;base64,<...>", ...],<other fields>}
  const segments: BodySegment[] = [`{"${IMAGES_FIELD}":[`];
  images.forEach((image, i) => {
    const sep = i === 0 ? '' : ',';
    if (typeof image === 'string') segments.push(sep + JSON.stringify(image));
    else if (image) segments.push(`${sep}"data:${image.mime};base64,`, { image, encoding: 'base64' }, '"');
  });
  const tail = JSON.stringify(options);
  segments.push(tail === '{}' ? ']}' : `],${tail.slice(1)}`);

  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (config.apiKey) headers[config.secretHeader.toLowerCase()] = config.apiKey;
  return describeRequest({
    operation: OPERATION,
    method: 'POST',
    url: joinUrl(config, config.imageRelaxPrefix, ...BLEND_ROUTE),
    headers,
    auth: { type: 'header', name: config.secretHeader },
    body: { type: 'json-segments', contentType: 'application/json', segments },
    warnings: images.length === 1 ? ['blend got one image; blending usually takes two or more'] : [],
  });
}

export interface BlendParseContext extends Omit<ParseContext, 'operation'> {
  /** `code` values that count as accepted (default `[1]`). */
  acceptedCodes?: readonly number[];
}

export function parseBlendResponse(raw: RawResponse, ctx: BlendParseContext = {}): BlendResult {
  const context = { ...ctx, operation: OPERATION } as const;
  const response = conform(readJson(raw, context), blendResponseSchema, raw, context);
  const accepted = ctx.acceptedCodes ?? [1];
  if (!accepted.includes(response.code)) {
    throw new RefusedError({
      operation: OPERATION,
      status: raw.status,
      gatewayCode: response.code,
      gatewayMessage: response.description || `code ${response.code} (accepted: ${accepted.join(', ')})`,
    });
  }
  return {
    operation: OPERATION,
    taskId: response.result,
    status: response.code,
    description: response.description,
    httpStatus: raw.status,
    response,
  };
}
