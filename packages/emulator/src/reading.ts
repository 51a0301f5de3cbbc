/**
 * Reads a request of any operation the way the gateway would, with the core's own rules: multipart
 * uploads streamed and hashed (never held in memory), text parts read as the core reads text, JSON
 * bodies checked with the operation's wire schema, path fields checked as path segments.
 */
import { createHash } from 'node:crypto';
import type { MultipartFile } from '@fastify/multipart';
import {
  type AnyOperation,
  checkImage,
  type FieldIssue,
  fieldsFromText,
  jsonBodySchema,
  SNIFF_BYTES,
  segmentIssue,
  sniffImageType,
  validate,
} from '@mediagw/core/protocol';
import type { FastifyRequest } from 'fastify';
import type { Received } from './context.js';
import { type Answer, type Exchange, errorAnswer, type UploadSummary } from './exchange.js';
import { validated } from './routes/common.js';

/** Counts and hashes a file part as it streams past, keeping only its first bytes (to sniff). */
async function readUpload(part: MultipartFile): Promise<{ summary: UploadSummary; head: Buffer }> {
  const hash = createHash('sha256');
  let bytes = 0;
  let head = Buffer.alloc(0);
  for await (const chunk of part.file as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
    if (head.length < SNIFF_BYTES) head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
  }
  const summary: UploadSummary = {
    field: part.fieldname,
    filename: part.filename,
    contentType: part.mimetype,
    sniffedType: sniffImageType(head)?.mime,
    bytes,
    sha256: hash.digest('hex'),
  };
  return { summary, head };
}

/** The path fields (a segment field overrides its route setting; the router matched it as `*`). */
export function paramsOf(op: AnyOperation, request: FastifyRequest): Record<string, string> {
  const wildcard = (request.params as { '*'?: string })['*'];
  const params: Record<string, string> = {};
  for (const [name, spec] of Object.entries(op.fields))
    if (spec.kind === 'segment' && wildcard !== undefined) params[name] = wildcard;
  return params;
}

const paramIssues = (params: Record<string, string>) =>
  Object.entries(params).flatMap(([name, value]) => segmentIssue(name, value) ?? []);

type Outcome = { received: Received } | { answer: Answer };

async function readMultipart(
  op: AnyOperation,
  request: FastifyRequest,
  exchange: Exchange,
  maxUploadBytes: number,
): Promise<Outcome> {
  const field = op.images?.field ?? '';
  const issues: FieldIssue[] = [];
  const refuse = (status: number, message: string, list?: FieldIssue[]) => ({
    answer: errorAnswer(exchange, status, message, list ? { issues: list } : {}),
  });
  if (!request.isMultipart()) {
    const message = `is required: send multipart/form-data with the image in the "${field}" part`;
    return refuse(400, `${field}: ${message}`, [{ field, message }]);
  }
  const texts: Record<string, string> = {};
  exchange.record.fields = texts;
  const uploads: { summary: UploadSummary; head: Buffer }[] = [];
  const tooLarge = `${field}: is larger than the emulator accepts (maxUploadBytes = ${maxUploadBytes} bytes)`;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === field)
          issues.push({ field, message: 'must be a file part (with a filename), not a text field' });
        else if (part.fieldname in texts)
          issues.push({ field: part.fieldname, message: 'was sent more than once; send it once' });
        else texts[part.fieldname] = String(part.value);
        continue;
      }
      const received = await readUpload(part);
      if (part.file.truncated) return refuse(413, tooLarge);
      if (part.fieldname !== field) {
        issues.push({ field: part.fieldname, message: `is a file part; the only file part is ${field}` });
      } else if (uploads.length > 0 && !op.images?.many) {
        issues.push({ field, message: 'was sent more than once; send one image' });
      } else uploads.push(received);
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') return refuse(413, tooLarge);
    throw error;
  }
  const first = uploads[0];
  if (first) exchange.record.upload = first.summary;
  else issues.push({ field, message: 'is required: an image file part (PNG, JPEG, ...)' });
  for (const { summary, head } of uploads) checkImage(field, { size: summary.bytes, head, handle: undefined }, issues);

  const params = paramsOf(op, request);
  const read = fieldsFromText(op, texts);
  const checked = validated(exchange, () =>
    validate(op.schema, { ...read.values, ...params }, op.name, [...read.issues, ...issues]),
  );
  if ('answer' in checked) return checked;
  return { received: { fields: read.values, params, uploads: uploads.map((u) => u.summary), dataUris: [] } };
}

const schemas = new WeakMap<AnyOperation, ReturnType<typeof jsonBodySchema>>();

function readJsonBody(op: AnyOperation, request: FastifyRequest, exchange: Exchange): Outcome {
  const body = request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? request.body : {};
  const images = op.images?.encoding === 'data-uri' ? op.images.field : undefined;
  const { [images ?? '']: uris, ...fields } = body as Record<string, unknown>;
  exchange.record.fields = images ? fields : (body as Record<string, unknown>);
  const params = paramsOf(op, request);
  const wire = schemas.get(op) ?? jsonBodySchema(op);
  schemas.set(op, wire);
  const checked = validated(exchange, () => validate(wire, request.body ?? {}, op.name, paramIssues(params)));
  if ('answer' in checked) return checked;
  const dataUris = images ? (Array.isArray(uris) ? (uris as string[]) : [uris as string]) : [];
  return { received: { fields, params, uploads: [], dataUris } };
}

export function readRequest(
  op: AnyOperation,
  request: FastifyRequest,
  exchange: Exchange,
  maxUploadBytes: number,
): Promise<Outcome> | Outcome {
  const params = paramsOf(op, request);
  if (Object.keys(params).length > 0) exchange.record.params = params;
  return op.body === 'multipart'
    ? readMultipart(op, request, exchange, maxUploadBytes)
    : readJsonBody(op, request, exchange);
}
