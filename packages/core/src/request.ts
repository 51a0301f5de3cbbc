/**
 * A request as plain data: what any transport (undici, n8n's helpers, a test) must send.
 * Bodies are described, not materialised: image bytes stay behind their handles, so a transport
 * can stream them and still know the exact Content-Length.
 */
import { base64Length, type SniffedImage } from './image.js';
import { redactHeaders } from './redact.js';

/** A piece of a body: literal text, or an image's bytes (raw or base64-encoded). */
export type BodySegment = string | { image: SniffedImage; encoding: 'raw' | 'base64' };

export type MultipartPart =
  | { name: string; value: string }
  | { name: string; image: SniffedImage; filename: string; contentType: string };

export type RequestBody =
  /** A small JSON document, already serialised (digits of big integers kept). */
  | { type: 'json'; contentType: 'application/json'; text: string }
  /** JSON whose large string values are images encoded as base64 (blend). */
  | { type: 'json-segments'; contentType: 'application/json'; segments: BodySegment[] }
  | { type: 'multipart'; parts: MultipartPart[] };

/** How the key goes on this request; an adapter that authenticates by itself (n8n) reads this. */
export type AuthHeader = { type: 'bearer' } | { type: 'header'; name: string };

export interface RequestDescription {
  readonly operation: string;
  readonly method: 'POST';
  readonly url: string;
  /** Includes the auth header when the config carried an API key. */
  readonly headers: Readonly<Record<string, string>>;
  readonly auth: AuthHeader;
  readonly body: RequestBody;
  /** Non-fatal remarks about the input (a short prompt, ...). */
  readonly warnings: readonly string[];
}

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

function safeView(request: RequestDescription): Record<string, unknown> {
  const body = request.body;
  const bodyView =
    body.type === 'multipart'
      ? {
          type: body.type,
          parts: body.parts.map((p) =>
            'value' in p ? p : { name: p.name, filename: p.filename, contentType: p.contentType, size: p.image.size },
          ),
        }
      : body.type === 'json'
        ? body
        : { type: body.type, contentType: body.contentType, length: segmentsLength(body.segments) };
  const { operation, method, url, auth, warnings } = request;
  return { operation, method, url, headers: redactHeaders(request.headers), auth, body: bodyView, warnings };
}

/**
 * A description that shows itself redacted to `JSON.stringify` and `util.inspect`. A class with its
 * fields set in the constructor: one stable object shape for the transport's hot path (profiled:
 * assigning onto a prototype and freezing cost ~7 us a call).
 */
class DescribedRequest implements RequestDescription {
  readonly operation: string;
  readonly method: 'POST';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly auth: AuthHeader;
  readonly body: RequestBody;
  readonly warnings: readonly string[];

  constructor(r: RequestDescription) {
    this.operation = r.operation;
    this.method = r.method;
    this.url = r.url;
    this.headers = r.headers;
    this.auth = r.auth;
    this.body = r.body;
    this.warnings = r.warnings;
  }

  toJSON() {
    return safeView(this);
  }

  [INSPECT](_depth: number, options: unknown, inspect: (v: unknown, o: unknown) => string) {
    return `RequestDescription ${inspect(safeView(this), options)}`;
  }
}

/** Wraps a description so that `JSON.stringify` and `util.inspect` show it redacted. */
export function describeRequest(request: RequestDescription): RequestDescription {
  return new DescribedRequest(request);
}

const encoder = new TextEncoder();

export function segmentLength(segment: BodySegment): number {
  if (typeof segment === 'string') return encoder.encode(segment).byteLength;
  return segment.encoding === 'raw' ? segment.image.size : base64Length(segment.image.size);
}

export function segmentsLength(segments: readonly BodySegment[]): number {
  let total = 0;
  for (const s of segments) total += segmentLength(s);
  return total;
}

function quote(value: string): string {
  return value.replace(/"/g, '%22').replace(/\r|\n/g, ' ');
}

/** multipart/form-data as segments (RFC 7578). Streaming, with a length known in advance. */
export function encodeMultipart(parts: readonly MultipartPart[], boundary: string): BodySegment[] {
  const segments: BodySegment[] = [];
  for (const part of parts) {
    if ('value' in part) {
      segments.push(
        `--${boundary}\r\nContent-Disposition: form-data; name="${quote(part.name)}"\r\n\r\n${part.value}\r\n`,
      );
    } else {
      segments.push(
        `--${boundary}\r\nContent-Disposition: form-data; name="${quote(part.name)}"; filename="${quote(part.filename)}"\r\n` +
          `Content-Type: ${part.contentType}\r\n\r\n`,
        { image: part.image, encoding: 'raw' },
        '\r\n',
      );
    }
  }
  segments.push(`--${boundary}--\r\n`);
  return segments;
}
