/**
 * Images as the protocol sees them: a size, the first bytes (to sniff the real type) and an
 * opaque handle that only the transport (or an adapter such as the n8n node) knows how to read.
 * Pure: no file system, no streams.
 */
import { filetypeinfo } from 'magic-bytes.js';
import type { FieldIssue } from './errors/index.js';

/** How many leading bytes sniffing needs (enough for every image signature we accept). */
export const SNIFF_BYTES = 64;

export interface ImageSource<Handle = unknown> {
  /** Exact size in bytes (Content-Length is computed from it). */
  readonly size: number;
  /** The first bytes of the image (at least `SNIFF_BYTES`, or all of it if smaller). */
  readonly head: Uint8Array;
  /** File name for multipart, if known. */
  readonly name?: string | undefined;
  /** Opaque: a path, bytes, a Blob, a stream... read only by the transport. */
  readonly handle: Handle;
}

export interface SniffedImage<Handle = unknown> extends ImageSource<Handle> {
  readonly mime: string;
  readonly extension: string;
}

/** Image types we accept, by the MIME the bytes reveal. The spec does not list formats. */
export const IMAGE_TYPES: Readonly<Record<string, string>> = Object.freeze({
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/bmp': 'bmp',
  'image/tiff': 'tiff',
  'image/avif': 'avif',
  'image/heic': 'heic',
  'image/heif': 'heif',
});
const ALLOWED = 'PNG, JPEG, GIF, WebP, BMP, TIFF, AVIF, HEIC';

/** The image type of some leading bytes, or undefined if they are not an image we accept. */
export function sniffImageType(head: Uint8Array): { mime: string; extension: string } | undefined {
  for (const info of filetypeinfo(head)) {
    const mime = info.mime === 'image/jpg' ? 'image/jpeg' : info.mime;
    if (mime && IMAGE_TYPES[mime]) return { mime, extension: IMAGE_TYPES[mime] };
  }
  return undefined;
}

function describe(head: Uint8Array): string {
  if (head.length === 0) return 'it is empty';
  const info = filetypeinfo(head)[0];
  return info ? `its bytes are ${info.mime ?? info.typename}` : 'its bytes match no known image type';
}

/** Sniffs one image, pushing an issue for `field` if it is not an image. */
export function checkImage<H>(
  field: string,
  source: ImageSource<H>,
  issues: FieldIssue[],
): SniffedImage<H> | undefined {
  if (!source || !(source.head instanceof Uint8Array) || !Number.isSafeInteger(source.size) || source.size < 0) {
    issues.push({ field, message: 'must be an image (a file, bytes or a stream with its size)' });
    return undefined;
  }
  const type = sniffImageType(source.head);
  if (!type || source.size === 0) {
    issues.push({ field, message: `is not an image (${describe(source.head)}); allowed: ${ALLOWED}` });
    return undefined;
  }
  return { ...source, ...type };
}

/** Length of the base64 text of `n` bytes. */
export function base64Length(n: number): number {
  return 4 * Math.ceil(n / 3);
}

const DATA_URI = /^data:([a-z]+\/[a-z0-9.+-]+);base64,/i;

/** Splits a `data:<mime>;base64,<data>` URI; undefined if it is not of that form. */
export function splitDataUri(uri: string): { mime: string; base64: string } | undefined {
  const m = DATA_URI.exec(uri);
  if (!m?.[1]) return undefined;
  return { mime: m[1].toLowerCase(), base64: uri.slice(m[0].length) };
}

/** Decodes the first `n` bytes of base64 text (enough to sniff), without decoding the rest. */
export function decodeBase64Head(base64: string, n = SNIFF_BYTES): Uint8Array {
  const chars = base64.slice(0, base64Length(n)).replace(/=+$/, '');
  const bin = atob(chars.slice(0, chars.length - (chars.length % 4)));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** A data URI whose bytes really are an image of the type it declares. */
export function checkDataUri(field: string, uri: unknown, issues: FieldIssue[]): void {
  if (typeof uri !== 'string') {
    issues.push({ field, message: 'must be a data URI text: data:<image mime>;base64,<data>' });
    return;
  }
  const parts = splitDataUri(uri);
  if (!parts) {
    issues.push({ field, message: 'is not of the form data:<image mime>;base64,<data>' });
    return;
  }
  let type: ReturnType<typeof sniffImageType>;
  try {
    type = sniffImageType(decodeBase64Head(parts.base64));
  } catch {
    type = undefined;
  }
  if (!type) issues.push({ field, message: `is not an image (declared ${parts.mime}, the bytes match no image type)` });
  else if (type.mime !== parts.mime)
    issues.push({ field, message: `declares ${parts.mime} but its bytes are ${type.mime}` });
}
