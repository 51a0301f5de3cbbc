/**
 * Image-to-video, 1.6 standard, 10 s (spec 2.1, 2.2, 4.1):
 * POST {base}/{video_vendor}/m2v_16_img2video_10s, multipart in, a created task out. Bearer auth.
 */
import * as z from 'zod/v4';
import { joinUrl, type ResolvedConfig } from '../config.js';
import { type FieldIssue, RefusedError } from '../errors.js';
import { checkImage, type ImageSource } from '../image.js';
import { describeRequest, type MultipartPart, type RequestDescription } from '../request.js';
import { conform, type ParseContext, type RawResponse, readJson } from '../response.js';
import { validate } from '../validate.js';
import { exactInteger, show, wireInteger } from './common.js';

export const OPERATION = 'image-to-video';
/** The last path segment: generation 1.6, standard quality, 10-second clip. */
export const IMAGE_TO_VIDEO_ROUTE = 'm2v_16_img2video_10s';
/** The multipart part that carries the image. */
export const IMAGE_FIELD = 'input_image';

const cfg = z
  .number({ error: 'must be a finite number (such as 0.5)' })
  .refine(Number.isFinite, { error: 'must be a finite number (such as 0.5)' });

/** The text fields, typed (the builder's input). Allowed ranges of cfg and aspect_ratio are not shown. */
export const imageToVideoFieldsSchema = z.strictObject({
  prompt: z.string({ error: 'must be a text' }).optional(),
  negative_prompt: z.string({ error: 'must be a text' }).optional(),
  cfg: cfg.optional(),
  aspect_ratio: z
    .string({ error: 'must be a text of the form <width>:<height>' })
    .regex(/^[1-9]\d*:[1-9]\d*$/, {
      error: (issue) =>
        `${show(issue.input)} is not allowed; allowed: <width>:<height> with positive integers, such as 1:1 or 16:9`,
    })
    .optional(),
});

/** The same fields as they arrive in multipart (all strings), for servers such as the emulator. */
export const imageToVideoWireFieldsSchema = imageToVideoFieldsSchema.extend({
  cfg: z
    .string()
    .transform((s, ctx) => {
      const n = s.trim() === '' ? Number.NaN : Number(s);
      if (!Number.isFinite(n))
        ctx.addIssue({ code: 'custom', message: `"${s}" must be a finite number (such as 0.5)` });
      return n;
    })
    .optional(),
});

export type ImageToVideoFields = z.input<typeof imageToVideoFieldsSchema>;
export interface ImageToVideoInput<Handle = unknown> extends ImageToVideoFields {
  input_image: ImageSource<Handle>;
}

/** The fields in the order they go on the wire: text first, so a server can refuse early. */
const TEXT_FIELDS = ['prompt', 'negative_prompt', 'cfg', 'aspect_ratio'] as const;

const timeMs = wireInteger;
export const imageToVideoResponseSchema = z.looseObject({
  data: z.looseObject({
    limitation: z.looseObject({ limit: wireInteger, remaining: wireInteger, type: z.string() }),
    message: z.string(),
    status: z.number().int(),
    task: z.looseObject({
      id: z.union([z.string(), exactInteger('a task id')]),
      status: z.number().int(),
      type: z.string(),
      createTime: timeMs,
      updateTime: timeMs,
      viewTime: timeMs,
      viewed: z.boolean(),
      deleted: z.boolean(),
      favored: z.boolean(),
      taskInfo: z.looseObject({
        arguments: z.array(z.looseObject({ name: z.string(), value: z.string() })),
        extraArgs: z.record(z.string(), z.unknown()),
        inputs: z.array(z.unknown()),
        type: z.string(),
      }),
    }),
    userTickets: z.looseObject({ ticket: z.array(z.unknown()) }),
    works: z.array(z.string()),
  }),
  message: z.string(),
  result: z.number().int(),
  status: z.number().int(),
  timestamp: z.array(z.number().int()),
});

export type ImageToVideoResponse = z.output<typeof imageToVideoResponseSchema>;

