/** Exit codes are part of the CLI contract: pipelines branch on them. */
import { ConnectionError, GatewayError, InvalidResponseError, TimeoutError, ValidationError } from '@mediagw/core';
import { UsageError } from './args.js';

export const EXIT = Object.freeze({
  /** Done. */
  ok: 0,
  /** A bug in mediagw (never an expected outcome). */
  internal: 1,
  /** Invalid input or usage: nothing was sent. */
  usage: 2,
  /** The gateway refused or failed: HTTP error, failure envelope, unreadable answer. */
  gateway: 3,
  /** The gateway could not be reached, or did not answer in time. */
  unreachable: 4,
});

export function exitCodeFor(error: unknown): number {
  if (error instanceof UsageError || error instanceof ValidationError) return EXIT.usage;
  if (error instanceof GatewayError || error instanceof InvalidResponseError) return EXIT.gateway;
  if (error instanceof ConnectionError || error instanceof TimeoutError) return EXIT.unreachable;
  return EXIT.internal;
}
