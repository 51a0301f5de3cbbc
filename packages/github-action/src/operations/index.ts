/** The action's operations, one file each; adding one is a core file plus one file here. */
import type { OperationName } from '@mediagw/core';
import type { ActionOperation } from '../operation.js';
import { blendOperation } from './blend.js';
import { imageToVideoOperation } from './image-to-video.js';
import { textToVideoOperation } from './text-to-video.js';

export const ACTION_OPERATIONS: Readonly<Record<OperationName, ActionOperation>> = {
  'image-to-video': imageToVideoOperation,
  'text-to-video': textToVideoOperation,
  blend: blendOperation,
};
