/**
 * Fetches a produced file (the video, a blended image) into the item's binary data, streamed:
 * the response flows into n8n's binary store (`prepareBinaryData` with a Readable) and is never
 * held whole. Bytes are counted as they arrive; beyond the limit the download is stopped, and n8n's
 * store discards what it had written (a failed stream leaves no file behind).
 *
 * Kept apart from the gateway transport on purpose: the URL may point at any host (a CDN), so the
 * key is never sent with it.
 */
import type { IBinaryData, IExecuteFunctions, IN8nHttpFullResponse } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { type ByteStream, readableClassOf, release } from './streams';

const MiB = 1024 * 1024;

/** Largest download when the gateway announces no size. */
export const MAX_DOWNLOAD_BYTES = 2 * 1024 * MiB;

/**
 * How many bytes a download may bring: the announced size plus 10% (at least 1 MiB) of slack, or
 * MAX_DOWNLOAD_BYTES when no size was announced.
 */
export function downloadLimit(announcedBytes?: number): number {
	if (announcedBytes === undefined || !Number.isSafeInteger(announcedBytes) || announcedBytes <= 0) {
		return MAX_DOWNLOAD_BYTES;
	}
	return announcedBytes + Math.max(MiB, Math.ceil(announcedBytes / 10));
}

export interface DownloadRequest {
	url: string;
	/** What was produced, for messages: "video", "blended image". */
	what: string;
	/** The type the gateway announced; the response's Content-Type wins when it has one. */
	mimeType?: string | undefined;
	/** Default: the last segment of the URL's path, else `fallbackName`. */
	fileName?: string | undefined;
	fallbackName: string;
	/** The size the gateway announced (sets the limit). */
	announcedBytes?: number | undefined;
	/** Overrides the limit from `downloadLimit(announcedBytes)`. */
	maxBytes?: number | undefined;
	/** What the user can do instead, appended to error descriptions. */
	hint?: string | undefined;
}

function fileNameOf(url: string, fallback: string): string {
	try {
		const last = new URL(url).pathname.split('/').filter(Boolean).pop();
		return last ? decodeURIComponent(last) : fallback;
	} catch {
		return fallback;
	}
}

function bytesText(n: number): string {
	return n >= MiB ? `${n} bytes (${(n / MiB).toFixed(1)} MiB)` : `${n} bytes`;
}

/** Why a download stopped on purpose. */
class DownloadStopped extends Error {}

export async function downloadToBinary(
	this: IExecuteFunctions,
	target: DownloadRequest,
	itemIndex: number,
): Promise<IBinaryData> {
	const { url, what } = target;
	const exists = `The ${what} was created; its URL is ${url}.${target.hint ? ` ${target.hint}` : ''}`;
	const limit = target.maxBytes ?? downloadLimit(target.announcedBytes);
	const announced = target.announcedBytes && target.announcedBytes > 0 ? target.announcedBytes : undefined;
	const basis =
		target.maxBytes !== undefined
			? 'the configured limit'
			: announced !== undefined
				? `the announced size, ${bytesText(announced)}, plus 10% slack`
				: 'the maximum when the gateway announces no size';
	const limitText = `${bytesText(limit)}, ${basis}`;
	const tooLarge = (detail: string) =>
		new NodeOperationError(this.getNode(), `Downloading the ${what} stopped: ${detail}`, {
			itemIndex,
			description: `Limit: ${limitText}. Nothing was stored. ${exists}`,
		});

	let response: IN8nHttpFullResponse;
	try {
		response = (await this.helpers.httpRequest({
			method: 'GET',
			url,
			encoding: 'stream',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		})) as IN8nHttpFullResponse;
	} catch (error) {
		throw new NodeApiError(this.getNode(), { url, message: String((error as Error)?.message ?? error) }, {
			itemIndex,
			message: `Downloading the ${what} failed: no answer from ${new URL(url).host}`,
			description: exists,
		});
	}
	const body = response.body as ByteStream;
	if (response.statusCode < 200 || response.statusCode > 299) {
		release(body);
		throw new NodeApiError(
			this.getNode(),
			{ status: response.statusCode, url },
			{
				itemIndex,
				httpCode: String(response.statusCode),
				message: `Downloading the ${what} failed with HTTP ${response.statusCode}`,
				description: exists,
			},
		);
	}

	const lengthHeader = response.headers['content-length'];
	const declared = typeof lengthHeader === 'string' && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
	if (declared !== undefined && declared > limit) {
		release(body);
		throw tooLarge(`the server announced ${bytesText(declared)}, more than the limit`);
	}
	const Readable = readableClassOf(body);
	if (!Readable) {
		release(body);
		throw new NodeOperationError(this.getNode(), `Downloading the ${what} failed: the answer is not a stream`, {
			itemIndex,
			description: exists,
		});
	}

	let received = 0;
	let stopped: string | undefined;
	const counted = (async function* () {
		for await (const chunk of body as AsyncIterable<Uint8Array>) {
			received += chunk.byteLength;
			if (received > limit) {
				stopped = `more than ${bytesText(limit)} arrived`;
				throw new DownloadStopped(stopped);
			}
			yield chunk;
		}
		if (declared !== undefined && received !== declared) {
			stopped = `the answer ended after ${bytesText(received)} of the ${bytesText(declared)} it announced`;
			throw new DownloadStopped(stopped);
		}
	})();

	const headerType = response.headers['content-type'];
	const mimeType = (typeof headerType === 'string' && headerType.split(';')[0]?.trim()) || target.mimeType;
	const fileName = target.fileName ?? fileNameOf(url, target.fallbackName);
	try {
		return await this.helpers.prepareBinaryData(
			Readable.from(counted, { objectMode: false }),
			fileName,
			mimeType || undefined,
		);
	} catch (error) {
		if (stopped !== undefined && received > limit) throw tooLarge(stopped);
		throw new NodeApiError(this.getNode(), { url, message: String((error as Error)?.message ?? error) }, {
			itemIndex,
			message: `Downloading the ${what} failed: ${stopped ?? 'the answer broke off'}`,
			description: `Nothing was stored. ${exists}`,
		});
	} finally {
		release(body);
	}
}

/** The finished video of Text to Video into binary data. */
export async function downloadVideo(
	this: IExecuteFunctions,
	url: string,
	mimeType: string | undefined,
	itemIndex: number,
	announcedBytes?: number,
): Promise<IBinaryData> {
	return await downloadToBinary.call(
		this,
		{
			url,
			what: 'video',
			mimeType,
			fallbackName: 'video.mp4',
			announcedBytes,
			hint: 'Turn off "Download Video" to keep only the URL.',
		},
		itemIndex,
	);
}
