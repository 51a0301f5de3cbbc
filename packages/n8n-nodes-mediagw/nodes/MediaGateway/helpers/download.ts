/**
 * Fetches a finished video into the item's binary data. Kept apart from the gateway transport on
 * purpose: the URL may point at any host (a CDN), so the key is never sent with it.
 */
import type { IBinaryData, IExecuteFunctions, IN8nHttpFullResponse } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

/** What `prepareBinaryData` takes (a Buffer or a readable stream), without importing 'stream'. */
type BinaryInput = Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0];

function fileNameOf(url: string): string {
	const last = new URL(url).pathname.split('/').filter(Boolean).pop();
	return last ? decodeURIComponent(last) : 'video.mp4';
}

export async function downloadVideo(
	this: IExecuteFunctions,
	url: string,
	mimeType: string | undefined,
	itemIndex: number,
): Promise<IBinaryData> {
	const response = (await this.helpers.httpRequest({
		method: 'GET',
		url,
		// Streamed straight into n8n's binary storage: a video can be large.
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	})) as IN8nHttpFullResponse;
	const body = response.body as BinaryInput;
	if (response.statusCode < 200 || response.statusCode > 299) {
		(body as { destroy?: () => void }).destroy?.();
		throw new NodeApiError(
			this.getNode(),
			{ status: response.statusCode, url },
			{
				itemIndex,
				httpCode: String(response.statusCode),
				message: `Downloading the video failed with HTTP ${response.statusCode}`,
				description: `The video was created; its URL is ${url}. Turn off "Download Video" to keep only the URL.`,
			},
		);
	}
	const headerType = response.headers['content-type'];
	const type = (typeof headerType === 'string' && headerType.split(';')[0]?.trim()) || mimeType;
	return await this.helpers.prepareBinaryData(body, fileNameOf(url), type);
}
