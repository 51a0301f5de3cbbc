/**
 * The core's described body -> what n8n's request helper sends, with an exact Content-Length.
 *
 * Multipart and base64 JSON bodies are lists of segments (text, or an image's bytes raw or
 * base64). Images in n8n's binary store are opened with `getBinaryStream` only when their segment
 * is reached, read in chunks of 48 KiB (a multiple of 3, so each chunk base64-encodes on its own)
 * and handed on as a Node Readable: memory stays flat whatever the image sizes, and no JS string
 * ever holds an image (V8 caps strings near 512 MiB). Each image must yield exactly the size
 * n8n's metadata gave (that size is in Content-Length); otherwise the body fails, and so does the
 * request, before the gateway has a complete body.
 *
 * Only when no Readable class is at hand (every image is data n8n keeps in memory, binary mode
 * "default") is the body assembled into one Buffer: those bytes are in memory anyway.
 */
import { randomBytes } from 'crypto';
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import {
	type BodySegment,
	encodeMultipart,
	type RequestBody,
	type SniffedImage,
	segmentsLength,
} from '@mediagw/core/protocol';
import type { BinaryHandle } from '../helpers/binary';
import { type ByteStream, type ReadableClass, release } from '../helpers/streams';

/**
 * Read size; a multiple of 3 so every chunk but the last base64-encodes without padding. Measured
 * in n8n's engine (bench/n8n-memory.ts), 48 KiB against 192 KiB: blend 4 x 64 MiB peaked ~70 MiB
 * instead of ~80-115 MiB above idle and ran in a third of the time; image-to-video the same.
 */
export const CHUNK_BYTES = 3 * 16 * 1024;

/** Opens a stored binary for reading (n8n's `getBinaryStream`). */
export type OpenBinary = (id: string, chunkSize: number) => Promise<ByteStream>;

/** Where a body's images come from, and how far the body got. */
export interface BinarySource {
	open: OpenBinary;
	node: INode;
	/** Why the body stopped, if an image could not be read as announced. */
	failed?: NodeOperationError | undefined;
	/** Bytes of the body handed to the HTTP client so far, and its Content-Length. */
	produced?: number;
	length?: number;
}

export interface HttpBody {
	body: string | Buffer | ByteStream;
	/** content-type and content-length (always the exact byte count). */
	headers: Record<string, string>;
	/** True for a Readable: it can be sent once, and must not pass through redirect buffering. */
	streamed: boolean;
}

function handleOf(image: SniffedImage): BinaryHandle {
	return image.handle as BinaryHandle;
}

/** Records and returns the error that stops the body (the request fails with it). */
function fail(source: BinarySource, handle: BinaryHandle, problem: string): NodeOperationError {
	source.failed = new NodeOperationError(source.node, `Could not send binary field "${handle.property}": ${problem}`, {
		itemIndex: handle.itemIndex,
		description:
			'The request stopped before its body was complete, so the gateway created no task. Check that the binary data is intact (run the node that produced it again).',
	});
	return source.failed;
}

const reason = (error: unknown) => String((error as Error)?.message ?? error);

function* memoryChunks(bytes: Buffer): Generator<Uint8Array> {
	for (let i = 0; i < bytes.byteLength; i += CHUNK_BYTES) yield bytes.subarray(i, i + CHUNK_BYTES);
}

async function* storedChunks(
	source: BinarySource,
	handle: Extract<BinaryHandle, { kind: 'stored' }>,
	size: number,
): AsyncGenerator<Uint8Array> {
	let stream: ByteStream;
	try {
		stream = await source.open(handle.id, CHUNK_BYTES);
	} catch (error) {
		throw fail(source, handle, `n8n's binary data store could not open it (${reason(error)})`);
	}
	let read = 0;
	try {
		for await (const chunk of stream as AsyncIterable<Uint8Array>) {
			read += chunk.byteLength;
			if (read > size) break;
			// Database mode yields the whole file as one chunk: hand it on in pieces.
			for (let i = 0; i < chunk.byteLength; i += CHUNK_BYTES) yield chunk.subarray(i, i + CHUNK_BYTES);
		}
	} catch (error) {
		throw fail(source, handle, `n8n's binary data store could not read it (${reason(error)})`);
	} finally {
		release(stream);
	}
	if (read !== size) {
		const got = read > size ? `more than ${size}` : String(read);
		throw fail(source, handle, `it has ${got} bytes where n8n's binary data store said ${size}`);
	}
}

const ALPHABET = Buffer.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', 'latin1');
const PAD = 0x3d; // '='

/**
 * Base64 of some bytes, written straight into a Buffer. `buffer.toString('base64')` would make a
 * JS string of every chunk first: in n8n's large heap those strings pile up in the old generation
 * until a full GC (measured: blend 4 x 64 MiB peaked ~135 MiB above idle that way, ~95 MiB without).
 */
