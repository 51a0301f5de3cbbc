/**
 * Image-to-video, 1.6 standard, 10 s (spec 2.1, 2.2, 4.1): the created-task envelope, every field
 * section 2.2 lists, with the text fields echoed in `taskInfo.arguments`.
 */
import { ENVELOPE_OK, imageToVideo, TASK_CREATED } from '@mediagw/core/protocol';
import { longNumericId, type OperationRoute } from '../context.js';

/** Generation and clip length, read from the route (`m2v_16_img2video_10s` -> "1.6", "10"). */
const ROUTE_FACTS = /^m2v_(\d)(\d+)_img2video_(\d+)s$/.exec(String(imageToVideo.route.at(-1)));
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

export function imageToVideoRoute(): OperationRoute {
  let created = 0;
  return {
    operation: imageToVideo,
    failure: () => ({
      data: null,
      message: 'emulated failure: the task could not be created',
      result: 0,
      status: 500,
      timestamp: brokenDownTime(new Date()),
    }),
    sparse: (full) => {
      const task = (full.data as { task: { id: string } }).task;
      return { status: full.status, result: full.result, data: { task: { id: task.id } } };
    },
    succeed(received, ctx, exchange) {
      created++;
      const now = new Date();
      const taskId = longNumericId();
      exchange.record.taskId = taskId;
      const argument = (name: string, value: string) => ({ name, value });
      const texts = exchange.record.fields as Record<string, string>;
      const image = received.uploads[0]!;
      return {
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
              arguments: [
                ...Object.keys(imageToVideo.fields)
                  .filter((name) => texts[name] !== undefined)
                  .map((name) => argument(name, texts[name]!)),
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
              ],
              extraArgs: {},
              inputs: [
                { name: image.field, filename: image.filename, contentType: image.contentType, size: image.bytes },
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
      };
    },
  };
}
