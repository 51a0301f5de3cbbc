/**
 * Text-to-video (spec 2.3, 2.4, 4.2): answers at once with a finished video, the fixture MP4
 * served by the emulator itself.
 */
import { randomInt, randomUUID } from 'node:crypto';
import {
  buildTextToVideoRequest,
  type RouteSettings,
  rawInteger,
  resolveConfig,
  textToVideo,
  textToVideoRequestSchema,
  validate,
} from '@mediagw/core/protocol';
import type { FastifyRequest } from 'fastify';
import type { EmulatorContext, OperationRoute } from '../context.js';
import { jsonAnswer, send, successStatus } from '../exchange.js';
import { FILES_PATH, SAMPLE_VIDEO } from '../files.js';
import { acceptJsonBodies, bodyObject, jsonBodyLimit, validated } from './common.js';

const VIDEO_TYPE = 'video/mp4';
/** The one completion state the spec shows, as the core knows it. */
const COMPLETED = [...textToVideo.COMPLETED_STATUSES][0];

/** `/{service_prefix}/submit/`, taken from the core's own request builder; any model follows. */
function modelPrefix(routes: RouteSettings): string {
  const config = resolveConfig({ baseUrl: 'http://emulator.invalid', ...routes });
  const { pathname } = new URL(buildTextToVideoRequest(config, { prompt: 'route' }).url);
  return pathname.slice(0, pathname.length - config.textVideoModel.length);
}

const modelOf = (request: FastifyRequest) => (request.params as { '*': string })['*'];

const randomSeed = () => String(randomInt(2 ** 32));

export function textToVideoRoute(ctx: EmulatorContext): OperationRoute {
  const prefix = modelPrefix(ctx.routes);
  return {
    operation: textToVideo.OPERATION,
    path: `${prefix}*`,
    displayPath: `${prefix}<model>`,
    auth: 'bearer',
    serves: (request) => modelOf(request) !== '',
    // The spec shows only COMPLETED; a failed answer keeps the required shape so it stays readable.
    failure: () => ({
      video: { url: '', content_type: VIDEO_TYPE, file_size: 0 },
      seed: rawInteger(randomSeed()),
      status: 'FAILED',
      request_id: randomUUID(),
      error: 'emulated failure: the video could not be generated',
    }),
    setup: async (scope) => acceptJsonBodies(scope, jsonBodyLimit(ctx.maxUploadBytes)),

    async handle(request, reply, exchange) {
      exchange.record.model = modelOf(request);
      exchange.record.fields = bodyObject(request.body);
      const checked = validated(exchange, () =>
        validate(textToVideoRequestSchema, request.body ?? {}, textToVideo.OPERATION),
      );
      if ('answer' in checked) return send(reply, exchange, checked.answer);

      const requestId = randomUUID();
      const name = `${requestId}.mp4`;
      ctx.files.put(name, SAMPLE_VIDEO, VIDEO_TYPE);
      exchange.record.taskId = requestId;
      return send(
        reply,
        exchange,
        jsonAnswer(successStatus(exchange), {
          video: {
            url: `${ctx.baseUrl()}${FILES_PATH}/${name}`,
            content_type: VIDEO_TYPE,
            file_size: SAMPLE_VIDEO.byteLength,
          },
          // The caller's digits exactly (beyond 2^53 too), written as a JSON number.
          seed: rawInteger(checked.value.seed ?? randomSeed()),
          status: COMPLETED,
          request_id: requestId,
        }),
      );
    },
  };
}
