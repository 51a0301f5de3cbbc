/**
 * When to try again. Every operation creates a paid task and the spec shows no idempotency key,
 * so we retry only where the gateway cannot have acted: the connection was refused (nothing was
 * sent), 429 (rate limited) and 503 (unavailable). Never another 5xx, never a timeout once the
 * request went out. Pure: the transport (or n8n's `sleep`) does the waiting.
 */
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
/** Connection failures that happen before any byte is sent. */
export const RETRYABLE_CONNECT_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT']);

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const date = Date.parse(v);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
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
