/**
 * Request bodies as byte streams: segments in order, images read in chunks (raw or base64),
 * so memory stays flat however large the images are.
 */
import { createReadStream } from 'node:fs';
import { type BodySegment, segmentsLength } from '../request.js';
import type { ImageHandle, TransportImage } from './sources.js';

/** Read size for files; a multiple of 3 so each chunk base64-encodes without padding. */
const CHUNK = 3 * 64 * 1024;

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

/** Re-chunks to multiples of 3 bytes and encodes each chunk to base64 text bytes. */
async function* base64Of(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  let carry: Buffer = Buffer.alloc(0);
  for await (const chunk of bytes) {
    const data: Buffer = carry.length
      ? Buffer.concat([carry, chunk])
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const whole = data.length - (data.length % 3);
    if (whole > 0) yield Buffer.from(data.subarray(0, whole).toString('base64'), 'latin1');
    carry = Buffer.from(data.subarray(whole));
  }
  if (carry.length) yield Buffer.from(carry.toString('base64'), 'latin1');
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
  async function* generate(): AsyncGenerator<Uint8Array> {
    let sent = 0;
    const emit = (chunk: Uint8Array) => {
      sent += chunk.byteLength;
      options.onProgress?.(sent, length);
      return chunk;
    };
    for (const segment of segments) {
      if (typeof segment === 'string') {
        yield emit(Buffer.from(segment, 'utf8'));
        continue;
      }
      const handle = (segment.image as TransportImage).handle;
      const bytes = imageBytes(handle);
      for await (const chunk of segment.encoding === 'raw' ? bytes : base64Of(bytes)) yield emit(chunk);
    }
  }
  return { length, stream: generate() };
}
