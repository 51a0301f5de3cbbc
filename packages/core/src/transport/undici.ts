/**
 * The one place the library talks HTTP: undici `request()` (not `fetch`: it tees upload bodies),
 * with phase timeouts, an overall deadline, abort, a response size cap and the retry policy.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { OperationName } from '../config.js';
import {
  AbortedError,
  ConnectionError,
  InvalidResponseError,
  MediaGatewayError,
  TimeoutError,
  type TimeoutPhase,
} from '../errors.js';
import { encodeMultipart, type RequestDescription } from '../request.js';
import type { RawResponse } from '../response.js';
import { header, httpError } from '../response.js';
import {
  DEFAULT_RETRY,
  parseRetryAfter,
  RETRYABLE_CONNECT_CODES,
  RETRYABLE_STATUSES,
  type RetryPolicy,
  retryDelay,
} from '../retry.js';
import { bodyStream } from './body.js';
import { replayable, type TransportImage } from './sources.js';
import { Agent, request as undiciRequest } from './undici-parts.js';

export interface TimeoutOptions {
  /** TCP/TLS connect (default 10 s). */
  connectMs?: number;
  /** From request sent to response headers (default 10 min: text-to-video answers when the video is done). */
  headersMs?: number;
  /** Longest silence while the response body arrives (default 60 s). */
  bodyMs?: number;
  /** The whole call, retries and waits included (default 15 min). */
  totalMs?: number;
}

export const DEFAULT_TIMEOUTS: Required<TimeoutOptions> = Object.freeze({
  connectMs: 10_000,
  headersMs: 600_000,
  bodyMs: 60_000,
  totalMs: 900_000,
});

export interface TransportOptions {
  timeouts?: TimeoutOptions;
  retry?: Partial<RetryPolicy>;
  /** Largest response body accepted (default 16 MiB). */
  maxResponseBytes?: number;
  /** undici dispatcher to use (default: an Agent owned by the transport). */
  dispatcher?: Dispatcher;
  userAgent?: string;
  /** Secrets to scrub from error excerpts. */
  secrets?: readonly (string | undefined)[];
}

export interface SendOptions {
  signal?: AbortSignal | undefined;
  onUploadProgress?: ((sent: number, total: number) => void) | undefined;
  /** Overrides the transport's total timeout for this call. */
  timeoutMs?: number | undefined;
  /** Called before each retry wait, for logs and progress. */
  onRetry?: ((info: { attempt: number; delayMs: number; reason: string }) => void) | undefined;
}

const PHASE_BY_CODE: Record<string, TimeoutPhase> = {
  UND_ERR_CONNECT_TIMEOUT: 'connect',
  UND_ERR_HEADERS_TIMEOUT: 'headers',
  UND_ERR_BODY_TIMEOUT: 'body',
};

