/**
 * Fault injection: what can go wrong, how a request asks for it (the `x-emulator-fault` header) and
 * how `times` limits a fault to the first N requests that reach it.
 */

export interface Fault {
  /** Wait this long before answering. */
  latencyMs?: number;
  /**
   * Answer with this HTTP status. 2xx: the normal success body with that status (201 for blend);
   * 429 adds `Retry-After`; 502 sends an HTML page; anything else a JSON error body.
   */
  status?: number;
  /** `Retry-After` value for 429 (default "1") and 503 (none unless given). */
  retryAfter?: string;
  /** HTTP 200 whose body says the task failed (envelope status 500, `FAILED`, blend code 22). */
  envelopeFailure?: boolean;
  /** Read the request (the task is created), then destroy the connection without answering. */
  drop?: boolean;
  /** Destroy the connection as soon as the headers arrived, the body unread (a gateway refusing unread). */
  dropUnread?: boolean;
  /** Send headers whose Content-Length promises the whole body, half the body, then close. */
  truncate?: boolean;
  /** Trickle the body out over this many milliseconds. */
  slowBodyMs?: number;
  /** Send the blend `result` as a bare JSON number (more than 2^53, so lossy for plain JSON.parse). */
  blendIdAsNumber?: boolean;
  /** A successful answer with only the part a client needs (the task exists; the rest the spec lists is missing). */
  sparse?: boolean;
  /** Blend: this many progress notifications (IN_PROGRESS) before the final one. */
  notifyProgress?: number;
  /** Blend: the final notification says the task failed (status FAILURE, a failReason). */
  notifyFailure?: boolean;
  /** Blend: deliver the final notification this many times (a gateway retrying, on purpose). */
  notifyRepeat?: number;
  /**
   * Blend: hold the notifications (progress and final) until `emu.releaseNotifications()`: a gateway
   * that takes as long as the caller wants to finish the task. Never released, they are never sent.
   */
  notifyHold?: boolean;
  /** Apply only to the first N requests that reach the fault stage, then behave normally. */
  times?: number;
}

export const FAULT_HEADER = 'x-emulator-fault';

/** Header keys (kebab-case) and how each value is read. */
const HEADER_KEYS = {
  'latency-ms': ['latencyMs', 'ms'],
  status: ['status', 'status'],
  'retry-after': ['retryAfter', 'text'],
  'envelope-failure': ['envelopeFailure', 'flag'],
  drop: ['drop', 'flag'],
  'drop-unread': ['dropUnread', 'flag'],
  truncate: ['truncate', 'flag'],
  'slow-body-ms': ['slowBodyMs', 'ms'],
  'blend-id-as-number': ['blendIdAsNumber', 'flag'],
  sparse: ['sparse', 'flag'],
  'notify-progress': ['notifyProgress', 'whole'],
  'notify-failure': ['notifyFailure', 'flag'],
  'notify-repeat': ['notifyRepeat', 'count'],
  'notify-hold': ['notifyHold', 'flag'],
  times: ['times', 'count'],
} as const satisfies Record<string, readonly [keyof Fault, 'ms' | 'status' | 'text' | 'flag' | 'count' | 'whole']>;

export class FaultHeaderError extends Error {}

/** Reads `status=429; retry-after=1; times=1` (flags may stand alone: `drop`, `truncate=true`). */
export function parseFaultHeader(header: string): Fault {
  const fault: Record<string, unknown> = {};
  for (const pair of header.split(';')) {
    if (pair.trim() === '') continue;
    const eq = pair.indexOf('=');
    const key = (eq < 0 ? pair : pair.slice(0, eq)).trim().toLowerCase();
    const value = eq < 0 ? undefined : pair.slice(eq + 1).trim();
    const spec = HEADER_KEYS[key as keyof typeof HEADER_KEYS];
    if (!spec) {
      throw new FaultHeaderError(
        `${FAULT_HEADER}: unknown key "${key}"; allowed: ${Object.keys(HEADER_KEYS).join(', ')}`,
      );
    }
    const [name, kind] = spec;
    fault[name] = readValue(key, kind, value);
  }
  return fault as Fault;
}

function readValue(
  key: string,
  kind: 'ms' | 'status' | 'text' | 'flag' | 'count' | 'whole',
  value: string | undefined,
) {
  const bad = (allowed: string) =>
    new FaultHeaderError(`${FAULT_HEADER}: ${key}="${value ?? ''}"; allowed: ${allowed}`);
  if (kind === 'flag') {
    if (value === undefined || value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
    throw bad('no value, true or false');
  }
  if (value === undefined || value === '') throw bad('a value after "="');
  if (kind === 'text') return value;
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (kind === 'status') {
    if (!Number.isInteger(n) || n < 200 || n > 599) throw bad('an HTTP status from 200 to 599');
    return n;
  }
  if (!Number.isInteger(n) || n < (kind === 'count' ? 1 : 0)) {
    throw bad(
      kind === 'count' ? 'a positive integer' : kind === 'whole' ? 'a whole number' : 'a whole number of milliseconds',
    );
  }
  return n;
}

/** Counts how often each fault has been applied, so `times` can switch it off. */
export class FaultCounter {
  #used = new Map<string, number>();

  /** True if the fault still applies (and counts this use). `key` identifies the fault's origin. */
  take(key: string, fault: Fault): boolean {
    const used = this.#used.get(key) ?? 0;
    if (fault.times !== undefined && used >= fault.times) return false;
    this.#used.set(key, used + 1);
    return true;
  }

  forget(key?: string): void {
    if (key === undefined) this.#used.clear();
    else this.#used.delete(key);
  }
}

/** Does this fault replace the answer (rather than only shape how the normal answer is sent)? */
export function isErrorStatus(fault: Fault): boolean {
  return fault.status !== undefined && (fault.status < 200 || fault.status > 299);
}
