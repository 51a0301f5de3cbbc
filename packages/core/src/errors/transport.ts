/** Errors with no usable answer: the connection, the clock, the caller, the produced file. */
import { MediaGatewayError } from './base.js';

type OperationName = string;

/**
 * No answer. `sent: false`: the connection failed before the request went out (refused, no such
 * host): nothing reached the gateway. `sent: true`: it broke after the request was written, before
 * an answer: the gateway may have acted.
 */
export class ConnectionError extends MediaGatewayError {
  readonly kind = 'connection';
  readonly code: string | undefined;
  readonly sent: boolean;
  constructor(
    message: string,
    init: { operation?: OperationName | undefined; code?: string | undefined; sent: boolean; cause?: unknown },
  ) {
    super(message, {
      hint: init.sent
        ? 'The request reached the gateway but no answer came back; the task may exist. Check before submitting again.'
        : 'Nothing was sent. Check the base URL and the network; the gateway may be down.',
      operation: init.operation,
      cause: init.cause,
    });
    this.code = init.code;
    this.sent = init.sent;
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

/**
 * The operation succeeded (the task or video exists), but fetching or saving what it produced
 * failed: an HTTP error from the file host, a broken connection, the size cap, or the local disk.
 */
export class DownloadError extends MediaGatewayError {
  readonly kind = 'download';
  readonly url: string;
  readonly path: string | undefined;
  readonly status: number | undefined;
  readonly code: string | undefined;
  constructor(init: {
    operation?: OperationName | undefined;
    url: string;
    path?: string | undefined;
    /** What went wrong, one clause ("HTTP 404 from the file host", "no space left on device (ENOSPC)"). */
    reason: string;
    /** A local write failed (the disk), rather than the fetch. */
    local?: boolean;
    status?: number | undefined;
    code?: string | undefined;
    hint?: string;
    cause?: unknown;
  }) {
    const where = init.path ? ` to ${init.path}` : '';
    super(`${init.operation ?? 'the operation'} succeeded, but saving its result${where} failed: ${init.reason}`, {
      hint:
        init.hint ??
        (init.local
          ? `Nothing needs to be submitted again: fix the local problem and fetch the result from ${init.url}.`
          : `Nothing needs to be submitted again: the result is at ${init.url} (it may expire).`),
      operation: init.operation,
      cause: init.cause,
    });
    this.url = init.url;
    this.path = init.path;
    this.status = init.status;
    this.code = init.code;
  }
}
