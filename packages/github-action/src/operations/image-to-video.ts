import { imageToVideo } from '@mediagw/core';
import type { ActionOperation } from '../operation.js';

export const imageToVideoOperation: ActionOperation = {
  name: imageToVideo.OPERATION,
  fields: imageToVideo.imageToVideoFieldsSchema,
  images: { input: 'image', field: imageToVideo.IMAGE_FIELD, many: false },
  async run({ client, fields, files, callOptions }) {
    const result = await client.imageToVideo(
      { ...fields, [imageToVideo.IMAGE_FIELD]: files[0] as string },
      callOptions,
    );
    return {
      outputs: { 'task-id': result.taskId, status: result.status },
      response: result.response,
      warnings: result.warnings,
      links: [],
    };
  },
};
