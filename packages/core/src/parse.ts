/**
 * Raw answer -> a typed result, for any operation, read liberally: a created task is never reported
 * as a failure. Only an answer without the part the result needs (a refusal aside) is an error,
 * and it quotes any id it saw; fields the spec lists but the answer lacks or mistypes are warnings.
 */
import type { z } from 'zod/v4';
import type { ResolvedConfig } from './config.js';
import { RefusedError } from './errors/index.js';
import type { AnswerContext, AnyOperation, ResultOf } from './operation.js';
import { scrubDeep } from './redact.js';
import { invalidAnswer, type ParseContext, quoted, type RawResponse, readJson } from './response.js';
import { fieldPath } from './validate.js';

export interface AnswerOptions extends Omit<ParseContext, 'operation'> {
  config: ResolvedConfig;
  /** Warnings the input drew (the request description's), put first. */
  warnings?: readonly string[] | undefined;
}

/** How many missing fields one warning names before it says "and N more". */
const LISTED = 10;

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

function problemsOf(error: z.ZodError, json: unknown): { missing: string[]; wrong: string[] } {
  const missing: string[] = [];
  const wrong: string[] = [];
  for (const issue of error.issues) {
    const at = issue.path.length === 0 ? 'the answer' : fieldPath(issue.path);
    if (valueAt(json, issue.path) === undefined) missing.push(at);
    else wrong.push(`${at}: ${issue.message}`);
  }
  return { missing, wrong };
}

function answerWarnings(error: z.ZodError, json: unknown): string[] {
  const { missing, wrong } = problemsOf(error, json);
  const warnings = wrong.map((w) => `the answer's ${w} (kept as sent)`);
  if (missing.length > 0) {
    const named = missing.slice(0, LISTED).join(', ');
    const more = missing.length > LISTED ? ` and ${missing.length - LISTED} more` : '';
    warnings.unshift(`the answer lacks ${named}${more}, which the spec lists; the result does without`);
  }
  return warnings;
}

/** Parses an operation's answer, or throws the typed error it calls for. */
export function parseAnswer<Op extends AnyOperation>(op: Op, raw: RawResponse, options: AnswerOptions): ResultOf<Op> {
  const ctx: ParseContext = { operation: op.name, secrets: options.secrets, now: options.now };
  const secrets = options.secrets ?? [];
  // The key may come back inside the answer (echoed in an id or a URL): it never reaches a result.
  const decoded = readJson(raw, ctx);
  let json: unknown;
  try {
    json = scrubDeep(decoded, secrets);
  } catch (error) {
    throw invalidAnswer(raw, ctx, [`the answer is ${(error as Error).message}`]);
  }
  const warnings = [...(options.warnings ?? [])];
  const answerCtx: AnswerContext = {
    config: options.config,
    // Headers too: a gateway may echo the key in a request id header.
    raw: { ...raw, headers: scrubDeep(raw.headers, secrets) },
    warn: (message) => warnings.push(quoted(message, secrets)),
  };
  const record =
    json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
  const refusal = record ? op.answer.refusal?.(record, answerCtx) : undefined;
  if (refusal) {
    const clean = (text: string | undefined) => (text === undefined ? undefined : quoted(text, secrets));
    throw new RefusedError({
      ...refusal,
      operation: op.name,
      status: raw.status,
      gatewayMessage: clean(refusal.gatewayMessage),
      gatewayCode: typeof refusal.gatewayCode === 'string' ? clean(refusal.gatewayCode) : refusal.gatewayCode,
      requestId: clean(refusal.requestId),
    });
  }
  // Fast path: an answer with every listed field also has the useful part.
  const listed = op.answer.listed.safeParse(json);
  if (!listed.success) {
    const useful = op.answer.useful.safeParse(json);
    if (!useful.success) {
      const { missing, wrong } = problemsOf(useful.error, json);
      throw invalidAnswer(raw, ctx, [...missing.map((m) => `${m} is missing`), ...wrong], json);
    }
    warnings.push(...answerWarnings(listed.error, json).map((w) => quoted(w, secrets)));
  }
  const result = op.answer.read(record as Record<string, unknown>, answerCtx);
  return { ...result, operation: op.name, warnings, response: record } as ResultOf<Op>;
}
