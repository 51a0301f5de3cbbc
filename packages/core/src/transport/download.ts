/**
 * Fetches a produced file (the video, a blended image) into a reserved output file, streamed and
 * capped. No credentials are sent: the file may live on another host than the gateway. Every
 * failure is a DownloadError: the result exists; only fetching or saving it failed.
 */
import type { Dispatcher } from 'undici';
import { type DownloadLimit, downloadLimit } from '../download-limit.js';
import { DownloadError } from '../errors/index.js';
import { plainText } from '../text.js';
import { discard, errorCode } from './codes.js';
import { LocalWriteError, localReason, OutputFile } from './output.js';
import { redirect, request } from './undici-parts.js';

export interface DownloadResult {
  path: string;
  bytes: number;
  contentType: string | undefined;
}

export interface DownloadOptions {
  dispatcher: Dispatcher;
  signal?: AbortSignal | undefined;
  /** Default 10 minutes. */
  timeoutMs?: number | undefined;
  /** The size the answer announced (caps the download at that plus slack). */
  expectedBytes?: number | string | undefined;
  /** The most accepted when no size was announced (default 2 GiB). */
  maxBytes?: number | undefined;
  /** Which operation produced the file, for messages. */
  operation?: string | undefined;
}

/** Raised inside the write loop; turned into a DownloadError below. */
class CapExceeded extends Error {}

export async function downloadFile(url: string, output: OutputFile, options: DownloadOptions): Promise<DownloadResult> {
  const timeoutMs = options.timeoutMs ?? 600_000;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  const fail = (reason: string, extra: Partial<ConstructorParameters<typeof DownloadError>[0]> = {}) =>
    new DownloadError({ operation: options.operation, url: plainText(url), path: output.path, reason, ...extra });
  let limit: DownloadLimit;
  try {
    limit = downloadLimit(options.expectedBytes, options.maxBytes);
  } catch (error) {
    await output.discard();
    throw fail(`${(error as Error).message}; nothing was fetched`);
  }

  try {
    const dispatcher = options.dispatcher.compose(redirect({ maxRedirections: 5 }));
    const response = await request(dispatcher, url, { method: 'GET', signal });
    if (response.statusCode < 200 || response.statusCode > 299) {
      await response.body.dump().catch(() => undefined);
      throw fail(`HTTP ${response.statusCode} from the file host`, {
        status: response.statusCode,
        hint: 'The file may have expired or moved; run the operation again for a fresh URL if it is gone.',
      });
    }
    const declared = Number(response.headers['content-length']);
    if (Number.isSafeInteger(declared) && declared > limit.maxBytes) {
      discard(response.body);
      throw fail(
        `the file host announces ${declared} bytes, more than ${limit.maxBytes} (${limit.reason}); nothing was saved`,
      );
    }
    const bytes = await output.write(response.body, limit.maxBytes, (n) => {
      discard(response.body);
      return new CapExceeded(
        `more than ${limit.maxBytes} bytes arrived (${limit.reason}); stopped at ${n}, nothing was saved`,
      );
    });
    await output.commit().catch((error) => {
      throw fail(localReason(error), { local: true, code: errorCode(error), cause: error });
    });
    const type = response.headers['content-type'];
    return { path: output.path, bytes, contentType: Array.isArray(type) ? type[0] : type };
  } catch (error) {
    await output.discard();
    if (error instanceof DownloadError) throw error;
    if (error instanceof CapExceeded) throw fail(error.message);
    if (error instanceof LocalWriteError) {
      throw fail(error.message, { local: true, code: error.code, cause: error.error });
    }
    const code = errorCode(error);
    if (deadline.aborted) throw fail(`timed out after ${timeoutMs} ms`, { cause: error });
    if (options.signal?.aborted) throw fail('aborted by the caller', { cause: error });
    throw fail(`the connection to the file host failed${code ? ` (${code})` : ''}`, { code, cause: error });
  }
}

/** Reserves `path` (see OutputFile.reserve) and downloads into it. */
export async function downloadToPath(
  url: string,
  path: string,
  options: DownloadOptions & { overwrite?: boolean | undefined },
): Promise<DownloadResult> {
  return downloadFile(url, await OutputFile.reserve(path, { overwrite: options.overwrite }), options);
}
