/** `@mediagw/core`: the protocol plus the undici transport. */

export * from './client.js';
export * from './protocol.js';
export { bodyStream } from './transport/body.js';
export { type DownloadOptions, type DownloadResult, downloadFile, downloadToPath } from './transport/download.js';
export { OutputFile, type ReserveOptions } from './transport/output.js';
export { type ImageInput, openImage, openImages, type TransportImage } from './transport/sources.js';
export { checkTimeouts, DEFAULT_TIMEOUTS, MAX_TIMEOUT_MS, type TimeoutOptions } from './transport/timeouts.js';
export { type SendOptions, type TransportOptions, UndiciTransport } from './transport/undici.js';
