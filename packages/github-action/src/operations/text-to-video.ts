import { textToVideo } from '@mediagw/core';
import { resolvePath } from '../inputs.js';
import type { ActionOperation } from '../operation.js';

export const textToVideoOperation: ActionOperation = {
  name: textToVideo.OPERATION,
  fields: textToVideo.textToVideoRequestSchema,
  extraFields: ['model'],
  actionInputs: ['download-path'],
  async run({ client, fields, options, callOptions }) {
    const result = await client.textToVideo(fields as unknown as textToVideo.TextToVideoInput, callOptions);
    const downloadPath = options['download-path'];
    const downloaded = downloadPath
      ? await client.download(result.videoUrl, resolvePath(downloadPath), { timeoutMs: callOptions.timeoutMs })
      : undefined;
    return {
      outputs: {
        status: result.status,
        'video-url': result.videoUrl,
        'video-content-type': result.contentType,
        'video-file-size': result.fileSize,
        seed: result.seed,
        'request-id': result.requestId,
        'downloaded-path': downloaded?.path,
      },
      response: result.response,
      warnings: result.warnings,
      links: [{ label: 'Video', url: result.videoUrl }],
    };
  },
};
