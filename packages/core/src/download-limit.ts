/**
 * How much of a produced file we accept. A host that streams forever must not fill the disk (or
 * n8n's binary store): the cap is the size the answer announced plus some slack, else a maximum.
 */

/** The default maximum when the answer announces no size: 2 GiB, room for a long video. */
export const DEFAULT_MAX_DOWNLOAD_BYTES = 2 * 1024 ** 3;
/** Slack on an announced size: 1 MiB or 1 %, whichever is more (sizes are sometimes approximate). */
const SLACK_BYTES = 1024 * 1024;

export interface DownloadLimit {
  /** Stop (and fail) once more than this many bytes arrived. */
  maxBytes: number;
  /** The announced size, when the answer gave a usable one. */
  announced: number | undefined;
  /** Why the cap is what it is, for the message when it is hit. */
  reason: string;
}

/**
 * The cap for a file whose size the answer may have announced. Throws a plain Error (the caller
 * words it) when the announced size is already above the maximum: nothing is fetched then.
 */
export function downloadLimit(announced: unknown, maxBytes: number = DEFAULT_MAX_DOWNLOAD_BYTES): DownloadLimit {
  const size = typeof announced === 'string' && /^\d+$/.test(announced) ? Number(announced) : announced;
  if (typeof size === 'number' && Number.isFinite(size) && size >= 0) {
    if (size > maxBytes) {
      throw new Error(`the file is announced as ${size} bytes, above the ${maxBytes}-byte download limit`);
    }
    const capped = Math.min(maxBytes, Math.ceil(size + Math.max(SLACK_BYTES, size / 100)));
    return { maxBytes: capped, announced: size, reason: `the announced ${size} bytes plus slack` };
  }
  return { maxBytes, announced: undefined, reason: 'the download limit' };
}

import { hasControlCharacters } from './text.js';

/** The last path segment of a URL as a file name, else the fallback. */
export function fileNameOf(url: string, fallback: string): string {
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).pop();
    const name = last ? decodeURIComponent(last) : '';
    const usable = name.length > 0 && name.length <= 200 && !/[/\\]/.test(name) && !hasControlCharacters(name);
    return usable && name !== '.' && name !== '..' ? name : fallback;
  } catch {
    return fallback;
  }
}
