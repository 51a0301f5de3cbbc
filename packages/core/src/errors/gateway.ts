/** Errors the gateway's answer caused: an HTTP failure, a refusal inside a 2xx answer, an unusable body. */
import { type ErrorKind, MediaGatewayError } from './base.js';

type OperationName = string;

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
      // 503 is retried because an unavailable gateway has not taken the task; other 5xx may have.
      hint:
        init.status === 503
          ? 'The gateway is unavailable and did not take the task; try again later.'
          : 'The gateway failed. It may have created the task anyway: check before submitting again.',
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

/**
 * The answer could not be used: not JSON, cut short, too large, or without the part the result
 * needs. The task may exist anyway; ids seen in the answer are quoted so the caller can check.
 */
export class InvalidResponseError extends MediaGatewayError {
  readonly kind = 'invalid-response';
  readonly status: number;
  readonly problems: string[];
  readonly bodyExcerpt: string | undefined;
  /** Ids seen anywhere in the answer (a task id, a request id): the task they name may exist. */
  readonly possibleTaskIds: string[];

  constructor(init: {
    operation?: OperationName | undefined;
    status: number;
    problems: string[];
    bodyExcerpt?: string | undefined;
    possibleTaskIds?: readonly string[] | undefined;
    cause?: unknown;
  }) {
    const ids = [...(init.possibleTaskIds ?? [])];
    super(`${init.operation ?? 'request'}: unusable answer (HTTP ${init.status}): ${init.problems.join('; ')}`, {
      hint:
        ids.length > 0
          ? `A task may exist anyway (the answer names ${ids.map((id) => `"${id}"`).join(', ')}): check with the gateway before submitting again.`
          : 'The gateway answered in a shape this client does not know; a task may exist anyway. Check before submitting again.',
      operation: init.operation,
      cause: init.cause,
    });
    this.status = init.status;
    this.problems = init.problems;
    this.bodyExcerpt = init.bodyExcerpt;
    this.possibleTaskIds = ids;
  }
}
