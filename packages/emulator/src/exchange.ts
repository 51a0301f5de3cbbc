/**
 * One request and its answer: what gets recorded, and the one way answers are sent, so that the
 * body-shaping faults (truncate, slow body) apply to every answer alike.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { stringifyExact } from '@mediagw/core/protocol';
import type { FastifyReply } from 'fastify';
import type { Fault } from './faults.js';

export interface UploadSummary {
  field: string;
  filename: string;
  /** The part's declared Content-Type. */
  contentType: string;
  /** The type its first bytes reveal (undefined: not an image). */
  sniffedType: string | undefined;
  bytes: number;
  sha256: string;
}

export interface ImageSummary {
  /** The MIME type the data URI declares. */
  mime: string;
  bytes: number;
  sha256: string;
}

export interface RecordedRequest {
  /** 1, 2, 3... in arrival order. */
  seq: number;
  /** undefined for a path the emulator does not serve (answered 404). */
  operation: string | undefined;
  method: string;
  path: string;
  /** As received, secret headers replaced by `[redacted]`. */
  headers: Record<string, string>;
  /** The text fields (image-to-video) or JSON body; blend images are summarised in `images`. */
  fields: Record<string, unknown>;
  /** image-to-video: the uploaded image, hashed as it streamed past. */
  upload?: UploadSummary;
  /** blend: each data URI, decoded. */
  images?: ImageSummary[];
  /** Fields carried in the path (text-to-video's `model`), by name. */
  params?: Record<string, string>;
  /** The fault applied to this request, if any. */
  fault?: Fault;
  /** The status answered (undefined while pending, or when the connection was dropped). */
  status?: number;
  /** The error message answered, if the answer was an error. */
  message?: string;
  dropped?: boolean;
  /** The task or request id answered. */
  taskId?: string;
  /** Epoch milliseconds. */
  receivedAt: number;
}

export interface Exchange {
  record: RecordedRequest;
  /** The fault in force for this request (after `times`), if any. */
  fault: Fault | undefined;
  /** Remarks the answer made that a later notification repeats (blend placeholders). */
  notes?: string[];
}

export interface Answer {
  status: number;
  body: string | Buffer;
  contentType: string;
  headers?: Record<string, string>;
}

export function jsonAnswer(status: number, body: unknown, headers?: Record<string, string>): Answer {
  return { status, body: stringifyExact(body), contentType: 'application/json; charset=utf-8', headers };
}

/** The emulator's error body (the spec shows none): `{code, message}`, plus `issues` for 400s. */
export function errorAnswer(
  exchange: Exchange | null,
  status: number,
  message: string,
  extra: Record<string, unknown> = {},
  headers?: Record<string, string>,
): Answer {
  if (exchange) exchange.record.message = message;
  return jsonAnswer(status, { code: status, message, ...extra }, headers);
}

/** How many pieces a slow body is cut into. */
const SLOW_SLICES = 20;

/** Sends an answer, shaped by the exchange's fault (truncated or slow), and records its status. */
export async function send(reply: FastifyReply, exchange: Exchange | null, answer: Answer): Promise<FastifyReply> {
  const body = typeof answer.body === 'string' ? Buffer.from(answer.body) : answer.body;
  const headers = { ...answer.headers, 'content-type': answer.contentType, 'content-length': String(body.length) };
  if (exchange) exchange.record.status = answer.status;
  const fault = exchange?.fault;
  if (!fault?.truncate && !fault?.slowBodyMs) return reply.code(answer.status).headers(headers).send(body);

  // Take the socket from fastify: these answers break HTTP on purpose.
  reply.hijack();
  const res = reply.raw;
  if (fault.truncate) {
    res.writeHead(answer.status, { ...headers, connection: 'close' });
    res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.destroy());
    return reply;
  }
  res.writeHead(answer.status, headers);
  const slices = Math.max(1, Math.min(SLOW_SLICES, body.length));
  const step = Math.ceil(body.length / slices);
  for (let at = 0; at < body.length && !res.destroyed; at += step) {
    res.write(body.subarray(at, at + step));
    await sleep((fault.slowBodyMs ?? 0) / slices);
  }
  if (!res.destroyed) res.end();
  return reply;
}

/** The status of a success answer: 200, or the 2xx a fault asked for (201 for blend). */
export function successStatus(exchange: Exchange): number {
  const status = exchange.fault?.status;
  return status !== undefined && status >= 200 && status < 300 ? status : 200;
}
