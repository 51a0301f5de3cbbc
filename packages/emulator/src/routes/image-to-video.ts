/**
 * Image-to-video, 1.6 standard, 10 s (spec 2.1, 2.2, 4.1): a multipart upload, streamed and hashed
 * as it passes (never held in memory), answered with the created-task envelope.
 */
import { createHash } from 'node:crypto';
import multipart, { type MultipartFile } from '@fastify/multipart';
import {
  checkImage,
  type FieldIssue,
  imageToVideo,
  imageToVideoWireFieldsSchema,
  SNIFF_BYTES,
  sniffImageType,
  validate,
} from '@mediagw/core/protocol';
import { type EmulatorContext, longNumericId, type OperationRoute } from '../context.js';
import { errorAnswer, jsonAnswer, send, successStatus, type UploadSummary } from '../exchange.js';
import { validated } from './common.js';

const { IMAGE_FIELD, IMAGE_TO_VIDEO_ROUTE, TASK_CREATED, ENVELOPE_OK, OPERATION } = imageToVideo;

/** The text fields, named by the core's wire schema; echoed in `taskInfo.arguments`. */
const TEXT_FIELDS = Object.keys(imageToVideoWireFieldsSchema.shape);

/** Generation and clip length, read from the route (`m2v_16_img2video_10s` -> "1.6", "10"). */
const ROUTE_FACTS = /^m2v_(\d)(\d+)_img2video_(\d+)s$/.exec(IMAGE_TO_VIDEO_ROUTE);
const VERSION = ROUTE_FACTS ? `${ROUTE_FACTS[1]}.${ROUTE_FACTS[2]}` : '1.6';
const DURATION = ROUTE_FACTS?.[3] ?? '10';

/** Values the spec names but does not show: the emulator's own. */
const TASK_TYPE = 'm2v_img2video';
const QUOTA = 1000;
const CAMERA = { type: 'simple', horizontal: 0, vertical: 0, zoom: 0, tilt: 0, pan: 0, roll: 0 };

/** `[year, month, day, hour, minute, second, nanoseconds]`, UTC. */
export function brokenDownTime(date: Date): number[] {
  return [
    date.getUTCFullYear(),
    date.getUTCMonth() + 1,
    date.getUTCDate(),
    date.getUTCHours(),
    date.getUTCMinutes(),
    date.getUTCSeconds(),
    date.getUTCMilliseconds() * 1_000_000,
  ];
}

/** Counts and hashes a file part as it streams past, keeping only its first bytes (to sniff). */
async function readUpload(part: MultipartFile): Promise<{ summary: UploadSummary; head: Buffer }> {
  const hash = createHash('sha256');
  let bytes = 0;
  let head = Buffer.alloc(0);
  for await (const chunk of part.file as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
    if (head.length < SNIFF_BYTES) head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
  }
  const summary: UploadSummary = {
    field: part.fieldname,
    filename: part.filename,
    contentType: part.mimetype,
    sniffedType: sniffImageType(head)?.mime,
    bytes,
    sha256: hash.digest('hex'),
  };
  return { summary, head };
}

