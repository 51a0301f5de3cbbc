/** Timeouts of a call, and the longest Node can keep. */
import { type FieldIssue, ValidationError } from '../errors/index.js';

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

/** Node's timers hold at most 2^31 - 1 ms (~24.8 days); a longer one would fire at once. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** Refuses timeouts Node cannot time (they would fire at once) and non-positive ones. */
export function checkTimeouts(timeouts: TimeoutOptions): void {
  const issues: FieldIssue[] = [];
  for (const [key, ms] of Object.entries(timeouts)) {
    if (ms === undefined) continue;
    if (!(typeof ms === 'number' && ms > 0 && ms <= MAX_TIMEOUT_MS)) {
      issues.push({
        field: `timeouts.${key}`,
        message: `${ms} is not allowed; allowed: 1 to ${MAX_TIMEOUT_MS} ms (~24.8 days)`,
      });
    }
  }
  if (issues.length > 0) throw new ValidationError(issues);
}
