/**
 * The one place that talks HTTP to the gateway. It turns the core's request description into n8n
 * request options, lets n8n add the key (`httpRequestWithAuthentication`), retries what the core's
 * policy says can be retried (429, 503) with n8n's `sleep`, and hands back the raw answer for the
 * core's parsers. The body comes back as bytes so that big integers keep every digit.
 */
import type { IExecuteFunctions, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import {
	ConnectionError,
	type HeaderBag,
	header,
	parseRetryAfter,
	type RawResponse,
	RETRYABLE_STATUSES,
	type RequestBody,
	type RequestDescription,
	type RetryPolicy,
	retryDelay,
	type SniffedImage,
} from '@mediagw/core/protocol';
import { CREDENTIAL_NAME } from '../helpers/settings';

/** Images reach the transport as n8n binary data already read into a Buffer. */
function bytesOf(image: SniffedImage): Buffer {
	return image.handle as Buffer;
}

function toBody(body: RequestBody): FormData | string {
	switch (body.type) {
		case 'json':
			return body.text;
		case 'json-segments':
			// Blend: the JSON text with each image written as base64 where the core placed it.
			return body.segments
				.map((segment) =>
					typeof segment === 'string'
						? segment
						: bytesOf(segment.image).toString(segment.encoding === 'base64' ? 'base64' : 'latin1'),
				)
				.join('');
		case 'multipart': {
			const form = new FormData();
			for (const part of body.parts) {
				if ('value' in part) form.append(part.name, part.value);
				else form.append(part.name, new Blob([bytesOf(part.image)], { type: part.contentType }), part.filename);
			}
			return form;
		}
	}
}

function toOptions(request: RequestDescription): IHttpRequestOptions {
	const headers: Record<string, string> = { ...request.headers };
	// FormData writes its own Content-Type with the boundary.
	if (request.body.type === 'multipart') delete headers['content-type'];
	return {
		method: request.method,
		url: request.url,
		headers,
		body: toBody(request.body),
		json: false,
		encoding: 'arraybuffer',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	};
}

function toRaw(response: IN8nHttpFullResponse): RawResponse {
	const body = response.body as Buffer | string | undefined;
	return {
		status: response.statusCode,
		headers: response.headers as HeaderBag,
		body: body === undefined ? '' : typeof body === 'string' ? body : new Uint8Array(body),
	};
}

/** Failures where the request cannot have reached the gateway. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Why there is no complete answer, without any request detail (its headers hold the key). */
function noAnswer(request: RequestDescription, error: unknown): ConnectionError {
	const found = error as { code?: unknown; cause?: { code?: unknown } } | undefined;
	const code = [found?.code, found?.cause?.code].find((c): c is string => typeof c === 'string');
	const host = new URL(request.url).host;
	const message =
		code !== undefined && NOT_SENT.has(code)
			? `${request.operation}: could not reach the gateway at ${host} (${code})`
			: `${request.operation}: the answer from the gateway at ${host} broke off${code ? ` (${code})` : ''}; the task may exist, check before submitting again`;
	return new ConnectionError(message, { operation: request.operation, code });
}

export async function sendRequest(
	this: IExecuteFunctions,
	request: RequestDescription,
	retry: RetryPolicy,
): Promise<RawResponse> {
	for (let attempt = 0; ; attempt++) {
		let response: IN8nHttpFullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_NAME,
				toOptions(request),
			)) as IN8nHttpFullResponse;
		} catch (error) {
			throw noAnswer(request, error);
		}
		const raw = toRaw(response);
		if (!RETRYABLE_STATUSES.has(raw.status)) return raw;
		const wait = retryDelay(attempt, parseRetryAfter(header(raw.headers, 'retry-after')), retry);
		if (wait === undefined) return raw;
		await sleep(wait);
	}
}
