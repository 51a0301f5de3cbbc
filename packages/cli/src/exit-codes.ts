/** Exit codes are part of the CLI contract: pipelines branch on them. */
import {
  AbortedError,
  ConnectionError,
  DownloadError,
  GatewayError,
  InvalidResponseError,
  TimeoutError,
  ValidationError,
} from '@mediagw/core';
import { UsageError } from './args.js';

export const EXIT = Object.freeze({
  /** Done. */
  ok: 0,
  /** A bug in mediagw (never an expected outcome). */
  internal: 1,
  /** Invalid input or usage: nothing was sent. */
  usage: 2,
  /** The gateway refused or failed: HTTP error, failure envelope, unusable answer. */
  gateway: 3,
  /** No answer: the gateway could not be reached, or the connection broke or timed out before an answer. */
  noAnswer: 4,
  /** The operation succeeded, but its result could not be saved (--output): the result is printed. */
  notSaved: 5,
});

/** What each code means, in the order `--help` lists them. */
export const EXIT_MEANINGS: readonly (readonly [number, string])[] = [
  [EXIT.ok, 'success'],
  [EXIT.usage, 'invalid input or usage; nothing was sent'],
  [EXIT.gateway, 'the gateway refused or failed (HTTP error, failure envelope, unusable answer)'],
  [
    EXIT.noAnswer,
    'no answer: the gateway could not be reached (nothing sent), or the connection broke, timed out or was stopped (Ctrl+C) after sending (the task may exist)',
  ],
  [EXIT.notSaved, 'the operation succeeded, but saving its result (--output) failed; the result is printed'],
  [EXIT.internal, 'a bug in mediagw (run again with --debug and report it)'],
];

export function exitCodeFor(error: unknown): number {
  if (error instanceof UsageError || error instanceof ValidationError) return EXIT.usage;
  if (error instanceof DownloadError) return EXIT.notSaved;
  if (error instanceof GatewayError || error instanceof InvalidResponseError) return EXIT.gateway;
  if (error instanceof ConnectionError || error instanceof TimeoutError || error instanceof AbortedError) {
    return EXIT.noAnswer;
  }
  return EXIT.internal;
}
