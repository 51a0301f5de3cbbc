/**
 * Blend (spec 2.5, 2.6, 4.3): POST {base}/{image_relax_prefix}/submit/blend, JSON with the images
 * as data URIs in, a task id out. Auth is the secret header with the bare key. The answer is
 * useful with an accepted `code` (and, if present, a readable `result`).
 */
import * as z from 'zod/v4';
import { field } from '../fields.js';
import { defineOperation } from '../operation.js';
import { idText, smallInteger, taskIdSchema, text } from './common.js';

export const BOT_TYPES = ['MAIN_JOURNEY', 'ALT_JOURNEY'] as const;
export const DIMENSIONS = ['PORTRAIT', 'SQUARE', 'LANDSCAPE'] as const;

/** `code` as sent: an integer, or its digits as text (read liberally). */
const code = z.custom<number | string>(
  (v) => (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && /^-?\d+$/.test(v)),
  { error: 'must be an integer' },
);

export interface BlendResult {
  /** The task id as exact digits (undefined if the gateway sent none: the spec marks it optional). */
  taskId: string | undefined;
  /** The gateway's `code` (1 = accepted). */
  status: number;
  description: string | undefined;
  /** 200 or 201. */
  httpStatus: number;
}

export const blend = defineOperation({
  name: 'blend',
  title: 'Blend',
  kind: 'image',
  summary: 'blend images into one',
  description:
    'Sends the images (as data URIs, streamed) and settings and returns the task ID the gateway gave ' +
    '(exact digits, however long). With a notify hook the gateway POSTs a notification about the task to that address.',
  route: [{ setting: 'imageRelaxPrefix' }, 'submit', 'blend'],
  auth: 'secret-header',
  body: 'json',
  images: {
    field: 'base64Array',
    many: true,
    encoding: 'data-uri',
    description: 'the images to blend, in order (PNG, JPEG, GIF, WebP, ...)',
    warnBelow: 2,
  },
  fields: {
    botType: field.choice({ choices: BOT_TYPES, description: 'which generation journey blends the images' }),
    dimensions: field.choice({ choices: DIMENSIONS, description: 'the shape of the blended image' }),
    notifyHook: field.url({
      description: 'an address the gateway notifies about the task',
      example: 'https://n8n.example.com/webhook/mediagw',
    }),
    state: field.text({ description: 'your own value, handed back with the task' }),
  },
  notifyField: 'notifyHook',
  answer: {
    useful: z.looseObject({ code, result: taskIdSchema.optional() }),
    listed: z.looseObject({
      code: z.number().int(),
      description: z.string().optional(),
      properties: z.record(z.string(), z.unknown()).optional(),
      result: taskIdSchema.optional(),
    }),
    refusal(json, { config }) {
      const value = smallInteger(json.code);
      if (value === undefined || config.acceptedBlendCodes.includes(value)) return undefined;
      return {
        gatewayCode: value,
        gatewayMessage: text(json.description) || `code ${value} (accepted: ${config.acceptedBlendCodes.join(', ')})`,
      };
    },
    read(json, { raw, warn }): BlendResult {
      const taskId = idText(json.result);
      if (taskId === undefined) warn('the gateway accepted the blend but sent no task id (result)');
      return {
        taskId,
        status: smallInteger(json.code) ?? 0,
        description: text(json.description),
        httpStatus: raw.status,
      };
    },
  },
  outputs: [
    { name: 'taskId', description: 'the task ID, every digit exact', value: (r) => r.taskId },
    { name: 'status', description: 'the result code (1 = accepted)', value: (r) => r.status },
  ],
  describe: (r) => [
    `blend: accepted (code ${r.status}), task ${r.taskId ?? '(none given)'}`,
    ...(r.description ? [`  ${r.description}`] : []),
  ],
});
