/**
 * The one place the library talks HTTP: undici `request()` (not `fetch`: it tees upload bodies),
 * with phase timeouts, an overall deadline, abort, a response size cap, and a short loop around the
 * core's retry decision.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { AbortedError, MediaGatewayError, TimeoutError } from '../errors/index.js';
import { encodeMultipart, type RequestDescription } from '../request.js';
import type { RawResponse } from '../response.js';
import { type AttemptOutcome, DEFAULT_RETRY, decideRetry, noAnswer, type RetryPolicy } from '../retry.js';
import { readAnswer } from './answer.js';
import { bodyStream } from './body.js';
import { errorCode, PHASE_BY_CODE } from './codes.js';
import { imagesOf, replayable } from './sources.js';
import { checkTimeouts, DEFAULT_TIMEOUTS, type TimeoutOptions } from './timeouts.js';
import { Agent, request as undiciRequest } from './undici-parts.js';

export interface TransportOptions {
  timeouts?: TimeoutOptions;
  retry?: Partial<RetryPolicy>;
  /** Largest response body accepted (default 16 MiB: 16 * 1024 * 1024). */
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

  constructor(options: TransportOptions = {}) {
    checkTimeouts(options.timeouts ?? {});
    this.#timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
    this.#maxResponseBytes = options.maxResponseBytes ?? 16 * 1024 * 1024;
    this.#userAgent = options.userAgent ?? 'mediagw';
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

  /** Sends a described request, retrying where the core's decision allows; returns the raw answer. */
  async send(request: RequestDescription, options: SendOptions = {}): Promise<RawResponse> {
    const totalMs = options.timeoutMs ?? this.#timeouts.totalMs;
    checkTimeouts({ totalMs });
    // One clearable timer per call (AbortSignal.timeout's timer cannot be cancelled and would
    // outlive the call by the whole timeout).
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error('total timeout')), totalMs);
    timer.unref?.();
    const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
    const canReplay = replayable(imagesOf(request));
    const op = request.operation;
    const fail = (error: unknown): MediaGatewayError => {
      if (error instanceof MediaGatewayError) return error;
      if (options.signal?.aborted) return new AbortedError({ operation: op, cause: options.signal.reason });
      if (deadline.signal.aborted) return new TimeoutError({ operation: op, phase: 'total', timeoutMs: totalMs });
      const code = errorCode(error);
      const phase = code ? PHASE_BY_CODE[code] : undefined;
      if (phase) {
        const timeoutMs = this.#timeouts[`${phase}Ms` as 'connectMs' | 'headersMs' | 'bodyMs'];
        return new TimeoutError({ operation: op, phase, timeoutMs, cause: error });
      }
      return noAnswer(op, request.url, code, error, state.bodyComplete);
    };
    /** Whether this attempt's body went out whole (a cut-off upload cannot have created a task). */
    const state = { bodyComplete: true };

    try {
      for (let attempt = 0; ; attempt++) {
        let raw: RawResponse | undefined;
        let failure: MediaGatewayError | undefined;
        let outcome: AttemptOutcome;
        try {
          raw = await this.#attempt(request, signal, options, state);
          outcome = { kind: 'answer', status: raw.status, headers: raw.headers };
        } catch (error) {
          failure = fail(error);
          const code = signal.aborted ? undefined : errorCode(error);
          outcome = { kind: 'no-answer', code, bodyComplete: state.bodyComplete };
        }
        const decision = decideRetry(outcome, attempt, { policy: this.#retry, replayable: canReplay });
        if (!decision.retry) {
          if (failure) throw failure;
          return raw as RawResponse;
        }
        const reason = failure?.message ?? `HTTP ${raw?.status}`;
        options.onRetry?.({ attempt: attempt + 1, delayMs: decision.delayMs, reason });
        await sleep(decision.delayMs, signal).catch(() => {
          throw fail(signal.reason);
        });
      }
    } finally {
      clearTimeout(timer);
    }
  }

  async #attempt(
    request: RequestDescription,
    signal: AbortSignal,
    options: SendOptions,
    state: { bodyComplete: boolean },
  ): Promise<RawResponse> {
    const headers: Record<string, string> = { 'user-agent': this.#userAgent, ...request.headers };
    let body: string | Readable;
    const b = request.body;
    // A small text body goes out in one write; a streamed one is whole when its last chunk was taken.
    state.bodyComplete = b.type === 'json';
    if (b.type === 'json') body = b.text;
    else {
      let segments = b.type === 'json-segments' ? b.segments : [];
      if (b.type === 'multipart') {
        const boundary = `mediagw-${randomBytes(12).toString('hex')}`;
        segments = encodeMultipart(b.parts, boundary);
        headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
      }
      const stream = bodyStream(segments, { onProgress: options.onUploadProgress });
      headers['content-length'] = String(stream.length);
      const whole = async function* () {
        yield* stream.stream;
        state.bodyComplete = true;
      };
      body = Readable.from(whole(), { objectMode: false, highWaterMark: 256 * 1024 });
    }

    const response = await undiciRequest(this.#dispatcher, request.url, {
      method: request.method,
      headers,
      body,
      signal,
      headersTimeout: this.#timeouts.headersMs,
      bodyTimeout: this.#timeouts.bodyMs,
    });
    const answer = await readAnswer(response, request.operation, signal, this.#maxResponseBytes);
    return { status: response.statusCode, headers: response.headers, body: answer };
  }

  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  /** The dispatcher, for downloads that should share connections. */
  get dispatcher(): Dispatcher {
    return this.#dispatcher;
  }
}
