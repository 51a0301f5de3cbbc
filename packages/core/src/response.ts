/**
 * Raw answer -> decoded JSON, or the typed error its status calls for. What the gateway wrote is
 * data: every piece of it that reaches a message is scrubbed of secrets and reduced to plain text.
 */
import {
  AuthenticationError,
  GatewayError,
  type GatewayErrorInit,
  InvalidResponseError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
} from './errors/index.js';
import { type HeaderBag, header } from './headers.js';
import { parseJsonExact } from './json.js';
import { scrub } from './redact.js';
import { parseRetryAfter } from './retry.js';
import { plainText } from './text.js';

/** An HTTP answer as any transport can hand it over. */
export interface RawResponse {
  status: number;
  headers: HeaderBag;
  body: string | Uint8Array;
}

export interface ParseContext {
  operation: string;
  /** Secrets to scrub from anything quoted (the API key). */
  secrets?: readonly (string | undefined)[] | undefined;
  /** Clock for Retry-After dates (tests). */
  now?: number | undefined;
}

const EXCERPT_CHARS = 300;
const decoder = new TextDecoder('utf-8', { fatal: true });

export function bodyText(body: string | Uint8Array): string | undefined {
  if (typeof body === 'string') return body;
  try {
    return decoder.decode(body);
  } catch {
    return undefined;
  }
}

/** Gateway text fit to quote: secrets scrubbed, one plain line. */
export function quoted(text: string, secrets: readonly (string | undefined)[] = []): string {
  return plainText(scrub(text, secrets)).replace(/\s+/g, ' ').trim();
}

/** A short, single-line, scrubbed excerpt; HTML pages are reduced to their text. */
export function excerpt(text: string, secrets: readonly (string | undefined)[] = []): string | undefined {
  let t = text;
  if (/^\s*<(!doctype|html|head|body)/i.test(t)) {
    t = t.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]+>/g, ' ');
  }
  t = quoted(t, secrets);
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
    gatewayCode: typeof code === 'number' ? code : typeof code === 'string' ? code : undefined,
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
  const clean = (value: string | undefined) => (value === undefined ? undefined : quoted(value, secrets) || undefined);
  const code = found.gatewayCode;
  const init: GatewayErrorInit = {
    operation: ctx.operation,
    status: raw.status,
    gatewayMessage: clean(found.gatewayMessage),
    gatewayCode: typeof code === 'string' ? clean(code) : code,
    requestId: clean(requestIdOf(raw.headers) ?? found.requestId),
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

const ID_KEY = /^(?:id|task_?id|result|request_?id)$/i;
const ID_VALUE = /^[\w.:-]{4,100}$/;
const ID_IN_TEXT = /"(?:id|task_?id|taskId|result|request_?id|requestId)"\s*:\s*"?([\w.:-]{4,100})/gi;

/** Ids seen anywhere in an answer (keys such as `id`, `taskId`, `result`, `request_id`), at most three. */
export function idsIn(json: unknown, text?: string): string[] {
  const ids = new Set<string>();
  let budget = 500;
  const visit = (value: unknown, depth: number) => {
    if (ids.size >= 3 || budget-- <= 0 || depth > 8 || !value || typeof value !== 'object') return;
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      const id = typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
      if (id !== undefined && ID_KEY.test(key) && ID_VALUE.test(id)) ids.add(id);
      else visit(v, depth + 1);
    }
  };
  visit(json, 0);
  if (json === undefined && text) for (const m of text.matchAll(ID_IN_TEXT)) if (m[1] && ids.size < 3) ids.add(m[1]);
  return [...ids];
}

export function invalidAnswer(
  raw: RawResponse,
  ctx: ParseContext,
  problems: string[],
  json?: unknown,
  cause?: unknown,
) {
  const text = bodyText(raw.body);
  return new InvalidResponseError({
    operation: ctx.operation,
    status: raw.status,
    problems: problems.map((p) => quoted(p, ctx.secrets)),
    bodyExcerpt: text === undefined ? undefined : excerpt(text, ctx.secrets),
    possibleTaskIds: idsIn(json, text).map((id) => quoted(id, ctx.secrets)),
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
  if (text === undefined) throw invalidAnswer(raw, ctx, ['the body is not valid UTF-8']);
  if (text.trim() === '') throw invalidAnswer(raw, ctx, ['the body is empty']);
  try {
    return parseJsonExact(text);
  } catch (cause) {
    const cut = /end of (json )?input|unterminated/i.test(String((cause as Error)?.message));
    throw invalidAnswer(
      raw,
      ctx,
      [cut ? 'the body is cut short (incomplete JSON)' : 'the body is not JSON'],
      undefined,
      cause,
    );
  }
}
