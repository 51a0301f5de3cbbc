/**
 * Blend (spec 2.5, 2.6, 4.3): decodes the data URIs, blends them into a real PNG (served at
 * `/files/<taskId>.png`), answers with a long numeric task id and, when asked, notifies the hook.
 */
import { blend, blendRequestSchema, rawInteger, resolveConfig, splitDataUri, validate } from '@mediagw/core/protocol';
import { blendImages } from '../blend-image.js';
import { type EmulatorContext, longNumericId, type OperationRoute } from '../context.js';
import { jsonAnswer, send, successStatus } from '../exchange.js';
import { FILES_PATH } from '../files.js';
import { acceptJsonBodies, bodyObject, jsonBodyLimit, validated } from './common.js';

const { BLEND_ROUTE, IMAGES_FIELD, OPERATION } = blend;
/** The code that means "accepted", as the core reads it by default (1). */
const ACCEPTED = resolveConfig({ baseUrl: 'http://emulator.invalid' }).acceptedBlendCodes[0];
/** The code of the `envelope-failure` fault (any code but the accepted one will do). */
const REFUSED = 22;

export function blendRoute(ctx: EmulatorContext): OperationRoute {
  const path = `/${ctx.routes.imageRelaxPrefix}/${BLEND_ROUTE.join('/')}`;
  return {
    operation: OPERATION,
    path,
    displayPath: path,
    auth: 'secret-header',
    failure: () => ({ code: REFUSED, description: 'emulated failure: the blend task was refused', properties: {} }),
    setup: async (scope) => acceptJsonBodies(scope, jsonBodyLimit(ctx.maxUploadBytes)),

    async handle(request, reply, exchange) {
      const submitTime = Date.now();
      const { [IMAGES_FIELD]: _images, ...options } = bodyObject(request.body);
      exchange.record.fields = options;
      const checked = validated(exchange, () => validate(blendRequestSchema, request.body ?? {}, OPERATION));
      if ('answer' in checked) return send(reply, exchange, checked.answer);
      const input = checked.value;

      const startTime = Date.now();
      const taskId = longNumericId();
      exchange.record.taskId = taskId;
      // Decoded one by one as the blender asks, so the decoded bytes of only one image are alive at once.
      const decoded = (function* () {
        for (const uri of input.base64Array) {
          const { mime, base64 } = splitDataUri(uri)!;
          yield { mime, bytes: Buffer.from(base64, 'base64') };
        }
      })();
      const blended = blendImages(decoded, input.dimensions);
      exchange.record.images = blended.inputs;
      const name = `${taskId}.png`;
      ctx.files.put(name, blended.png, 'image/png');
      const finishTime = Date.now();

      const notes = blended.placeholders.map(
        ({ index, reason }) => `${IMAGES_FIELD}[${index}] (${reason}) was drawn as a placeholder pattern`,
      );
      const description = ['Submit success', ...notes].join('; ');
      const answered = send(
        reply,
        exchange,
        jsonAnswer(successStatus(exchange), {
          code: ACCEPTED,
          description,
          properties: {},
          // The spec types the id as a string; the fault sends it as the bare number some gateways send.
          result: exchange.fault?.blendIdAsNumber ? rawInteger(taskId) : taskId,
        }),
      );
      if (input.notifyHook) {
        ctx.notify(
          input.notifyHook,
          {
            id: taskId,
            action: 'BLEND',
            status: 'SUCCESS',
            progress: '100%',
            imageUrl: `${ctx.baseUrl()}${FILES_PATH}/${name}`,
            state: input.state ?? null,
            submitTime,
            startTime,
            finishTime,
            description: ['Blended', ...notes].join('; '),
          },
          answered,
        );
      }
      return answered;
    },
  };
}