class Retryable extends Error {
  constructor(
    readonly error: MediaGatewayError,
    readonly retryAfterMs: number | undefined,
  ) {
    super(error.message);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export class UndiciTransport {
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #timeouts: Required<TimeoutOptions>;
  readonly #retry: RetryPolicy;
  readonly #maxResponseBytes: number;
  readonly #userAgent: string;
  readonly #secrets: readonly (string | undefined)[];

  constructor(options: TransportOptions = {}) {
    this.#timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
    this.#maxResponseBytes = options.maxResponseBytes ?? 16 * 1024 * 1024;
    this.#userAgent = options.userAgent ?? 'mediagw';
    this.#secrets = options.secrets ?? [];
    this.#ownsDispatcher = !options.dispatcher;
    this.#dispatcher =
      options.dispatcher ??
      new Agent({
        connect: { timeout: this.#timeouts.connectMs },
        headersTimeout: this.#timeouts.headersMs,
        bodyTimeout: this.#timeouts.bodyMs,
        keepAliveTimeout: 4_000,
      });
  }

  get timeouts(): Readonly<Required<TimeoutOptions>> {
    return this.#timeouts;
  }

  /** Sends a described request, retrying where the policy allows; returns the raw answer. */
  async send(request: RequestDescription, options: SendOptions = {}): Promise<RawResponse> {
    const totalMs = options.timeoutMs ?? this.#timeouts.totalMs;
    // One clearable timer per call (AbortSignal.timeout's timer cannot be cancelled and would
    // outlive the call by the whole timeout).
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error('total timeout')), totalMs);
    timer.unref?.();
    const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
    const canReplay = replayable(imagesOf(request));
    const op = request.operation;
    const fail = (error: unknown) => this.#mapError(error, op, signal, deadline.signal, options.signal, totalMs);

    try {
      for (let attempt = 0; ; attempt++) {
        try {
          return await this.#attempt(request, signal, options);
        } catch (error) {
          const mapped = fail(error);
          if (!(mapped instanceof Retryable)) throw mapped;
          const delay = canReplay ? retryDelay(attempt, mapped.retryAfterMs, this.#retry) : undefined;
          if (delay === undefined) throw mapped.error;
          options.onRetry?.({ attempt: attempt + 1, delayMs: delay, reason: mapped.error.message });
          await sleep(delay, signal).catch(() => {
            throw fail(signal.reason);
          });
        }
      }
    } finally {
      clearTimeout(timer);
    }
  }

  async #attempt(request: RequestDescription, signal: AbortSignal, options: SendOptions): Promise<RawResponse> {
    const headers: Record<string, string> = { 'user-agent': this.#userAgent, ...request.headers };
    let body: string | Readable;
    const b = request.body;
    if (b.type === 'json') {
      body = b.text;
      headers['content-type'] = b.contentType;
    } else {
      let segments = b.type === 'json-segments' ? b.segments : undefined;
      if (b.type === 'multipart') {
        const boundary = `mediagw-${randomBytes(12).toString('hex')}`;
        segments = encodeMultipart(b.parts, boundary);
        headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
      } else headers['content-type'] = b.contentType;
      const stream = bodyStream(segments ?? [], { onProgress: options.onUploadProgress });
      headers['content-length'] = String(stream.length);
      body = Readable.from(stream.stream, { objectMode: false, highWaterMark: 256 * 1024 });
    }

    const response = await undiciRequest(this.#dispatcher, request.url, {
      method: request.method,
      headers,
      body,
      signal,
      headersTimeout: this.#timeouts.headersMs,
      bodyTimeout: this.#timeouts.bodyMs,
    });
    const answer = await this.#readBody(response, request.operation, signal);
    const raw: RawResponse = { status: response.statusCode, headers: response.headers, body: answer };
    if (RETRYABLE_STATUSES.has(raw.status)) {
      const error = httpError(raw, { operation: request.operation, secrets: this.#secrets });
      throw new Retryable(error, parseRetryAfter(header(raw.headers, 'retry-after')));
    }
    return raw;
  }

  /** The whole answer, within the size cap; a break-off mid-body is an unreadable answer. */
  async #readBody(
    response: Dispatcher.ResponseData,
    operation: OperationName,
    signal: AbortSignal,
  ): Promise<Uint8Array> {
    const tooLarge = () =>
      new InvalidResponseError({
        operation,
        status: response.statusCode,
        problems: [`the body is larger than the ${this.#maxResponseBytes}-byte limit`],
      });
    const declared = Number(response.headers['content-length']);
    let size = 0;
    try {
      if (Number.isSafeInteger(declared)) {
        if (declared > this.#maxResponseBytes) {
          response.body.destroy();
          throw tooLarge();
        }
        // Known to fit: undici's own reader is the fast path.
        return await response.body.bytes();
      }
      const chunks: Buffer[] = [];
      for await (const chunk of response.body) {
        size += chunk.length;
        if (size > this.#maxResponseBytes) {
          response.body.destroy();
          throw tooLarge();
        }
        chunks.push(chunk);
      }
      return Buffer.concat(chunks);
    } catch (error) {
      if (error instanceof MediaGatewayError || signal.aborted || isTimeout(error)) throw error;
      // The answer started and then broke off: the gateway acted, we could not read what it said.
      const received = Number.isSafeInteger(declared) ? `${declared} were announced` : `after ${size} bytes`;
      throw new InvalidResponseError({
        operation,
        status: response.statusCode,
        problems: [`the body is cut short (connection closed; ${received})`],
        cause: error,
      });
    }
  }

  #mapError(
    error: unknown,
    operation: OperationName,
    signal: AbortSignal,
    deadline: AbortSignal,
    userSignal: AbortSignal | undefined,
    totalMs: number,
  ): MediaGatewayError | Retryable {
    if (error instanceof Retryable || error instanceof MediaGatewayError) return error;
    if (userSignal?.aborted) return new AbortedError({ operation, cause: userSignal.reason });
    if (deadline.aborted && signal.aborted) return new TimeoutError({ operation, phase: 'total', timeoutMs: totalMs });
    const code = errorCode(error);
    const phase = code ? PHASE_BY_CODE[code] : undefined;
    if (phase) {
      const timeoutMs = this.#timeouts[`${phase}Ms` as 'connectMs' | 'headersMs' | 'bodyMs'];
      const timeout = new TimeoutError({ operation, phase, timeoutMs, cause: error });
      return phase === 'connect' ? new Retryable(timeout, undefined) : timeout;
    }
    const message = `could not reach the gateway (${code ?? 'network error'}): ${(error as Error)?.message ?? String(error)}`;
    const connection = new ConnectionError(message, { operation, code, cause: error });
    return code && RETRYABLE_CONNECT_CODES.has(code) ? new Retryable(connection, undefined) : connection;
  }

  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  /** The dispatcher, for downloads that should share connections. */
  get dispatcher(): Dispatcher {
    return this.#dispatcher;
  }
}

function imagesOf(request: RequestDescription): TransportImage[] {
  const b = request.body;
  if (b.type === 'multipart') return b.parts.flatMap((p) => ('image' in p ? [p.image as TransportImage] : []));
  if (b.type === 'json-segments') {
    return b.segments.flatMap((s) => (typeof s === 'string' ? [] : [s.image as TransportImage]));
  }
  return [];
}

function errorCode(error: unknown): string | undefined {
  let e = error as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 4; depth++) {
    if (typeof e.code === 'string') return e.code;
    e = e.cause as typeof e;
  }
  return undefined;
}

function isTimeout(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && code in PHASE_BY_CODE;
}
