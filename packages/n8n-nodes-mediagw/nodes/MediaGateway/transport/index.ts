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
	type RequestDescription,
	type RetryPolicy,
	retryDelay,
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
		// byte of a streamed body in memory to replay it on a 307/308 (256 MiB upload: +260 MiB RSS).
		// The gateway's upload routes do not redirect (the core's transport never follows one
		// either); a 3xx answer is reported by the core's parser.
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

/** Connection failures that end an upload the gateway stopped reading. */
const BROKEN = new Set(['EPIPE', 'ECONNRESET', 'ECONNABORTED']);

/**
 * An upload that broke off before all of its body was handed over: the gateway cannot have a
 * complete request, so no task exists. Measured: a gateway that answers early (401, 413, 429)
 * and closes the connection while the body is still streaming makes Node's HTTP client (under
 * n8n's axios) fail with EPIPE or ECONNRESET before it has read that answer.
 */
function cutUpload(request: RequestDescription, source: BinarySource, error: unknown): ConnectionError | undefined {
	const { produced = 0, length = 0 } = source;
	const found = error as { code?: unknown; cause?: { code?: unknown } } | undefined;
	const code = [found?.code, found?.cause?.code].find((c): c is string => typeof c === 'string');
	if (produced >= length || code === undefined || !BROKEN.has(code)) return undefined;
	const host = new URL(request.url).host;
	return new ConnectionError(
		`${request.operation}: the gateway at ${host} closed the connection after at most ${produced} of the ${length} bytes of the upload (${code}), before n8n could read an answer; no task was created. Gateways do this when they refuse a request before reading it: a wrong key (401/403), a body too large for them (413) or a rate limit (429)`,
		{ operation: request.operation, code },
	);
}

export async function sendRequest(
	this: IExecuteFunctions,
	request: RequestDescription,
	retry: RetryPolicy,
): Promise<RawResponse> {
	const open = async (id: string, chunkSize: number) => await this.helpers.getBinaryStream(id, chunkSize);
	for (let attempt = 0; ; attempt++) {
		// Rebuilt for every attempt: a streamed body is read once.
		const source: BinarySource = { open, node: this.getNode() };
		let body: HttpBody | undefined;
		let response: IN8nHttpFullResponse;
		try {
			body = await toHttpBody(request.body, source);
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_NAME,
				toOptions(request, body),
			)) as IN8nHttpFullResponse;
		} catch (error) {
			// An image that could not be read stops the body: no complete request reached the gateway.
			const unreadable = source.failed;
			if (unreadable) throw unreadable;
			const cut = body?.streamed ? cutUpload(request, source, error) : undefined;
			if (!cut) throw noAnswer(request, error);
			// The gateway cannot have acted on an incomplete body: as safe to send again as a 429.
			const wait = retryDelay(attempt, undefined, retry);
			if (wait === undefined) throw cut;
			await sleep(wait);
			continue;
		} finally {
			// A gateway may answer (401, 413...) before reading the whole body: close what is open.
			if (body?.streamed) release(body.body);
		}
		const raw = toRaw(response);
		if (!RETRYABLE_STATUSES.has(raw.status)) return raw;
		const wait = retryDelay(attempt, parseRetryAfter(header(raw.headers, 'retry-after')), retry);
		if (wait === undefined) return raw;
		await sleep(wait);
	}
}
