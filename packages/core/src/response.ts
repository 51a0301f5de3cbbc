/**
 * Raw answer -> parsed JSON or a typed error. Shared by the three operation parsers.
 */
import type { z } from 'zod/v4';
import type { OperationName } from './config.js';
import {
  AuthenticationError,
  GatewayError,
  type GatewayErrorInit,
  InvalidResponseError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
} from './errors.js';
import { parseJsonExact } from './json.js';
import { scrub } from './redact.js';
import { parseRetryAfter } from './retry.js';
import { fieldPath } from './validate.js';

export type HeaderBag = Record<string, string | string[] | undefined>;

/** An HTTP answer as any transport can hand it over. */
export interface RawResponse {
  status: number;
  headers: HeaderBag;
  body: string | Uint8Array;
}

export interface ParseContext {
  operation: OperationName;
  /** Secrets to scrub from any excerpt (the API key). */
  secrets?: readonly (string | undefined)[];
  /** Clock for Retry-After dates (tests). */
  now?: number;
}

const EXCERPT_CHARS = 300;
const decoder = new TextDecoder('utf-8', { fatal: true });

export function header(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  if (value !== undefined) return Array.isArray(value) ? value[0] : value;
  for (const [key, v] of Object.entries(headers)) {
    if (key.toLowerCase() === name.toLowerCase()) return Array.isArray(v) ? v[0] : v;
  }
  return undefined;
}

function bodyText(body: string | Uint8Array): string | undefined {
  if (typeof body === 'string') return body;
  try {
    return decoder.decode(body);
  } catch {
    return undefined;
  }
}

/** A short, single-line, scrubbed excerpt; HTML pages are reduced to their text. */
export function excerpt(text: string, secrets: readonly (string | undefined)[] = []): string | undefined {
  let t = text;
  if (/^\s*<(!doctype|html|head|body)/i.test(t)) {
    t = t.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]+>/g, ' ');
  }
  t = scrub(t.replace(/\s+/g, ' ').trim(), secrets);
  if (!t) return undefined;
  return t.length > EXCERPT_CHARS ? `${t.slice(0, EXCERPT_CHARS)}...` : t;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function firstString(...values: unknown[]): string | undefined {
  for (const v of values) if (typeof v === 'string' && v.trim()) return v.trim();
  return undefined;
}

/** Error bodies are not shown in the spec: look for the usual places of a message and code. */
function describeErrorBody(json: unknown): Pick<GatewayErrorInit, 'gatewayMessage' | 'gatewayCode' | 'requestId'> {
  const body = asRecord(json);
  if (!body) return {};
  const error = asRecord(body.error);
  const code = body.code ?? error?.code ?? body.error_code;
  return {
    gatewayMessage: firstString(
      body.message,
      error?.message,
      typeof body.error === 'string' ? body.error : undefined,
      body.description,
      body.detail,
      body.msg,
    ),
    gatewayCode: typeof code === 'string' || typeof code === 'number' ? code : undefined,
    requestId: firstString(body.request_id, body.requestId),
  };
}

export function requestIdOf(headers: HeaderBag): string | undefined {
  return header(headers, 'x-request-id') ?? header(headers, 'request-id') ?? header(headers, 'x-amzn-requestid');
}

/** A non-2xx answer as the error class its status calls for. */
export function httpError(raw: RawResponse, ctx: ParseContext): GatewayError {
  const text = bodyText(raw.body) ?? '';
  let json: unknown;
  try {
    json = text ? parseJsonExact(text) : undefined;
  } catch {
    json = undefined;
  }
  const found = describeErrorBody(json);
  const secrets = ctx.secrets ?? [];
  const init: GatewayErrorInit = {
    operation: ctx.operation,
    status: raw.status,
    gatewayMessage: found.gatewayMessage ? scrub(found.gatewayMessage, secrets) : undefined,
    gatewayCode: found.gatewayCode,
    requestId: requestIdOf(raw.headers) ?? found.requestId,
    bodyExcerpt: excerpt(text, secrets),
  };
  const s = raw.status;
  if (s === 401) return new AuthenticationError(init);
  if (s === 403) return new PermissionDeniedError(init);
  if (s === 404) return new NotFoundError(init);
  if (s === 429) {
    return new RateLimitError({ ...init, retryAfterMs: parseRetryAfter(header(raw.headers, 'retry-after'), ctx.now) });
  }
  if (s >= 500) return new ServerError(init);
  return new GatewayError(init);
}

function invalid(raw: RawResponse, ctx: ParseContext, text: string | undefined, problems: string[], cause?: unknown) {
  return new InvalidResponseError({
    operation: ctx.operation,
    status: raw.status,
    problems,
    bodyExcerpt: text === undefined ? undefined : excerpt(text, ctx.secrets),
    cause,
  });
}

/**
 * Checks the status and decodes the JSON body.
 * Throws GatewayError for non-2xx and InvalidResponseError for a body that cannot be read.
 */
export function readJson(raw: RawResponse, ctx: ParseContext): unknown {
  if (raw.status < 200 || raw.status > 299) throw httpError(raw, ctx);
  const text = bodyText(raw.body);
  if (text === undefined) throw invalid(raw, ctx, text, ['the body is not valid UTF-8']);
  if (text.trim() === '') throw invalid(raw, ctx, text, ['the body is empty']);
  try {
    return parseJsonExact(text);
  } catch (cause) {
    const cut = /end of (json )?input|unterminated/i.test(String((cause as Error)?.message));
    throw invalid(raw, ctx, text, [cut ? 'the body is cut short (incomplete JSON)' : 'the body is not JSON'], cause);
  }
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** Validates decoded JSON against the operation's response schema, naming what is missing. */
export function conform<T>(json: unknown, schema: z.ZodType<T>, raw: RawResponse, ctx: ParseContext): T {
  const result = schema.safeParse(json);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const at = fieldPath(issue.path);
    return valueAt(json, issue.path) === undefined ? `${at} is missing` : `${at}: ${issue.message}`;
  });
  throw invalid(raw, ctx, bodyText(raw.body), problems);
}
