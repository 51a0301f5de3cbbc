/**
 * Request bodies as byte streams for the undici transport: the core's segments in order, images
 * read in chunks from files, bytes, Blobs or streams, so memory stays flat however large they are.
 */
import { createReadStream } from 'node:fs';
import { type BodySegment, segmentsLength } from '../request.js';
import { type Base64Encoder, segmentBytes } from '../segments.js';
import type { ImageHandle, TransportImage } from './sources.js';

/** Read size for files (a multiple of 3; base64 chunks need no carry then). */
const CHUNK = 3 * 64 * 1024;

/**
 * Node's native base64, for the library, CLI and Action processes, whose heaps are small: the
 * short-lived strings make V8 collect often, which frees the chunk buffers too. Measured with
 * blend 4 x 64 MiB (`npm run bench`): ~20 MiB peak growth and ~1.6x faster this way, ~60 MiB with
 * the pure encoder, whose garbage lies outside the heap until V8's 64 MiB external-memory mark.
 */
const nativeBase64: Base64Encoder = (bytes) =>
  Buffer.from(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'), 'latin1');

async function* imageBytes(handle: ImageHandle): AsyncGenerator<Uint8Array> {
  switch (handle.kind) {
    case 'bytes':
      for (let i = 0; i < handle.bytes.byteLength; i += CHUNK) yield handle.bytes.subarray(i, i + CHUNK);
      return;
    case 'path':
      yield* createReadStream(handle.path, { highWaterMark: CHUNK }) as AsyncIterable<Buffer>;
      return;
    case 'blob':
      yield* handle.blob.stream() as unknown as AsyncIterable<Uint8Array>;
      return;
    case 'stream': {
      if (handle.used) throw new Error('a stream image can be sent only once');
      handle.used = true;
      yield handle.head;
      for (let next = await handle.rest.next(); !next.done; next = await handle.rest.next()) yield next.value;
    }
  }
}

export interface BodyStreamOptions {
  /** Called as bytes are handed to the socket. */
  onProgress?: ((sent: number, total: number) => void) | undefined;
}

/** The body as an async iterable of bytes, plus its exact length. Call again for a retry. */
export function bodyStream(
  segments: readonly BodySegment[],
  options: BodyStreamOptions = {},
): { length: number; stream: AsyncIterable<Uint8Array> } {
  const length = segmentsLength(segments);
  let sent = 0;
  const onChunk = options.onProgress
    ? (bytes: number) => {
        sent += bytes;
        options.onProgress?.(sent, length);
      }
    : undefined;
  const read = (image: { handle: unknown }) => imageBytes((image as TransportImage).handle);
  return { length, stream: segmentBytes(segments, read, onChunk, nativeBase64) };
}
