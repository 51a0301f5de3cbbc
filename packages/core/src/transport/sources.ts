/**
 * Image inputs the library accepts, turned into protocol `ImageSource`s: the size and first
 * bytes are read now (to validate before sending); the rest is read while sending.
 */
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FieldIssue, ValidationError } from '../errors/index.js';
import { type ImageSource, SNIFF_BYTES } from '../image.js';
import type { RequestDescription } from '../request.js';

/** Anything that can be uploaded as an image. */
export type ImageInput =
  /** A file path (or `file:` URL). */
  | string
  | URL
  /** Bytes in memory (a Buffer is a Uint8Array). */
  | Uint8Array
  /** A Blob or File (a File's name is used). */
  | Blob
  | { path: string | URL; name?: string }
  | { data: Uint8Array | Blob; name?: string }
  /** A stream of bytes with its size known in advance (Content-Length). Read once: not retried. */
  | {
      stream: AsyncIterable<Uint8Array> | Iterable<Uint8Array> | ReadableStream<Uint8Array>;
      size: number;
      name?: string;
    };

export type ImageHandle =
  | { kind: 'path'; path: string }
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'blob'; blob: Blob }
  | { kind: 'stream'; head: Uint8Array; rest: AsyncIterator<Uint8Array>; used: boolean };

export type TransportImage = ImageSource<ImageHandle>;

/** The images a request's body carries (their handles are this transport's). */
export function imagesOf(request: RequestDescription): TransportImage[] {
  const b = request.body;
  if (b.type === 'multipart') return b.parts.flatMap((p) => ('image' in p ? [p.image as TransportImage] : []));
  if (b.type === 'json-segments') {
    return b.segments.flatMap((s) => (typeof s === 'string' ? [] : [s.image as TransportImage]));
  }
  return [];
}

/** Whether every image can be read again (a retry needs a fresh body). */
export function replayable(sources: readonly TransportImage[]): boolean {
  return sources.every((s) => s.handle.kind !== 'stream');
}

async function fromPath(path: string, name?: string): Promise<TransportImage> {
  const info = await stat(path);
  if (!info.isFile()) throw new Error('is not a regular file');
  const file = await open(path, 'r');
  try {
    const head = new Uint8Array(Math.min(SNIFF_BYTES, info.size));
    await file.read(head, 0, head.length, 0);
    return { size: info.size, head, name: name ?? basename(path), handle: { kind: 'path', path } };
  } finally {
    await file.close();
  }
}

async function fromBlob(blob: Blob, name?: string): Promise<TransportImage> {
  const head = new Uint8Array(await blob.slice(0, SNIFF_BYTES).arrayBuffer());
  const fileName = name ?? ((blob as File).name || undefined);
  return { size: blob.size, head, name: fileName, handle: { kind: 'blob', blob } };
}

async function fromStream(
  stream: AsyncIterable<Uint8Array> | Iterable<Uint8Array> | ReadableStream<Uint8Array>,
  size: number,
  name?: string,
): Promise<TransportImage> {
  if (!Number.isSafeInteger(size) || size < 0) throw new Error('a stream needs its size in bytes (for Content-Length)');
  // for-await also takes sync iterables and web ReadableStreams.
  const rest = (async function* () {
    for await (const chunk of stream as AsyncIterable<Uint8Array>) yield chunk;
  })();
  const chunks: Uint8Array[] = [];
  let have = 0;
  while (have < Math.min(SNIFF_BYTES, size)) {
    const next = await rest.next();
    if (next.done) break;
    chunks.push(next.value);
    have += next.value.byteLength;
  }
  const head = Buffer.concat(chunks);
  return { size, head: head.subarray(0, SNIFF_BYTES), name, handle: { kind: 'stream', head, rest, used: false } };
}

function describeError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES') return 'permission denied';
  if (code === 'EISDIR') return 'is a directory';
  return (error as Error)?.message ?? String(error);
}

/** Resolves one input; problems become field issues (nothing is sent). */
export async function openImage(
  input: ImageInput,
  field: string,
  issues: FieldIssue[],
): Promise<TransportImage | undefined> {
  try {
    if (typeof input === 'string') return await fromPath(input);
    if (input instanceof URL) return await fromPath(fileURLToPath(input));
    if (input instanceof Uint8Array) {
      return { size: input.byteLength, head: input.subarray(0, SNIFF_BYTES), handle: { kind: 'bytes', bytes: input } };
    }
    if (input instanceof Blob) return await fromBlob(input);
    if (input && typeof input === 'object') {
      if ('path' in input) {
        const path = input.path instanceof URL ? fileURLToPath(input.path) : input.path;
        return await fromPath(path, input.name);
      }
      if ('data' in input) {
        if (input.data instanceof Blob) return await fromBlob(input.data, input.name);
        if (input.data instanceof Uint8Array) {
          return {
            size: input.data.byteLength,
            head: input.data.subarray(0, SNIFF_BYTES),
            name: input.name,
            handle: { kind: 'bytes', bytes: input.data },
          };
        }
      }
      if ('stream' in input) return await fromStream(input.stream, input.size, input.name);
    }
    issues.push({ field, message: 'must be a file path, bytes, a Blob, or { stream, size }' });
  } catch (error) {
    const where = typeof input === 'string' ? ` ${input}` : '';
    issues.push({ field, message: `cannot read${where}: ${describeError(error)}` });
  }
  return undefined;
}

export async function openImages(
  inputs: Record<string, ImageInput | undefined>,
  operation: string,
): Promise<Record<string, TransportImage | undefined>> {
  const issues: FieldIssue[] = [];
  const out: Record<string, TransportImage | undefined> = {};
  await Promise.all(
    Object.entries(inputs).map(async ([field, input]) => {
      out[field] = input === undefined ? undefined : await openImage(input, field, issues);
    }),
  );
  if (issues.length > 0) throw new ValidationError(issues, operation);
  return out;
}
