/**
 * Fetches a produced file (video, image) into the item's binary data, streamed and capped (the
 * announced size plus slack, else the core's maximum). Kept apart from the gateway transport on
 * purpose: the URL may point at any host (a CDN), so the key is never sent with it.
 */
import type { IBinaryData, IExecuteFunctions, IN8nHttpFullResponse, IWebhookFunctions } from 'n8n-workflow';
import { DownloadError, downloadLimit, fileNameOf, type ProducedFile } from '@mediagw/core/protocol';

/** What `prepareBinaryData` takes (a Buffer or a readable stream), without importing 'stream'. */
type BinaryInput = Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0];
interface BodyStream {
	on(event: 'data', listener: (chunk: { length: number }) => void): unknown;
	on(event: 'error', listener: (error: unknown) => void): unknown;
	destroy(error?: Error): unknown;
	pause(): unknown;
}

export async function downloadFile(
	this: IExecuteFunctions | IWebhookFunctions,
	file: ProducedFile,
	operation: string,
): Promise<IBinaryData> {
	const fail = (reason: string, status?: number) =>
		new DownloadError({ operation, url: file.url, reason, status, hint: `The result exists: ${file.url}. Turn off "Download" to keep only the URL.` });
	let limit: ReturnType<typeof downloadLimit>;
	try {
		limit = downloadLimit(file.size);
	} catch (error) {
		throw fail(`${(error as Error).message}; nothing was fetched`);
	}
	const response = (await this.helpers.httpRequest({
		method: 'GET',
		url: file.url,
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	})) as IN8nHttpFullResponse;
	const body = response.body as BodyStream;
	// Nobody else listens before prepareBinaryData: a destroyed stream must not crash the process.
	body.on('error', () => undefined);
	if (response.statusCode < 200 || response.statusCode > 299) {
		body.destroy();
		throw fail(`HTTP ${response.statusCode} from the file host`, response.statusCode);
	}
	const declared = Number(response.headers['content-length']);
	if (Number.isSafeInteger(declared) && declared > limit.maxBytes) {
		body.destroy();
		throw fail(`the file host announces ${declared} bytes, more than ${limit.maxBytes} (${limit.reason})`);
	}
	let bytes = 0;
	let capped: DownloadError | undefined;
	body.on('data', (chunk) => {
		bytes += chunk.length;
		if (bytes > limit.maxBytes && !capped) {
			capped = fail(`more than ${limit.maxBytes} bytes arrived (${limit.reason}); nothing was kept`);
			body.destroy(capped);
		}
	});
	// A 'data' listener would start the flow before n8n reads the stream: hold it until n8n does
	// (every chunk n8n reads is still counted: read() emits 'data').
	body.pause();
	const headerType = response.headers['content-type'];
	const type = (typeof headerType === 'string' && headerType.split(';')[0]?.trim()) || file.contentType;
	try {
		return await this.helpers.prepareBinaryData(body as unknown as BinaryInput, fileNameOf(file.url, file.name), type);
	} catch (error) {
		if (capped) throw capped;
		throw fail(`the download broke off (${(error as Error)?.message ?? error})`);
	}
}
