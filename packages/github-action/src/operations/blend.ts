import { blend } from '@mediagw/core';
import type { ActionOperation } from '../operation.js';

export const blendOperation: ActionOperation = {
  name: blend.OPERATION,
  fields: blend.blendOptionsSchema,
  images: { input: 'images', field: blend.IMAGES_FIELD, many: true },
  async run({ client, fields, files, callOptions }) {
    const result = await client.blend({ ...fields, [blend.IMAGES_FIELD]: files }, callOptions);
    return {
      outputs: { 'task-id': result.taskId, status: result.status },
      response: result.response,
      warnings: result.warnings,
      links: [],
    };
  },
};