export function imageToVideoRoute(ctx: EmulatorContext): OperationRoute {
  const path = `/${ctx.routes.videoVendor}/${IMAGE_TO_VIDEO_ROUTE}`;
  let created = 0;
  const tooLarge = `${IMAGE_FIELD}: is larger than the emulator accepts (maxUploadBytes = ${ctx.maxUploadBytes} bytes)`;

  return {
    operation: OPERATION,
    path,
    displayPath: path,
    auth: 'bearer',
    failure: () => ({
      data: null,
      message: 'emulated failure: the task could not be created',
      result: 0,
      status: 500,
      timestamp: brokenDownTime(new Date()),
    }),
    async setup(scope) {
      await scope.register(multipart, { limits: { fileSize: ctx.maxUploadBytes, fieldSize: 1024 * 1024 } });
      // Anything else is left unread; the handler refuses it.
      scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    },

    async handle(request, reply, exchange) {
      const refuse = (status: number, message: string, issues?: FieldIssue[]) =>
        send(reply, exchange, errorAnswer(exchange, status, message, issues ? { issues } : {}));
      if (!request.isMultipart()) {
        const message = `is required: send multipart/form-data with the image in the "${IMAGE_FIELD}" part`;
        return refuse(400, `${IMAGE_FIELD}: ${message}`, [{ field: IMAGE_FIELD, message }]);
      }

      const fields: Record<string, string> = {};
      const issues: FieldIssue[] = [];
      let upload: Awaited<ReturnType<typeof readUpload>> | undefined;
      exchange.record.fields = fields;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'field') {
            if (part.fieldname === IMAGE_FIELD) {
              issues.push({ field: IMAGE_FIELD, message: 'must be a file part (with a filename), not a text field' });
            } else if (part.fieldname in fields) {
              issues.push({ field: part.fieldname, message: 'was sent more than once; send it once' });
            } else fields[part.fieldname] = String(part.value);
            continue;
          }
          const received = await readUpload(part);
          if (part.file.truncated) return refuse(413, tooLarge);
          if (part.fieldname !== IMAGE_FIELD) {
            issues.push({ field: part.fieldname, message: `is a file part; the only file part is ${IMAGE_FIELD}` });
          } else if (upload) {
            issues.push({ field: IMAGE_FIELD, message: 'was sent more than once; send one image' });
          } else upload = received;
        }
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') return refuse(413, tooLarge);
        throw error;
      }
      if (upload) {
        exchange.record.upload = upload.summary;
        checkImage(IMAGE_FIELD, { size: upload.summary.bytes, head: upload.head, handle: undefined }, issues);
      } else issues.push({ field: IMAGE_FIELD, message: 'is required: an image file part (PNG, JPEG, ...)' });

      const checked = validated(exchange, () => validate(imageToVideoWireFieldsSchema, fields, OPERATION, issues));
      if ('answer' in checked) return send(reply, exchange, checked.answer);

      created++;
      const now = new Date();
      const taskId = longNumericId();
      exchange.record.taskId = taskId;
      const argument = (name: string, value: string) => ({ name, value });
      const args = [
        ...TEXT_FIELDS.filter((name) => fields[name] !== undefined).map((name) => argument(name, fields[name]!)),
        argument('duration', DURATION),
        argument('imageCount', '1'),
        argument(`${ctx.routes.videoVendor}_version`, VERSION),
        argument('camera_control_enabled', 'false'),
        argument('camera_json', JSON.stringify(CAMERA)),
        argument('biz', 'mediagw-emulator'),
        argument('__deviceType', 'mediagw-emulator'),
        argument('__effect', ''),
        argument('__platform', 'API'),
        argument('__priority', '0'),
        argument('__userType', 'emulator'),
      ];
      const image = exchange.record.upload!;
      return send(
        reply,
        exchange,
        jsonAnswer(successStatus(exchange), {
          data: {
            limitation: { limit: QUOTA, remaining: Math.max(0, QUOTA - created), type: TASK_TYPE },
            message: '',
            status: TASK_CREATED,
            task: {
              id: taskId,
              status: TASK_CREATED,
              type: TASK_TYPE,
              createTime: now.getTime(),
              updateTime: now.getTime(),
              viewTime: 0,
              viewed: false,
              deleted: false,
              favored: false,
              taskInfo: {
                arguments: args,
                extraArgs: {},
                inputs: [
                  { name: IMAGE_FIELD, filename: image.filename, contentType: image.contentType, size: image.bytes },
                ],
                type: TASK_TYPE,
              },
            },
            userTickets: { ticket: [] },
            works: [],
          },
          message: 'success',
          result: ENVELOPE_OK.result,
          status: ENVELOPE_OK.status,
          timestamp: brokenDownTime(now),
        }),
      );
    },
  };
}
