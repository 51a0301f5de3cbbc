/**
 * The one place that talks HTTP to the gateway. It turns the core's request description into n8n
 * request options, lets n8n add the key (`httpRequestWithAuthentication`), and loops around the
 * core's retry decision with n8n's `sleep`. The body comes back as bytes so that big integers keep
 * every digit; the core's parsers read it.
 */
import type { IExecuteFunctions, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import {
	type AttemptOutcome,
	decideRetry,
	type HeaderBag,
	noAnswer,
	type RawResponse,
	type RequestBody,
	type RequestDescription,
	type RetryPolicy,
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
			// JSON text with each image written as base64 where the core placed it.
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
	return {
		method: request.method,
		url: request.url,
		headers: { ...request.headers },
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

/** The failure's code (axios puts it on the error or its cause). */
function codeOf(error: unknown): string | undefined {
	const found = error as { code?: unknown; cause?: { code?: unknown } } | undefined;
	return [found?.code, found?.cause?.code].find((c): c is string => typeof c === 'string');
}

export async function sendRequest(this: IExecuteFunctions, request: RequestDescription, retry: RetryPolicy): Promise<RawResponse> {
	for (let attempt = 0; ; attempt++) {
		let raw: RawResponse | undefined;
		let outcome: AttemptOutcome;
		try {
			const response = (await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_NAME, toOptions(request))) as IN8nHttpFullResponse;
			raw = toRaw(response);
			outcome = { kind: 'answer', status: raw.status, headers: raw.headers };
		} catch (error) {
			outcome = { kind: 'no-answer', code: codeOf(error) };
		}
		const decision = decideRetry(outcome, attempt, { policy: retry });
		if (decision.retry) {
			await sleep(decision.delayMs);
			continue;
		}
		// Never the request's own error: its config holds the headers, the key among them.
		if (!raw) throw noAnswer(request.operation, request.url, outcome.kind === 'no-answer' ? outcome.code : undefined);
		return raw;
	}
}
