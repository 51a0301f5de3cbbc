/**
 * An error as the CLI reports it: a message naming flags (not wire fields), a hint in the words of
 * this command line, the exit code, and the one JSON object `--json` prints for it.
 */
import {
  type AnyOperation,
  ConnectionError,
  DownloadError,
  GatewayError,
  kebabCase,
  MediaGatewayError,
  TimeoutError,
  ValidationError,
} from '@mediagw/core';
import { envName, UsageError } from './args.js';
import { routeKeysOf } from './connection.js';
import { exitCodeFor } from './exit-codes.js';

export interface ErrorContext {
  /** The command's name (`text-to-video`), for "See: mediagw text-to-video --help". */
  command?: string | undefined;
  /** Input errors of a command that calls the gateway say that nothing was sent. */
  callsGateway?: boolean | undefined;
  /** The operation: its images field is `--image`, its route settings are named in hints. */
  op?: AnyOperation | undefined;
}

export interface Described {
  message: string;
  hint: string | undefined;
  code: number;
  /** The `error` member of the `--json` object. */
  json: Record<string, unknown>;
}

/** How a field the core names is spelled on this command line. */
export function flagOf(field: string, op?: AnyOperation): string {
  // Already a flag or a variable (configuration problems are named where the value came from).
  if (field.startsWith('--') || /^[A-Z][A-Z0-9_]*$/.test(field) || field === '(input)') return field;
  const indexed = /^([A-Za-z0-9_]+)\[(\d+)\]$/.exec(field);
  const name = indexed ? indexed[1]! : field;
  if (op?.images && name === op.images.field) return indexed ? `--image #${Number(indexed[2]) + 1}` : '--image';
  // Nested names (`routes.videoVendor` from the emulator's options) are flags by their last part.
  return `--${kebabCase(field.split('.').pop() ?? field)}`;
}

const both = (name: string) => `--${kebabCase(name)} or ${envName(name)}`;

/** The core's hints speak of settings in words; here they name the flags and variables. */
function hintOf(error: MediaGatewayError, op: AnyOperation | undefined): string {
  if (error.kind === 'unauthorized') {
    const header = op?.auth === 'secret-header' ? ` and the secret header name (${both('secretHeader')})` : '';
    return `Check the API key (${both('apiKey')})${header}.`;
  }
  if (error instanceof ConnectionError && !error.sent) {
    return `Nothing was sent. Check the base URL (${both('baseUrl')}) and the network; the gateway may be down.`;
  }
  if (error instanceof TimeoutError && error.phase !== 'connect') {
    return `Raise the timeout (${both('timeout')}). The task may have been created: check before submitting again.`;
  }
  if (error.kind === 'aborted')
    return 'Stopped on request. If the request had gone out, the task may exist: check before submitting again.';
  if (error.kind === 'not-found' && op) {
    const routes = routeKeysOf(op).filter((k) => k !== 'secretHeader');
    return `Check the base URL (${both('baseUrl')}) and the route settings of ${op.name} (${routes.map((k) => `--${kebabCase(k)}`).join(', ')}).`;
  }
  if (error instanceof DownloadError && !error.hint.includes(error.url))
    return `${error.hint} The result is at ${error.url}.`;
  return error.hint;
}

export function describeError(error: unknown, ctx: ErrorContext, prog: string): Described {
  const code = exitCodeFor(error);
  const see = `See: ${prog}${ctx.command ? ` ${ctx.command}` : ''} --help`;
  const nothingSent = ctx.callsGateway ? 'Nothing was sent. ' : '';
  let message: string;
  let hint: string | undefined;
  let kind: string;
  let details: Record<string, unknown> = {};
  if (error instanceof UsageError) {
    [message, hint, kind] = [error.message, error.hint ?? `${nothingSent}${see}`, 'usage'];
  } else if (error instanceof MediaGatewayError) {
    const { name: _n, message: _m, hint: _h, kind: _k, ...rest } = error.toJSON();
    [message, hint, kind, details] = [error.message, hintOf(error, ctx.op), error.kind, rest];
    if (error instanceof ValidationError) {
      const issues = error.issues.map((i) => ({ ...i, flag: flagOf(i.field, ctx.op) }));
      message = issues.map((i) => `${i.flag}: ${i.message}`).join('; ');
      hint = `${nothingSent}${see}`;
      details.issues = issues;
    } else if (error instanceof GatewayError && error.requestId) message += ` (request id ${error.requestId})`;
  } else {
    message = `internal error: ${(error as Error)?.message ?? String(error)}`;
    [hint, kind] = ['This is a bug in mediagw; run again with --debug and report it.', 'internal'];
  }
  return { message, hint, code, json: { kind, message, ...(hint ? { hint } : {}), exitCode: code, ...details } };
}
