/**
 * The sans-I/O protocol: configuration, validation, request builders, response parsers, errors.
 * No sockets, timers, `process`, `globalThis`, file system or streams: safe to bundle into the
 * n8n node and usable from any transport.
 */
export * from './config.js';
export * from './errors.js';
export * from './image.js';
export * from './json.js';
export * as blend from './operations/blend.js';
export {
  type BlendInput,
  type BlendResponse,
  type BlendResult,
  BOT_TYPES,
  blendOptionsSchema,
  blendRequestSchema,
  buildBlendRequest,
  DIMENSIONS,
  parseBlendResponse,
} from './operations/blend.js';
export * as imageToVideo from './operations/image-to-video.js';
export {
  buildImageToVideoRequest,
  type ImageToVideoInput,
  type ImageToVideoResponse,
  type ImageToVideoResult,
  imageToVideoFieldsSchema,
  imageToVideoWireFieldsSchema,
  parseImageToVideoResponse,
  timestampToDate,
} from './operations/image-to-video.js';
export * as textToVideo from './operations/text-to-video.js';
export {
  buildTextToVideoRequest,
  parseTextToVideoResponse,
  TEXT_TO_VIDEO_RANGES,
  type TextToVideoInput,
  type TextToVideoResponse,
  type TextToVideoResult,
  textToVideoRequestSchema,
} from './operations/text-to-video.js';
export * from './redact.js';
export * from './request.js';
export * from './response.js';
export * from './retry.js';
export * from './validate.js';
