/**
 * When to try again, decided in one place for every transport (undici here, n8n's helpers in the
 * node). Every operation creates a paid task and the spec shows no idempotency key, so we retry
 * only where the gateway cannot have acted: the connection was refused (nothing was sent), 429
 * (rate limited) and 503 (unavailable). Never another 5xx, never after the request went out.
 * Pure: the transport does the waiting.
 */
import { ConnectionError } from './errors/index.js';
import { type HeaderBag, header } from './headers.js';

export interface RetryPolicy {
  /** Attempts after the first (default 2). */
  retries: number;
  /** Longest wait we accept, also for Retry-After (default 60 s); a longer Retry-After is not retried. */
  maxDelayMs: number;
  /** First backoff step without Retry-After (default 500 ms), doubled per attempt, capped at 8 s. */
  baseDelayMs: number;
}

export const DEFAULT_RETRY: Readonly<RetryPolicy> = Object.freeze({ retries: 2, maxDelayMs: 60_000, baseDelayMs: 500 });

/** Statuses the gateway answers without having created a task. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 503]);
/** Failures before any byte of the request was written: nothing reached the gateway. */
export const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);
/** Of those, the ones worth another try (a name that does not resolve will not resolve in a second). */
export const RETRYABLE_CONNECT_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT']);
/**
 * The connection closed under an upload. Before the whole body went out, the gateway cannot hold a
 * complete request: no task exists. Gateways close early when they refuse a request before reading
 * it (a wrong key, a body too large, a rate limit), and the client then fails writing (EPIPE,
 * ECONNRESET) before it reads that answer.
 */
export const BROKEN_UPLOAD_CODES: ReadonlySet<string> = new Set([
  'EPIPE',
  'ECONNRESET',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
]);

/** RFC 9110 HTTP-date, in its three forms; anything else is not a date here. */
const HTTP_DATE =
  /^(?:[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]+, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;

/**
 * `Retry-After` as milliseconds: delta-seconds (a non-negative number) or an HTTP date. Anything
 * else (a negative number, garbage) is no valid Retry-After: undefined, and the caller backs off.
 */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  if (/^\d+(?:\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  if (!HTTP_DATE.test(v)) return undefined;
  const date = Date.parse(v);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The wait before attempt `attempt + 1` (attempt counts from 0), or undefined to give up.
 * `random` is injectable so tests are exact.
 */
export function retryDelay(
  attempt: number,
  retryAfterMs: number | undefined,
  policy: RetryPolicy = DEFAULT_RETRY,
  random: () => number = Math.random,
): number | undefined {
  if (attempt >= policy.retries) return undefined;
  if (retryAfterMs !== undefined) {
    if (retryAfterMs > policy.maxDelayMs) return undefined;
    // A little jitter on top so that many clients told the same moment do not return at once.
    return Math.round(retryAfterMs + random() * Math.min(1000, retryAfterMs * 0.1 + 100));
  }
  const base = Math.min(policy.baseDelayMs * 2 ** attempt, 8000, policy.maxDelayMs);
  return Math.round(base * (1 - random() * 0.25));
}

/** What one attempt came to, as a transport sees it. */
export type AttemptOutcome =
  | { kind: 'answer'; status: number; headers: HeaderBag }
  /**
   * No answer; `code` is the failure's code (`ECONNREFUSED`, `UND_ERR_SOCKET`, ...); `bodyComplete`
   * false when the transport knows the body did not go out whole (default: it did).
   */
  | { kind: 'no-answer'; code: string | undefined; bodyComplete?: boolean };

/** Whether the request cannot have reached the gateway whole: nothing, or a cut-off upload, was sent. */
export function notSent(code: string | undefined, bodyComplete = true): boolean {
  if (code !== undefined && NOT_SENT_CODES.has(code)) return true;
  return !bodyComplete && code !== undefined && BROKEN_UPLOAD_CODES.has(code);
}

export interface RetryContext {
  policy?: RetryPolicy | undefined;
  /** Whether the body can be sent again (a one-shot stream cannot). */
  replayable?: boolean | undefined;
  random?: () => number;
  now?: number;
}

/** Wait this long and try again, or stop (and hand the outcome to the parser or the caller). */
export type RetryDecision = { retry: true; delayMs: number } | { retry: false };

export function decideRetry(outcome: AttemptOutcome, attempt: number, ctx: RetryContext = {}): RetryDecision {
  if (ctx.replayable === false) return { retry: false };
  let retryAfterMs: number | undefined;
  if (outcome.kind === 'answer') {
    if (!RETRYABLE_STATUSES.has(outcome.status)) return { retry: false };
    retryAfterMs = parseRetryAfter(header(outcome.headers, 'retry-after'), ctx.now);
  } else {
    const cutUpload = notSent(outcome.code, outcome.bodyComplete) && !NOT_SENT_CODES.has(outcome.code ?? '');
    if (!cutUpload && (outcome.code === undefined || !RETRYABLE_CONNECT_CODES.has(outcome.code)))
      return { retry: false };
  }
  const delayMs = retryDelay(attempt, retryAfterMs, ctx.policy ?? DEFAULT_RETRY, ctx.random);
  return delayMs === undefined ? { retry: false } : { retry: true, delayMs };
}

/** A failure without an answer, worded by whether the request can have reached the gateway whole. */
export function noAnswer(
  operation: string,
  url: string,
  code: string | undefined,
  cause?: unknown,
  bodyComplete = true,
): ConnectionError {
  const host = new URL(url).host;
  const why = code ? ` (${code})` : '';
  if (!notSent(code, bodyComplete)) {
    const message = `${operation}: the connection to the gateway at ${host} broke after the request was sent, before an answer${why}`;
    return new ConnectionError(message, { operation, code, sent: true, cause });
  }
  const message =
    code !== undefined && NOT_SENT_CODES.has(code)
      ? `${operation}: could not reach the gateway at ${host}${why}; nothing was sent`
      : `${operation}: the gateway at ${host} closed the connection before the whole request was sent${why}, so no task was created; gateways do this when they refuse a request unread: a wrong key (401/403), a body too large (413), a rate limit (429)`;
  return new ConnectionError(message, { operation, code, sent: false, cause });
}