/** The spec's success envelope: `status` 200 and `result` 1. */
export const ENVELOPE_OK = { status: 200, result: 1 } as const;
/** Task status of a task that has just been created (spec section 3). */
export const TASK_CREATED = 5;

export interface ImageToVideoResult {
  operation: typeof OPERATION;
  taskId: string;
  /** Task status code (5 = just created; other values are not documented). */
  status: number;
  taskType: string;
  message: string;
  /** `data.task.createTime` as a Date. */
  createdAt: Date;
  /** The envelope `timestamp` array as a Date (read as UTC: the spec states no zone). */
  timestamp: Date | undefined;
  quota: { limit: number; remaining: number; type: string };
  /** Task arguments as a name -> value map (values are strings, as sent). */
  arguments: Record<string, string>;
  response: ImageToVideoResponse;
}

export function buildImageToVideoRequest<H>(config: ResolvedConfig, input: ImageToVideoInput<H>): RequestDescription {
  const { input_image, ...fields } = (input ?? {}) as ImageToVideoInput<H>;
  const issues: FieldIssue[] = [];
  if (!input_image) issues.push({ field: IMAGE_FIELD, message: 'is required: an image file (PNG, JPEG, ...)' });
  const image = input_image ? checkImage(IMAGE_FIELD, input_image, issues) : undefined;
  const text = validate(imageToVideoFieldsSchema, fields, OPERATION, issues);

  const parts: MultipartPart[] = [];
  for (const name of TEXT_FIELDS) {
    const value = text[name];
    if (value !== undefined) parts.push({ name, value: String(value) });
  }
  if (image) {
    parts.push({
      name: IMAGE_FIELD,
      image,
      filename: image.name || `image.${image.extension}`,
      contentType: image.mime,
    });
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  return describeRequest({
    operation: OPERATION,
    method: 'POST',
    url: joinUrl(config, config.videoVendor, IMAGE_TO_VIDEO_ROUTE),
    headers,
    auth: { type: 'bearer' },
    body: { type: 'multipart', parts },
    warnings: [],
  });
}

/** `[year, month, day, hour, minute, second, nanoseconds]` -> Date (UTC), or undefined if malformed. */
export function timestampToDate(parts: readonly number[]): Date | undefined {
  const [y, mo, d, h = 0, mi = 0, s = 0, ns = 0] = parts;
  if (y === undefined || mo === undefined || d === undefined) return undefined;
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s, Math.floor(ns / 1e6)));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

const envelopeSchema = z.looseObject({ status: z.unknown(), result: z.unknown(), message: z.unknown() });

export function parseImageToVideoResponse(
  raw: RawResponse,
  ctx: Omit<ParseContext, 'operation'> = {},
): ImageToVideoResult {
  const context = { ...ctx, operation: OPERATION } as const;
  const json = readJson(raw, context);
  const envelope = envelopeSchema.safeParse(json);
  if (
    envelope.success &&
    (envelope.data.status !== ENVELOPE_OK.status || envelope.data.result !== ENVELOPE_OK.result)
  ) {
    const { status, result, message } = envelope.data;
    if (status !== undefined || result !== undefined) {
      throw new RefusedError({
        operation: OPERATION,
        status: raw.status,
        gatewayCode: typeof status === 'number' ? status : typeof result === 'number' ? result : undefined,
        gatewayMessage:
          typeof message === 'string' && message
            ? message
            : `envelope status ${String(status)}, result ${String(result)}`,
      });
    }
  }
  const response = conform(json, imageToVideoResponseSchema, raw, context);
  const task = response.data.task;
  return {
    operation: OPERATION,
    taskId: task.id,
    status: task.status,
    taskType: task.type,
    message: response.message,
    createdAt: new Date(Number(task.createTime)),
    timestamp: timestampToDate(response.timestamp),
    quota: {
      limit: Number(response.data.limitation.limit),
      remaining: Number(response.data.limitation.remaining),
      type: response.data.limitation.type,
    },
    arguments: Object.fromEntries(task.taskInfo.arguments.map((a) => [a.name, a.value])),
    response,
  };
}
