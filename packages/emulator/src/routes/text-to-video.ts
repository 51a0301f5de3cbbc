/**
 * Text-to-video (spec 2.3, 2.4, 4.2): answers at once with a finished video, the fixture MP4
 * served by the emulator itself. Any model segment is served.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { COMPLETED_STATUSES, rawInteger, textToVideo } from '@mediagw/core/protocol';
import type { OperationRoute } from '../context.js';
import { SAMPLE_VIDEO } from '../files.js';

const VIDEO_TYPE = 'video/mp4';
/** The one completion state the spec shows, as the core knows it. */
const COMPLETED = [...COMPLETED_STATUSES][0];
const randomSeed = () => String(randomInt(2 ** 32));

export function textToVideoRoute(): OperationRoute {
  return {
    operation: textToVideo,
    // The spec shows only COMPLETED; a failed answer keeps the listed shape so it stays readable.
    failure: () => ({
      video: { url: '', content_type: VIDEO_TYPE, file_size: 0 },
      seed: rawInteger(randomSeed()),
      status: 'FAILED',
      request_id: randomUUID(),
      error: 'emulated failure: the video could not be generated',
    }),
    sparse: (full) => ({ video: { url: (full.video as { url: string }).url } }),
    succeed(received, ctx, exchange) {
      const requestId = randomUUID();
      const name = `${requestId}.mp4`;
      ctx.files.put(name, SAMPLE_VIDEO, VIDEO_TYPE);
      exchange.record.taskId = requestId;
      const seed = received.fields.seed;
      return {
        video: { url: ctx.fileUrl(name), content_type: VIDEO_TYPE, file_size: SAMPLE_VIDEO.byteLength },
        // The caller's digits exactly (beyond 2^53 too), written as a JSON number.
        seed: rawInteger(seed === undefined ? randomSeed() : String(seed)),
        status: COMPLETED,
        request_id: requestId,
      };
    },
  };
}
