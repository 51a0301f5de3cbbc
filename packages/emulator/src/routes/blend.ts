/**
 * Blend (spec 2.5, 2.6, 4.3): decodes the data URIs, blends them into a real PNG (served at
 * `/files/<taskId>.png`), answers with a long numeric task id and, when asked, notifies the hook:
 * progress notifications first if asked for, then the final one (success or failure).
 */
import { BLEND_ACCEPTED, blend, rawInteger, splitDataUri } from '@mediagw/core/protocol';
import { blendImages } from '../blend-image.js';
import { longNumericId, type OperationRoute } from '../context.js';
import type { BlendNotification } from '../notify.js';

/** The code of the `envelope-failure` fault (any code but the accepted one will do). */
const REFUSED = 22;

export interface BlendRouteOptions {
  /** Progress notifications before the final one, unless a fault says otherwise (default 0). */
  notifyProgress?: number | undefined;
}

export function blendRoute(options: BlendRouteOptions = {}): OperationRoute {
  const field = blend.images.field;
  return {
    operation: blend,
    failure: () => ({ code: REFUSED, description: 'emulated failure: the blend task was refused', properties: {} }),
    sparse: (full) => ({ code: full.code, result: full.result }),
    succeed(received, ctx, exchange) {
      const taskId = longNumericId();
      exchange.record.taskId = taskId;
      // Decoded one by one as the blender asks, so the decoded bytes of only one image are alive at once.
      const decoded = (function* () {
        for (const uri of received.dataUris) {
          const { mime, base64 } = splitDataUri(uri)!;
          yield { mime, bytes: Buffer.from(base64, 'base64') };
        }
      })();
      const blended = blendImages(decoded, received.fields.dimensions as string | undefined);
      exchange.record.images = blended.inputs;
      ctx.files.put(`${taskId}.png`, blended.png, 'image/png');
      const notes = blended.placeholders.map(
        ({ index, reason }) => `${field}[${index}] (${reason}) was drawn as a placeholder pattern`,
      );
      exchange.notes = notes;
      return {
        code: BLEND_ACCEPTED,
        description: ['Submit success', ...notes].join('; '),
        properties: {},
        // The spec types the id as a string; the fault sends it as the bare number some gateways send.
        result: exchange.fault?.blendIdAsNumber ? rawInteger(taskId) : taskId,
      };
    },
    afterAnswer(received, _answer, ctx, exchange, answered) {
      const hook = received.fields.notifyHook;
      const taskId = exchange.record.taskId;
      if (typeof hook !== 'string' || !taskId) return;
      const fault = exchange.fault;
      const progress = fault?.notifyProgress ?? options.notifyProgress ?? 0;
      const submitTime = exchange.record.receivedAt;
      const base = {
        id: taskId,
        action: 'BLEND' as const,
        imageUrl: null,
        failReason: null,
        state: typeof received.fields.state === 'string' ? received.fields.state : null,
        submitTime,
        startTime: submitTime,
        finishTime: null,
      };
      const bodies: BlendNotification[] = [];
      for (let i = 1; i <= progress; i++) {
        const percent = `${Math.floor((100 * i) / (progress + 1))}%`;
        bodies.push({ ...base, status: 'IN_PROGRESS', progress: percent, description: `Blending (${percent})` });
      }
      const finished = { ...base, finishTime: Date.now() };
      const final: BlendNotification = fault?.notifyFailure
        ? {
            ...finished,
            status: 'FAILURE',
            progress: '100%',
            failReason: 'emulated failure: the blend could not be made',
            description: 'Failed',
          }
        : {
            ...finished,
            status: 'SUCCESS',
            progress: '100%',
            imageUrl: ctx.fileUrl(`${taskId}.png`),
            description: ['Blended', ...(exchange.notes ?? [])].join('; '),
          };
      for (let i = 0; i < (fault?.notifyRepeat ?? 1); i++) bodies.push(final);
      ctx.notify(hook, bodies, answered, fault?.notifyHold === true);
    },
  };
}
