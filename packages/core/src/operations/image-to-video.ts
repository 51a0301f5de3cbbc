/**
 * Image-to-video, 1.6 standard, 10 s (spec 2.1, 2.2, 4.1): POST {base}/{video_vendor}/m2v_16_img2video_10s,
 * multipart in, a created task out. Bearer auth. The answer is useful with a success envelope and
 * `data.task.id`: the task then exists (and was paid for), whatever else the answer lacks.
 */
import * as z from 'zod/v4';
import { field } from '../fields.js';
import { defineOperation } from '../operation.js';
import { at, idText, integer, smallInteger, taskIdSchema, text, wireInteger } from './common.js';

/** The spec's success envelope: `status` 200 and `result` 1. */
export const ENVELOPE_OK = { status: 200, result: 1 } as const;
/** Task status of a task that has just been created (spec section 3). */
export const TASK_CREATED = 5;

/** `[year, month, day, hour, minute, second, nanoseconds]` -> Date (UTC), or undefined if malformed. */
export function timestampToDate(parts: unknown): Date | undefined {
  if (!Array.isArray(parts) || !parts.every((p) => typeof p === 'number')) return undefined;
  const [y, mo, d, h = 0, mi = 0, s = 0, ns = 0] = parts as number[];
  if (y === undefined || mo === undefined || d === undefined) return undefined;
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s, Math.floor(ns / 1e6)));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

const okEnvelope = (value: unknown, ok: number) => value !== undefined && Number(value) === ok;

/** Everything section 2.2 lists; a gap here only warns. */
const listed = z.looseObject({
  data: z.looseObject({
    limitation: z.looseObject({ limit: wireInteger, remaining: wireInteger, type: z.string() }),
    message: z.string(),
    status: z.number().int(),
    task: z.looseObject({
      id: taskIdSchema,
      status: z.number().int(),
      type: z.string(),
      createTime: wireInteger,
      updateTime: wireInteger,
      viewTime: wireInteger,
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

export interface ImageToVideoResult {
  /** The created task's id (digits of a numeric id kept). */
  taskId: string;
  /** Task status code (5 = just created; other values are not documented). */
  status: number | undefined;
  taskType: string | undefined;
  message: string | undefined;
  /** `data.task.createTime` as a Date. */
  createdAt: Date | undefined;
  /** The envelope `timestamp` array as a Date (read as UTC: the spec states no zone). */
  timestamp: Date | undefined;
  /** The quota of the task kind (`data.limitation`); the unit is not stated. */
  quota:
    | { limit: number | string | undefined; remaining: number | string | undefined; type: string | undefined }
    | undefined;
  /** Task arguments as a name -> value map (values are strings, as sent). */
  arguments: Record<string, string>;
}

function argumentsOf(list: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(list)) return out;
  for (const entry of list) {
    const name = text(at(entry, 'name'));
    const value = text(at(entry, 'value'));
    if (name !== undefined && value !== undefined) out[name] = value;
  }
  return out;
}

export const imageToVideo = defineOperation({
  name: 'image-to-video',
  title: 'Image to Video',
  kind: 'video',
  summary: 'start a video from an image',
  description:
    'Uploads the image with the prompt and settings (generation 1.6, standard quality, a 10-second clip). ' +
    `The gateway answers with the task it created (status ${TASK_CREATED} = just created); the video is made later.`,
  route: [{ setting: 'videoVendor' }, 'm2v_16_img2video_10s'],
  auth: 'bearer',
  body: 'multipart',
  images: {
    field: 'input_image',
    many: false,
    encoding: 'multipart',
    description: 'the source image (PNG, JPEG, GIF, WebP, BMP, TIFF, AVIF, HEIC)',
  },
  fields: {
    prompt: field.text({ description: 'what should happen in the video', long: true }),
    negative_prompt: field.text({ description: 'what must not appear in the video' }),
    cfg: field.number({
      label: 'CFG',
      description: 'guidance strength: how closely the video follows the prompt (0.5 is typical)',
      example: '0.5',
      suggested: 0.5,
    }),
    aspect_ratio: field.text({
      description: 'the shape of the video (the gateway does not list its allowed values)',
      format: {
        pattern: /^[1-9]\d*:[1-9]\d*$/,
        rule: '<width>:<height> with positive integers, such as 1:1 or 16:9',
      },
      example: '16:9',
    }),
  },
  answer: {
    useful: z.looseObject({
      status: z.custom((v) => okEnvelope(v, ENVELOPE_OK.status), { error: `must be ${ENVELOPE_OK.status}` }),
      result: z.custom((v) => okEnvelope(v, ENVELOPE_OK.result), { error: `must be ${ENVELOPE_OK.result}` }),
      data: z.looseObject({ task: z.looseObject({ id: taskIdSchema }) }),
    }),
    listed,
    refusal(json) {
      const { status, result, message } = json;
      if (status === undefined && result === undefined) return undefined;
      if (okEnvelope(status, ENVELOPE_OK.status) && okEnvelope(result, ENVELOPE_OK.result)) return undefined;
      return {
        gatewayCode: typeof status === 'number' ? status : typeof result === 'number' ? result : undefined,
        gatewayMessage: text(message) || `envelope status ${String(status)}, result ${String(result)}`,
      };
    },
    read(json): ImageToVideoResult {
      const task = at(json, 'data', 'task');
      const limitation = at(json, 'data', 'limitation');
      const created = smallInteger(at(task, 'createTime'));
      return {
        taskId: idText(at(task, 'id')) ?? '',
        status: smallInteger(at(task, 'status')),
        taskType: text(at(task, 'type')),
        message: text(json.message),
        createdAt: created === undefined ? undefined : new Date(created),
        timestamp: timestampToDate(json.timestamp),
        quota:
          limitation && typeof limitation === 'object'
            ? {
                limit: integer(at(limitation, 'limit')),
                remaining: integer(at(limitation, 'remaining')),
                type: text(at(limitation, 'type')),
              }
            : undefined,
        arguments: argumentsOf(at(task, 'taskInfo', 'arguments')),
      };
    },
  },
  outputs: [
    { name: 'taskId', description: 'the created task ID, every digit exact', value: (r) => r.taskId },
    { name: 'status', description: 'the task status code (5 = just created)', value: (r) => r.status },
  ],
  describe: (r) => [
    `image-to-video: task ${r.taskId} created (status ${r.status ?? 'not given'})`,
    ...(r.quota
      ? [`  quota: ${r.quota.remaining ?? '?'} of ${r.quota.limit ?? '?'} left (${r.quota.type ?? 'kind not given'})`]
      : []),
  ],
});
