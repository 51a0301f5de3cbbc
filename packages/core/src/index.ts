/** `@mediagw/core`: the protocol plus the undici transport. */

export * from './client.js';
export * from './protocol.js';
export { bodyStream } from './transport/body.js';
export { type DownloadResult, downloadFile } from './transport/download.js';
export { type ImageInput, openImage, openImages, type TransportImage } from './transport/sources.js';
export {
  DEFAULT_TIMEOUTS,
  type SendOptions,
  type TimeoutOptions,
  type TransportOptions,
  UndiciTransport,
} from './transport/undici.js';
