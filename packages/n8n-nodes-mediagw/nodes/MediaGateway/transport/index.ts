/**
 * The one place that talks HTTP to the gateway. It turns the core's request description into n8n
 * request options (the body streamed from n8n's binary store, transport/body.ts), lets n8n add the
 * key (`httpRequestWithAuthentication`), and loops around the core's retry decision with n8n's
 * `sleep`. The answer comes back as bytes so that big integers keep every digit.
 */
import type { IExecuteFunctions, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import {
	type AttemptOutcome,
	decideRetry,
	type HeaderBag,
	noAnswer,
	type RawResponse,
	type RequestDescription,
	type RetryPolicy,
} from '@mediagw/core/protocol';
import { CREDENTIAL_NAME } from '../helpers/settings';
import { release } from '../helpers/streams';
import { type BinarySource, type HttpBody, toHttpBody } from './body';

/** Core headers plus the body's own content-type and exact content-length. */
function toOptions(request: RequestDescription, body: HttpBody): IHttpRequestOptions {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(request.headers)) {
		if (!/^content-(type|length)$/i.test(name)) headers[name] = value;
	}
	Object.assign(headers, body.headers);
	return {
		method: request.method,
		url: request.url,
		headers,
		body: body.body as IHttpRequestOptions['body'],
		json: false,
		encoding: 'arraybuffer',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// Measured: with redirects on, n8n's axios sends through follow-redirects, which keeps every
		// byte of a streamed body to replay it on a 307/308 (256 MiB upload: +260 MiB RSS). The
		// gateway's routes do not redirect (the core's transport never follows one either).
		...(body.streamed ? { disableFollowRedirect: true } : {}),
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
	const open = async (id: string, chunkSize: number) => await this.helpers.getBinaryStream(id, chunkSize);
	for (let attempt = 0; ; attempt++) {
		// Rebuilt for every attempt: a streamed body is read once.
		const source: BinarySource = { open, node: this.getNode() };
		let body: HttpBody | undefined;
		let raw: RawResponse | undefined;
		let outcome: AttemptOutcome;
		try {
			body = await toHttpBody(request.body, source);
			const response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_NAME,
				toOptions(request, body),
			)) as IN8nHttpFullResponse;
			raw = toRaw(response);
			outcome = { kind: 'answer', status: raw.status, headers: raw.headers };
		} catch (error) {
			// An image that could not be read stops the body: no complete request reached the gateway.
			if (source.failed) throw source.failed;
			outcome = { kind: 'no-answer', code: codeOf(error), bodyComplete: source.complete !== false };
		} finally {
			// A gateway may answer (401, 413...) before reading the whole body: close what is open.
			if (body?.streamed) release(body.body);
		}
		const decision = decideRetry(outcome, attempt, { policy: retry });
		if (decision.retry) {
			await sleep(decision.delayMs);
			continue;
		}
		// Never the request's own error: its config holds the headers, the key among them.
		if (!raw) {
			const failed = outcome.kind === 'no-answer' ? outcome : { code: undefined, bodyComplete: true };
			throw noAnswer(request.operation, request.url, failed.code, undefined, failed.bodyComplete);
		}
		return raw;
	}
}
