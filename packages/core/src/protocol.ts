/**
 * The sans-I/O protocol: operations, settings, validation, request building, answer parsing,
 * errors and the retry decision. No sockets, timers, `process`, `globalThis`, file system or
 * streams: safe to bundle into the n8n node and usable from any transport.
 */
export * from './build.js';
export * from './config.js';
export * from './download-limit.js';
export * from './errors/index.js';
export * from './fields.js';
export * from './headers.js';
export * from './image.js';
export * from './json.js';
export * from './notification.js';
export * from './operation.js';
export * from './operations/blend.js';
export * from './operations/image-to-video.js';
export * from './operations/text-to-video.js';
export * from './parse.js';
export * from './probe.js';
export * from './redact.js';
export * from './registry.js';
export * from './request.js';
export * from './response.js';
export * from './retry.js';
export * from './route.js';
export * from './segments.js';
export * from './text.js';
export * from './validate.js';
export * from './wire.js';