function base64Bytes(src: Uint8Array): Buffer {
	const n = src.byteLength;
	const out = Buffer.allocUnsafe(4 * Math.ceil(n / 3));
	const a = ALPHABET;
	const whole = n - (n % 3);
	let j = 0;
	for (let i = 0; i < whole; i += 3) {
		const v = (src[i]! << 16) | (src[i + 1]! << 8) | src[i + 2]!;
		out[j] = a[v >>> 18]!;
		out[j + 1] = a[(v >>> 12) & 63]!;
		out[j + 2] = a[(v >>> 6) & 63]!;
		out[j + 3] = a[v & 63]!;
		j += 4;
	}
	if (whole < n) {
		const v = (src[whole]! << 16) | ((whole + 1 < n ? src[whole + 1]! : 0) << 8);
		out[j] = a[v >>> 18]!;
		out[j + 1] = a[(v >>> 12) & 63]!;
		out[j + 2] = whole + 1 < n ? a[(v >>> 6) & 63]! : PAD;
		out[j + 3] = PAD;
	}
	return out;
}

/** Base64 text of a byte stream, chunk by chunk: whole 3-byte groups per chunk, the rest carried. */
export async function* base64Chunks(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<Uint8Array> {
	let carry = Buffer.alloc(0);
	for await (const chunk of chunks) {
		let start = 0;
		if (carry.length > 0) {
			const need = 3 - carry.length;
			if (chunk.byteLength < need) {
				carry = Buffer.concat([carry, chunk]);
				continue;
			}
			yield base64Bytes(Buffer.concat([carry, chunk.subarray(0, need)]));
			start = need;
		}
		const end = start + Math.floor((chunk.byteLength - start) / 3) * 3;
		if (end > start) yield base64Bytes(chunk.subarray(start, end));
		carry = Buffer.from(chunk.subarray(end));
	}
	if (carry.length > 0) yield base64Bytes(carry);
}

function imageChunks(
	source: BinarySource,
	image: SniffedImage,
	encoding: 'raw' | 'base64',
): AsyncIterable<Uint8Array> | Iterable<Uint8Array> {
	const handle = handleOf(image);
	const raw = handle.kind === 'memory' ? memoryChunks(handle.bytes) : storedChunks(source, handle, image.size);
	return encoding === 'raw' ? raw : base64Chunks(raw);
}

/** The body's bytes in order, counted into `source.produced`. */
async function* bodyBytes(segments: readonly BodySegment[], source: BinarySource): AsyncGenerator<Uint8Array> {
	source.produced = 0;
	for (const segment of segments) {
		const chunks =
			typeof segment === 'string'
				? [Buffer.from(segment, 'utf8')]
				: imageChunks(source, segment.image, segment.encoding);
		for await (const chunk of chunks) {
			source.produced += chunk.byteLength;
			yield chunk;
		}
	}
}

/** The Readable class of the first stored image in the segments, if any. */
function readableFor(segments: readonly BodySegment[]): ReadableClass | undefined {
	for (const segment of segments) {
		if (typeof segment === 'string') continue;
		const handle = handleOf(segment.image);
		if (handle.kind === 'stored' && handle.Readable) return handle.Readable;
	}
	return undefined;
}

/** Everything into one Buffer of the announced length (in-memory data only, or no Readable class). */
async function assemble(bytes: AsyncIterable<Uint8Array>, length: number): Promise<Buffer> {
	const out = Buffer.allocUnsafe(length);
	let at = 0;
	for await (const chunk of bytes) {
		if (at + chunk.byteLength > length) throw new Error(`the body is longer than its ${length} bytes`);
		out.set(chunk, at);
		at += chunk.byteLength;
	}
	if (at !== length) throw new Error(`the body has ${at} of its ${length} bytes`);
	return out;
}

/** Segments and content type of a body that carries images. */
export function segmentsOf(body: Exclude<RequestBody, { type: 'json' }>): {
	segments: BodySegment[];
	contentType: string;
} {
	switch (body.type) {
		case 'json-segments':
			return { segments: body.segments, contentType: body.contentType };
		case 'multipart': {
			const boundary = `mediagw-${randomBytes(12).toString('hex')}`;
			return {
				segments: encodeMultipart(body.parts, boundary),
				contentType: `multipart/form-data; boundary=${boundary}`,
			};
		}
	}
}

/**
 * What to send for one attempt. Call again for every attempt: a streamed body is read once (each
 * attempt reopens the stored images). If the body fails, `source.failed` says why.
 */
export async function toHttpBody(body: RequestBody, source: BinarySource): Promise<HttpBody> {
	if (body.type === 'json') {
		const headers = { 'content-type': body.contentType, 'content-length': String(Buffer.byteLength(body.text)) };
		return { body: body.text, headers, streamed: false };
	}
	const { segments, contentType } = segmentsOf(body);
	const length = segmentsLength(segments);
	source.length = length;
	const headers = { 'content-type': contentType, 'content-length': String(length) };
	const Readable = readableFor(segments);
	if (Readable) {
		const stream = Readable.from(bodyBytes(segments, source), { objectMode: false, highWaterMark: 256 * 1024 });
		return { body: stream, headers, streamed: true };
	}
	return { body: await assemble(bodyBytes(segments, source), length), headers, streamed: false };
}
