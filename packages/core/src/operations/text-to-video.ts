/**
 * Text-to-video (spec 2.3, 2.4, 4.2): POST {base}/{service_prefix}/submit/{text_video_model},
 * JSON in, a finished video reference out. Bearer auth. The answer is useful with `video.url`.
 */
import * as z from 'zod/v4';
import { field } from '../fields.js';
import { defineOperation } from '../operation.js';
import { requestIdOf } from '../response.js';
import { at, idText, integer, text, wireInteger } from './common.js';

/** Fewer words than this draws a warning: the spec says a short prompt gives poor results. */
export const SHORT_PROMPT_WORDS = 5;

/** Statuses that mean the video is ready. The spec shows only `COMPLETED`. */
export const COMPLETED_STATUSES: ReadonlySet<string> = new Set(['COMPLETED']);

/** Matches any prompt of at least SHORT_PROMPT_WORDS words, without splitting it (checked on every call). */
const LONG_ENOUGH = new RegExp(`^\\s*(\\S+\\s+){${SHORT_PROMPT_WORDS - 1}}\\S`);

function shortPrompt(prompt: string): string | undefined {
  if (LONG_ENOUGH.test(prompt)) return undefined;
  const words = prompt.trim().split(/\s+/).length;
  return `${words} word(s); the gateway gives poor results for short prompts, describe the scene in detail`;
}

export interface TextToVideoResult {
  /** Completion state text (`COMPLETED`; undefined if the answer gave none). */
  status: string | undefined;
  videoUrl: string;
  contentType: string | undefined;
  /** Bytes, as announced: a number, or exact digits beyond 2^53. */
  fileSize: number | string | undefined;
  /** The seed used, as exact decimal digits. */
  seed: string | undefined;
  requestId: string | undefined;
}

export const textToVideo = defineOperation({
  name: 'text-to-video',
  title: 'Text to Video',
  kind: 'video',
  summary: 'make a video from a text prompt',
  description:
    'Sends the prompt and settings and waits until the gateway answers with the finished video: its URL, ' +
    'type, size, the seed used and the request ID. A detailed prompt works best.',
  route: [{ setting: 'servicePrefix' }, 'submit', { setting: 'textVideoModel' }],
  auth: 'bearer',
  body: 'json',
  images: undefined,
  fields: {
    prompt: field.text({
      required: true,
      nonEmpty: true,
      long: true,
      description: 'a detailed description of the video; short prompts give poor results',
      warn: shortPrompt,
    }),
    negative_prompt: field.text({ description: 'what must not appear in the video' }),
    num_inference_steps: field.integer({
      min: 1,
      max: 50,
      label: 'Number of Inference Steps',
      description: 'more steps: more detail, slower',
      suggested: 25,
    }),
    guidance_scale: field.number({
      min: 2,
      max: 10,
      description: 'how closely the video follows the prompt',
      suggested: 5,
    }),
    seed: field.digits({
      description: 'the random seed; the same seed and settings repeat a result',
      example: '196619188014358660',
    }),
    model: field.segment({
      setting: 'textVideoModel',
      description: 'the model path segment for this call, instead of the text video model setting',
      example: 'text_video_model',
    }),
  },
  answer: {
    useful: z.looseObject({ video: z.looseObject({ url: z.string().min(1) }) }),
    listed: z.looseObject({
      video: z.looseObject({ url: z.string(), content_type: z.string(), file_size: wireInteger }),
      seed: wireInteger,
      status: z.string(),
      request_id: z.string(),
    }),
    refusal(json) {
      const status = json.status;
      if (status === undefined || (typeof status === 'string' && COMPLETED_STATUSES.has(status))) return undefined;
      return {
        gatewayCode: typeof status === 'string' || typeof status === 'number' ? status : undefined,
        gatewayMessage:
          text(json.error) ??
          text(json.message) ??
          `the gateway answered status ${JSON.stringify(status)}, not COMPLETED`,
        requestId: text(json.request_id),
      };
    },
    read(json, ctx): TextToVideoResult {
      return {
        status: text(json.status),
        videoUrl: String(at(json, 'video', 'url')),
        contentType: text(at(json, 'video', 'content_type')),
        fileSize: integer(at(json, 'video', 'file_size')),
        seed: idText(json.seed),
        requestId: text(json.request_id) || requestIdOf(ctx.raw.headers),
      };
    },
  },
  outputs: [
    { name: 'status', description: 'the completion state (COMPLETED)', value: (r) => r.status },
    { name: 'videoUrl', description: 'the URL of the video', value: (r) => r.videoUrl },
    { name: 'videoContentType', description: 'the media type of the video', value: (r) => r.contentType },
    {
      name: 'videoFileSize',
      description: 'the size of the video in bytes, every digit exact',
      value: (r) => r.fileSize,
    },
    { name: 'seed', description: 'the seed used, every digit exact', value: (r) => r.seed },
    { name: 'requestId', description: "the gateway's request ID", value: (r) => r.requestId },
  ],
  describe: (r) => [
    `text-to-video: ${r.status ?? 'finished (no status given)'}`,
    `  video: ${r.videoUrl} (${r.contentType ?? 'type not given'}, ${r.fileSize ?? '?'} bytes)`,
    ...(r.seed === undefined ? [] : [`  seed: ${r.seed}`]),
    ...(r.requestId === undefined ? [] : [`  request ID: ${r.requestId}`]),
  ],
  file: (r) => ({ url: r.videoUrl, size: r.fileSize, contentType: r.contentType, kind: 'video', name: 'video.mp4' }),
});
