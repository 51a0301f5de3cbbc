/**
 * Text-to-video (spec 2.3, 2.4, 4.2): POST {base}/{service_prefix}/submit/{text_video_model},
 * JSON in, a finished video reference out. Bearer auth.
 */
import * as z from 'zod/v4';
import { checkSegment, joinUrl, type ResolvedConfig } from '../config.js';
import { RefusedError } from '../errors.js';
import { rawInteger } from '../json.js';
import { describeRequest, type RequestDescription } from '../request.js';
import { conform, type ParseContext, type RawResponse, readJson, requestIdOf } from '../response.js';
import { validate } from '../validate.js';
import { exactInteger, show, wireInteger } from './common.js';

export const OPERATION = 'text-to-video';

/** Fewer words than this draws a warning: the spec says a short prompt gives poor results. */
export const SHORT_PROMPT_WORDS = 5;

/** The spec's limits (sections 2.3 and 8), for the schema below and for UIs (n8n's typeOptions). */
export const TEXT_TO_VIDEO_RANGES = {
  num_inference_steps: { min: 1, max: 50 },
  guidance_scale: { min: 2, max: 10 },
} as const;
const { num_inference_steps: STEPS, guidance_scale: GUIDANCE } = TEXT_TO_VIDEO_RANGES;

/** The request body exactly as the gateway reads it (also used by the emulator). */
export const textToVideoRequestSchema = z.strictObject({
  prompt: z
    .string({ error: 'is required: a non-empty text (a detailed description works best)' })
    .refine((s) => s.trim().length > 0, {
      error: 'is empty; give a non-empty text (a detailed description works best)',
    }),
  negative_prompt: z.string({ error: 'must be a text' }).optional(),
  num_inference_steps: z
    .number({ error: `must be an integer from ${STEPS.min} to ${STEPS.max}` })
    .refine((n) => Number.isInteger(n) && n >= STEPS.min && n <= STEPS.max, {
      error: (issue) => `${show(issue.input)} is not allowed; allowed: an integer from ${STEPS.min} to ${STEPS.max}`,
    })
    .optional(),
  guidance_scale: z
    .number({ error: `must be a number from ${GUIDANCE.min} to ${GUIDANCE.max}` })
    .refine((n) => Number.isFinite(n) && n >= GUIDANCE.min && n <= GUIDANCE.max, {
      error: (issue) =>
        `${show(issue.input)} is not allowed; allowed: a number from ${GUIDANCE.min} to ${GUIDANCE.max}`,
    })
    .optional(),
  seed: exactInteger('an integer').optional(),
});

export type TextToVideoRequest = z.input<typeof textToVideoRequestSchema>;

export interface TextToVideoInput extends TextToVideoRequest {
  /** Overrides the configured `{text_video_model}` path segment for this call. */
  model?: string | undefined;
}

export const textToVideoResponseSchema = z.looseObject({
  video: z.looseObject({
    url: z.string(),
    content_type: z.string(),
    file_size: wireInteger,
  }),
  seed: exactInteger('an integer'),
  status: z.string(),
  request_id: z.string(),
});

export type TextToVideoResponse = z.output<typeof textToVideoResponseSchema>;

export interface TextToVideoResult {
  operation: typeof OPERATION;
  /** Completion state text (`COMPLETED`). */
  status: string;
  videoUrl: string;
  contentType: string;
  fileSize: number;
  /** The seed used, as exact decimal digits. */
  seed: string;
  requestId: string;
  /** The parsed answer, unknown fields kept. */
  response: TextToVideoResponse;
}

/** Statuses that mean the video is ready. The spec shows only `COMPLETED`. */
export const COMPLETED_STATUSES: ReadonlySet<string> = new Set(['COMPLETED']);

export function buildTextToVideoRequest(config: ResolvedConfig, input: TextToVideoInput): RequestDescription {
  const { model, ...fields } = (input ?? {}) as TextToVideoInput;
  const segmentIssues: { field: string; message: string }[] = [];
  const modelSegment = model ?? config.textVideoModel;
  if (model !== undefined) checkSegment('model', model, segmentIssues);
  const body = validate(textToVideoRequestSchema, fields, OPERATION, segmentIssues);

  const warnings: string[] = [];
  const words = body.prompt.trim().split(/\s+/).length;
  if (words < SHORT_PROMPT_WORDS) {
    warnings.push(
      `prompt has ${words} word(s); the gateway gives poor results for short prompts, describe the scene in detail`,
    );
  }
  const wire = { ...body, ...(body.seed === undefined ? {} : { seed: rawInteger(body.seed) }) };
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  return describeRequest({
    operation: OPERATION,
    method: 'POST',
    url: joinUrl(config, config.servicePrefix, 'submit', modelSegment),
    headers,
    auth: { type: 'bearer' },
    body: { type: 'json', contentType: 'application/json', text: JSON.stringify(wire) },
    warnings,
  });
}

export function parseTextToVideoResponse(
  raw: RawResponse,
  ctx: Omit<ParseContext, 'operation'> = {},
): TextToVideoResult {
  const context = { ...ctx, operation: OPERATION } as const;
  const response = conform(readJson(raw, context), textToVideoResponseSchema, raw, context);
  if (!COMPLETED_STATUSES.has(response.status)) {
    throw new RefusedError({
      operation: OPERATION,
      status: raw.status,
      gatewayCode: response.status,
      gatewayMessage: `the gateway answered status "${response.status}", not COMPLETED`,
      requestId: response.request_id,
    });
  }
  return {
    operation: OPERATION,
    status: response.status,
    videoUrl: response.video.url,
    contentType: response.video.content_type,
    fileSize: Number(response.video.file_size),
    seed: response.seed,
    requestId: response.request_id || requestIdOf(raw.headers) || '',
    response,
  };
}
