/**
 * Where an operation is served and what happens before its body is read, in the documented order:
 * route (404) -> key (401/403) -> fault. The path and the auth style come from the operation's
 * core descriptor; a route setting that a path field overrides (the model) matches any segments.
 */
import { STATUS_CODES } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { type AnyOperation, type RouteSettings, routePath } from '@mediagw/core/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { checkKey, type KeyPolicy } from './auth.js';
import { type Answer, type Exchange, errorAnswer, jsonAnswer, send, successStatus } from './exchange.js';
import {
  FAULT_HEADER,
  type Fault,
  type FaultCounter,
  FaultHeaderError,
  isErrorStatus,
  parseFaultHeader,
} from './faults.js';

export interface ServedPath {
  /** As fastify matches it (`/service_prefix/submit/*`). */
  path: string;
  /** As people read it (`/service_prefix/submit/<model>`). */
  display: string;
}

/** The operation's path under these route settings; a setting a path field overrides becomes a wildcard (last only). */
export function servedPath(op: AnyOperation, routes: RouteSettings): ServedPath {
  const wild = Object.entries(op.fields).find(([, spec]) => spec.kind === 'segment');
  const [name, spec] = wild ?? [];
  const setting = spec?.kind === 'segment' ? spec.setting : undefined;
  const last = op.route.at(-1);
  if (setting && !(typeof last === 'object' && last.setting === setting)) {
    throw new Error(`${op.name}: a path field may only override the last route segment`);
  }
  const fixed = setting ? op.route.slice(0, -1) : op.route;
  const prefix = `/${routePath(fixed, routes)}`;
  return setting ? { path: `${prefix}/*`, display: `${prefix}/<${name}>` } : { path: prefix, display: prefix };
}

export const authLabel = (op: AnyOperation, secretHeader: string) =>
  op.auth === 'bearer' ? 'Authorization: Bearer <key>' : `${secretHeader}: <key>`;

const BAD_GATEWAY_PAGE = `<!DOCTYPE html>
<html><head><title>502 Bad Gateway</title></head>
<body><center><h1>502 Bad Gateway</h1></center><hr><center>mediagw emulator (emulated fault)</center></body></html>
`;

/** The answer a fault with an error status stands for. */
function faultAnswer(exchange: Exchange, status: number, fault: Fault): Answer {
  if (status === 502) {
    exchange.record.message = '502 Bad Gateway (HTML page)';
    return { status, body: BAD_GATEWAY_PAGE, contentType: 'text/html; charset=utf-8' };
  }
  const retryAfter = fault.retryAfter ?? (status === 429 ? '1' : undefined);
  const headers = retryAfter === undefined ? undefined : { 'retry-after': retryAfter };
  const wait = retryAfter === undefined ? '' : `; retry after ${retryAfter} s`;
  return errorAnswer(exchange, status, `${STATUS_CODES[status] ?? 'error'} (emulated fault)${wait}`, {}, headers);
}

export interface GateContext {
  keys: KeyPolicy;
  faults: FaultCounter;
  serverFault(): Fault | undefined;
  begin(request: FastifyRequest, operation: string | undefined): Exchange;
}

/** The fault for this request: its header's, else the server's; undefined once `times` is used up. */
function pickFault(request: FastifyRequest, ctx: GateContext): Fault | undefined {
  const header = request.headers[FAULT_HEADER];
  const raw = Array.isArray(header) ? header.join(';') : header;
  const [key, fault] = raw !== undefined ? [`header:${raw}`, parseFaultHeader(raw)] : ['server', ctx.serverFault()];
  return fault && ctx.faults.take(key, fault) ? fault : undefined;
}

/**
 * Runs before the body is read: records the request, checks the key, applies the fault. Answers
 * (and so ends the request) on a refusal or a fault that replaces the answer.
 */
export async function gate(
  op: AnyOperation,
  failure: () => unknown,
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: GateContext,
): Promise<FastifyReply | undefined> {
  const exchange = ctx.begin(request, op.name);
  request.exchange = exchange;
  const refusal = checkKey(op.auth, request.headers, ctx.keys);
  if (refusal) return send(reply, exchange, errorAnswer(exchange, refusal.status, refusal.message));

  let fault: Fault | undefined;
  try {
    fault = pickFault(request, ctx);
  } catch (error) {
    if (!(error instanceof FaultHeaderError)) throw error;
    return send(reply, exchange, errorAnswer(exchange, 400, error.message));
  }
  if (!fault) return undefined;
  exchange.fault = fault;
  exchange.record.fault = fault;
  if (fault.latencyMs) await sleep(fault.latencyMs);
  if (fault.dropUnread) {
    exchange.record.dropped = true;
    reply.hijack();
    request.raw.socket.destroy();
    return reply;
  }
  if (isErrorStatus(fault)) return send(reply, exchange, faultAnswer(exchange, fault.status as number, fault));
  if (fault.envelopeFailure) return send(reply, exchange, jsonAnswer(successStatus(exchange), failure()));
  return undefined;
}
