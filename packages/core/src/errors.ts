/**
 * One small error tree. Catch by class (`instanceof GatewayError`) or by `kind`.
 * No error ever holds request headers or the API key: messages are built from field names,
 * statuses and the gateway's own (scrubbed) text only.
 */
import type { OperationName } from './config.js';

export type ErrorKind =
  | 'validation'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'rate-limited'
  | 'server'
  | 'http'
  | 'refused'
  | 'invalid-response'
  | 'connection'
  | 'timeout'
  | 'aborted';

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

export abstract class MediaGatewayError extends Error {
  abstract readonly kind: ErrorKind;
  /** What the caller can do about it, one sentence. */
  readonly hint: string;
  readonly operation: OperationName | undefined;

  constructor(message: string, options: { hint: string; operation?: OperationName | undefined; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.hint = options.hint;
    this.operation = options.operation;
  }

  override get name(): string {
    return this.constructor.name;
  }

  /** Plain data, safe to log or emit (no headers, no key). */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, kind: this.kind, message: this.message };
    for (const [key, value] of Object.entries(this)) {
      if (key !== 'cause' && value !== undefined) out[key] = value;
    }
    return out;
  }

  [INSPECT](): string {
    return `${this.name} [${this.kind}]: ${this.message}\n  hint: ${this.hint}`;
  }
}

export interface FieldIssue {
  /** The field as the gateway names it (`num_inference_steps`, `base64Array[1]`, ...). */
  field: string;
  /** What is wrong and what is allowed. */
  message: string;
}

/** The input was refused before anything was sent. */
export class ValidationError extends MediaGatewayError {
  readonly kind = 'validation';
  readonly issues: FieldIssue[];

  constructor(issues: FieldIssue[], operation?: OperationName) {
    const lines = issues.map((i) => `${i.field}: ${i.message}`);
    super(lines.join('; '), {
      hint: 'Fix the named field(s); nothing was sent to the gateway.',
      operation,
    });
    this.issues = issues;
  }
}

export interface GatewayErrorInit {
  operation?: OperationName | undefined;
  status: number;
  /** The gateway's own message, if its answer had one. */
  gatewayMessage?: string | undefined;
  /** The gateway's own code (`code`, `result`, `status` in the body), if any. */
  gatewayCode?: string | number | undefined;
  requestId?: string | undefined;
  /** A short, scrubbed excerpt of the body. */
  bodyExcerpt?: string | undefined;
  retryAfterMs?: number | undefined;
  hint?: string;
  cause?: unknown;
}

/** The gateway answered, and the answer is a failure. */
export class GatewayError extends MediaGatewayError {
  readonly kind: ErrorKind = 'http';
  readonly status: number;
  readonly gatewayMessage: string | undefined;
  readonly gatewayCode: string | number | undefined;
  readonly requestId: string | undefined;
  readonly bodyExcerpt: string | undefined;

  constructor(init: GatewayErrorInit) {
    const what = init.gatewayMessage ? `: ${init.gatewayMessage}` : '';
    const code = init.gatewayCode !== undefined ? ` (gateway code ${init.gatewayCode})` : '';
    super(`${init.operation ?? 'request'} failed with HTTP ${init.status}${code}${what}`, {
      hint: init.hint ?? 'Check the request against the gateway documentation; retrying will not help.',
      operation: init.operation,
      cause: init.cause,
    });
    this.status = init.status;
    this.gatewayMessage = init.gatewayMessage;
    this.gatewayCode = init.gatewayCode;
    this.requestId = init.requestId;
    this.bodyExcerpt = init.bodyExcerpt;
  }
}

export class AuthenticationError extends GatewayError {
  override readonly kind = 'unauthorized';
  constructor(init: GatewayErrorInit) {
    super({ hint: 'Check the API key (and, for blend, the secret header name).', ...init });
  }
}

export class PermissionDeniedError extends GatewayError {
  override readonly kind = 'forbidden';
  constructor(init: GatewayErrorInit) {
    super({ hint: 'The key is valid but may not use this operation; check the account and its quota.', ...init });
  }
}

