/**
 * A described body's bytes, in order, for any transport: text segments as UTF-8, images as their
 * holder reads them (the undici transport from files, Blobs and streams; the n8n node from n8n's
 * binary store), raw or base64-encoded chunk by chunk. Pure: no file system, no streams of its own.
 */
import type { SniffedImage } from './image.js';
import type { BodySegment } from './request.js';

/** How a transport reads one image's bytes (in chunks of any size). */
export type ImageReader = (image: SniffedImage) => AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

const ALPHABET = new TextEncoder().encode('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
const PAD = 0x3d; // '='

/** Turns some bytes (a whole number of 3-byte groups, except at the end) into their base64 text. */
export type Base64Encoder = (bytes: Uint8Array) => Uint8Array;

/**
 * Base64 of some bytes, written straight into bytes: the default, for processes with a large heap.
 * `toString('base64')` would make a JS string of every chunk first, and in a large heap (n8n's)
 * those strings pile up in the old generation until a full collection (measured in n8n's engine:
 * blend 4 x 64 MiB peaked ~135 MiB above idle that way, ~70 MiB this way). About 1 GB/s here: far
 * above any upload link.
 */
export function base64Bytes(src: Uint8Array): Uint8Array {
  const n = src.byteLength;
  const out = new Uint8Array(4 * Math.ceil(n / 3));
  const a = ALPHABET;
  const whole = n - (n % 3);
  let j = 0;
  for (let i = 0; i < whole; i += 3) {
    const v = ((src[i] as number) << 16) | ((src[i + 1] as number) << 8) | (src[i + 2] as number);
    out[j] = a[v >>> 18] as number;
    out[j + 1] = a[(v >>> 12) & 63] as number;
    out[j + 2] = a[(v >>> 6) & 63] as number;
    out[j + 3] = a[v & 63] as number;
    j += 4;
  }
  if (whole < n) {
    const second = whole + 1 < n;
    const v = ((src[whole] as number) << 16) | ((second ? (src[whole + 1] as number) : 0) << 8);
    out[j] = a[v >>> 18] as number;
    out[j + 1] = a[(v >>> 12) & 63] as number;
    out[j + 2] = second ? (a[(v >>> 6) & 63] as number) : PAD;
    out[j + 3] = PAD;
  }
  return out;
}

/** Base64 of a byte stream, chunk by chunk: whole 3-byte groups per chunk, the rest carried over. */
export async function* base64Chunks(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  encode: Base64Encoder = base64Bytes,
): AsyncGenerator<Uint8Array> {
  let carry = new Uint8Array(0);
  for await (const chunk of chunks) {
    let start = 0;
    if (carry.length > 0) {
      const need = 3 - carry.length;
      if (chunk.byteLength < need) {
        const joined = new Uint8Array(carry.length + chunk.byteLength);
        joined.set(carry);
        joined.set(chunk, carry.length);
        carry = joined;
        continue;
      }
      const group = new Uint8Array(3);
      group.set(carry);
      group.set(chunk.subarray(0, need), carry.length);
      yield encode(group);
      start = need;
    }
    const end = start + Math.floor((chunk.byteLength - start) / 3) * 3;
    if (end > start) yield encode(chunk.subarray(start, end));
    carry = chunk.slice(end);
  }
  if (carry.length > 0) yield encode(carry);
}

const encoder = new TextEncoder();

/**
 * The body's bytes in order; `onChunk` hears each chunk's size as it is handed on; `encode` is the
 * transport's choice of base64 encoder (see `base64Bytes`).
 */
export async function* segmentBytes(
  segments: readonly BodySegment[],
  read: ImageReader,
  onChunk?: (bytes: number) => void,
  encode: Base64Encoder = base64Bytes,
): AsyncGenerator<Uint8Array> {
  for (const segment of segments) {
    const chunks =
      typeof segment === 'string'
        ? [encoder.encode(segment)]
        : segment.encoding === 'raw'
          ? read(segment.image)
          : base64Chunks(read(segment.image), encode);
    for await (const chunk of chunks) {
      onChunk?.(chunk.byteLength);
      yield chunk;
    }
  }
}
