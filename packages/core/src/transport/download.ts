/**
 * Downloads a produced file (the video, a blended image) to disk, streamed.
 * No credentials are sent: the file may live on another host than the gateway.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Dispatcher } from 'undici';
import { ConnectionError, GatewayError, TimeoutError } from '../errors.js';
import { redirect, request } from './undici-parts.js';

export interface DownloadResult {
  path: string;
  bytes: number;
  contentType: string | undefined;
}

export interface DownloadOptions {
  dispatcher: Dispatcher;
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
}

export async function downloadFile(url: string, path: string, options: DownloadOptions): Promise<DownloadResult> {
  const timeoutMs = options.timeoutMs ?? 600_000;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  const dispatcher = options.dispatcher.compose(redirect({ maxRedirections: 5 }));
  const partial = `${path}.part`;
  try {
    const response = await request(dispatcher, url, { method: 'GET', signal });
    if (response.statusCode < 200 || response.statusCode > 299) {
      await response.body.dump();
      throw new GatewayError({
        status: response.statusCode,
        gatewayMessage: `download of ${url} failed`,
        hint: 'The file may have expired or moved; run the operation again to get a fresh URL.',
      });
    }
    await mkdir(dirname(path), { recursive: true });
    let bytes = 0;
    response.body.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    await pipeline(response.body, createWriteStream(partial));
    await rename(partial, path);
    const type = response.headers['content-type'];
    return { path, bytes, contentType: Array.isArray(type) ? type[0] : type };
  } catch (error) {
    await rm(partial, { force: true });
    if (error instanceof GatewayError) throw error;
    if (deadline.aborted) throw new TimeoutError({ phase: 'total', timeoutMs, cause: error });
    throw new ConnectionError(`could not download ${url}: ${(error as Error)?.message ?? String(error)}`, {
      code: (error as { code?: string })?.code,
      cause: error,
    });
  }
}