export class NotFoundError extends GatewayError {
  override readonly kind = 'not-found';
  constructor(init: GatewayErrorInit) {
    super({
      hint: 'Check the base URL and the route settings (video vendor, service prefix, model, image relax prefix).',
      ...init,
    });
  }
}

export class RateLimitError extends GatewayError {
  override readonly kind = 'rate-limited';
  readonly retryAfterMs: number | undefined;
  constructor(init: GatewayErrorInit) {
    const wait = init.retryAfterMs !== undefined ? ` after ${Math.ceil(init.retryAfterMs / 1000)} s` : ' later';
    super({ hint: `The gateway is rate limiting; try again${wait} or lower the concurrency.`, ...init });
    this.retryAfterMs = init.retryAfterMs;
  }
}

export class ServerError extends GatewayError {
  override readonly kind = 'server';
  constructor(init: GatewayErrorInit) {
    super({
      hint: 'The gateway failed. It may have created the task anyway: check before submitting again.',
      ...init,
    });
  }
}

/** HTTP 200, but the envelope (`result`/`status`, blend `code`) says the gateway refused the task. */
export class RefusedError extends GatewayError {
  override readonly kind = 'refused';
  constructor(init: GatewayErrorInit) {
    super({ hint: 'The gateway refused the task; its message says why.', ...init });
  }
}

/** The answer could not be read: not JSON, cut short, too large, or missing a required field. */
export class InvalidResponseError extends MediaGatewayError {
  readonly kind = 'invalid-response';
  readonly status: number;
  readonly problems: string[];
  readonly bodyExcerpt: string | undefined;

  constructor(init: {
    operation?: OperationName | undefined;
    status: number;
    problems: string[];
    bodyExcerpt?: string | undefined;
    cause?: unknown;
  }) {
    super(`${init.operation ?? 'request'}: unreadable answer (HTTP ${init.status}): ${init.problems.join('; ')}`, {
      hint: 'The gateway answered in a shape this client does not know; the task may exist. Check before resubmitting.',
      operation: init.operation,
      cause: init.cause,
    });
    this.status = init.status;
    this.problems = init.problems;
    this.bodyExcerpt = init.bodyExcerpt;
  }
}

/** The gateway could not be reached (nothing or not all was sent). */
export class ConnectionError extends MediaGatewayError {
  readonly kind = 'connection';
  readonly code: string | undefined;
  constructor(
    message: string,
    init: { operation?: OperationName | undefined; code?: string | undefined; cause?: unknown },
  ) {
    super(message, {
      hint: 'Check the base URL and the network; the gateway may be down.',
      operation: init.operation,
      cause: init.cause,
    });
    this.code = init.code;
  }
}

export type TimeoutPhase = 'connect' | 'headers' | 'body' | 'total';

export class TimeoutError extends MediaGatewayError {
  readonly kind = 'timeout';
  readonly phase: TimeoutPhase;
  readonly timeoutMs: number;
  constructor(init: {
    operation?: OperationName | undefined;
    phase: TimeoutPhase;
    timeoutMs: number;
    cause?: unknown;
  }) {
    super(`${init.operation ?? 'request'} timed out (${init.phase}, ${init.timeoutMs} ms)`, {
      hint:
        init.phase === 'connect'
          ? 'The gateway did not accept the connection in time; check the base URL.'
          : 'Raise the timeout. The task may have been created: check before submitting again.',
      operation: init.operation,
      cause: init.cause,
    });
    this.phase = init.phase;
    this.timeoutMs = init.timeoutMs;
  }
}

export class AbortedError extends MediaGatewayError {
  readonly kind = 'aborted';
  constructor(init: { operation?: OperationName | undefined; cause?: unknown }) {
    super(`${init.operation ?? 'request'} was aborted`, {
      hint: 'The caller cancelled the request.',
      operation: init.operation,
      cause: init.cause,
    });
  }
}

export function isMediaGatewayError(value: unknown): value is MediaGatewayError {
  return value instanceof MediaGatewayError;
}
