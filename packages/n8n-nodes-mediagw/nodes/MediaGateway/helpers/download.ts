/**
 * Fetches a produced file (the video, a blended image) into the item's binary data, streamed: the
 * response flows into n8n's binary store (`prepareBinaryData` with a Readable) and is never held
 * whole. Bytes are counted as they arrive against the core's limit (the announced size plus slack,
 * else 2 GiB); beyond it, or short of an announced length, the download stops and n8n's store
 * keeps nothing of it. Every failure is the core's DownloadError: the result exists.
 *
 * Kept apart from the gateway transport on purpose: the URL may point at any host (a CDN), so the
 * key is never sent with it.
 */
import type { IBinaryData, IExecuteFunctions, IN8nHttpFullResponse, IWebhookFunctions } from 'n8n-workflow';
import { DownloadError, downloadLimit, fileNameOf, type ProducedFile } from '@mediagw/core/protocol';
import { type ByteStream, readableClassOf, release } from './streams';

/** Why a download stopped on purpose. */
class DownloadStopped extends Error {}

export async function downloadFile(
	this: IExecuteFunctions | IWebhookFunctions,
	file: ProducedFile,
	operation: string,
): Promise<IBinaryData> {
	const fail = (reason: string, extra: { status?: number; cause?: unknown } = {}) =>
		new DownloadError({
			operation,
			url: file.url,
			reason,
			...extra,
			hint: `The ${file.kind} exists: ${file.url}. Turn off the download to keep only the URL.`,
		});
	let limit: ReturnType<typeof downloadLimit>;
	try {
		limit = downloadLimit(file.size);
	} catch (error) {
		throw fail(`${(error as Error).message}; nothing was fetched`);
	}
	let response: IN8nHttpFullResponse;
	try {
		response = (await this.helpers.httpRequest({
			method: 'GET',
			url: file.url,
			encoding: 'stream',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		})) as IN8nHttpFullResponse;
	} catch (error) {
		throw fail(`no answer from ${new URL(file.url).host}`, { cause: error });
	}
	const body = response.body as ByteStream;
	if (response.statusCode < 200 || response.statusCode > 299) {
		release(body);
		throw fail(`HTTP ${response.statusCode} from the file host`, { status: response.statusCode });
	}
	const header = response.headers['content-length'];
	const declared = typeof header === 'string' && /^\d+$/.test(header) ? Number(header) : undefined;
	if (declared !== undefined && declared > limit.maxBytes) {
		release(body);
		throw fail(`the file host announces ${declared} bytes, more than ${limit.maxBytes} (${limit.reason}); nothing was stored`);
	}
	const Readable = readableClassOf(body);
	if (!Readable) {
		release(body);
		throw fail('the answer is not a stream');
	}

	let received = 0;
	let stopped: string | undefined;
	const counted = (async function* () {
		for await (const chunk of body as AsyncIterable<Uint8Array>) {
			received += chunk.byteLength;
			if (received > limit.maxBytes) {
				stopped = `more than ${limit.maxBytes} bytes arrived (${limit.reason}); nothing was stored`;
				throw new DownloadStopped(stopped);
			}
			yield chunk;
		}
		if (declared !== undefined && received !== declared) {
			stopped = `the answer ended after ${received} of the ${declared} bytes it announced; nothing was stored`;
			throw new DownloadStopped(stopped);
		}
	})();
	const headerType = response.headers['content-type'];
	const mimeType = (typeof headerType === 'string' && headerType.split(';')[0]?.trim()) || file.contentType;
	try {
		const stream = Readable.from(counted, { objectMode: false });
		return await this.helpers.prepareBinaryData(stream, fileNameOf(file.url, file.name), mimeType || undefined);
	} catch (error) {
		throw fail(stopped ?? `the download broke off (${(error as Error)?.message ?? error}); nothing was stored`, { cause: error });
	} finally {
		release(body);
	}
}
