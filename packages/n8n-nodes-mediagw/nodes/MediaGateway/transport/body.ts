/**
 * The core's described body -> what n8n's request helper sends, with an exact Content-Length.
 *
 * The bytes come from the core's `segmentBytes` (text, images raw or base64). Images in n8n's
 * binary store are opened with `getBinaryStream` only when their segment is reached and read in
 * 48 KiB chunks, then handed on as a Node Readable: memory stays flat whatever the image sizes, and
 * no JS string ever holds an image (V8 caps strings near 512 MiB). Each image must yield exactly the
 * size n8n's metadata gave (that size is in Content-Length); otherwise the body fails before the
 * gateway has a complete request. Only when every image is data n8n keeps in memory (binary mode
 * "default") is the body one Buffer: those bytes are in memory anyway.
 */
import { randomBytes } from 'crypto';
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import {
	type BodySegment,
	encodeMultipart,
	type RequestBody,
	type SniffedImage,
	segmentBytes,
	segmentsLength,
} from '@mediagw/core/protocol';
import type { BinaryHandle } from '../helpers/binary';
import { type ByteStream, type ReadableClass, release } from '../helpers/streams';

/**
 * Read size (a multiple of 3). Measured in n8n's engine (bench/n8n-memory.ts), 48 KiB against
 * 192 KiB: blend 4 x 64 MiB peaked ~70 MiB instead of ~80-115 MiB above idle, in a third of the time.
 */
export const CHUNK_BYTES = 3 * 16 * 1024;

/** Where a body's images come from, and how far the body got. */
export interface BinarySource {
	open: (id: string, chunkSize: number) => Promise<ByteStream>;
	node: INode;
	/** Why the body stopped, if an image could not be read as announced. */
	failed?: NodeOperationError | undefined;
	/** Whether every byte of the body was handed to the HTTP client. */
	complete?: boolean;
}

export interface HttpBody {
	body: string | Buffer | ByteStream;
	/** content-type and content-length (always the exact byte count). */
	headers: Record<string, string>;
	/** True for a Readable: it can be sent once, and must not pass through redirect buffering. */
	streamed: boolean;
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

async function* storedChunks(source: BinarySource, handle: Extract<BinaryHandle, { kind: 'stored' }>, size: number) {
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
		throw fail(source, handle, `it has ${read > size ? `more than ${size}` : read} bytes where n8n's binary data store said ${size}`);
	}
}

function* memoryChunks(bytes: Buffer) {
	for (let i = 0; i < bytes.byteLength; i += CHUNK_BYTES) yield bytes.subarray(i, i + CHUNK_BYTES);
}

function reader(source: BinarySource) {
	return (image: SniffedImage) => {
		const handle = image.handle as BinaryHandle;
		return handle.kind === 'memory' ? memoryChunks(handle.bytes) : storedChunks(source, handle, image.size);
	};
}

/** The body's bytes; `source.complete` turns true once the last one was handed on. */
async function* bodyBytes(segments: readonly BodySegment[], source: BinarySource) {
	source.complete = false;
	yield* segmentBytes(segments, reader(source));
	source.complete = true;
}

/** The Readable class of the first stored image in the segments, if any. */
function readableFor(segments: readonly BodySegment[]): ReadableClass | undefined {
	for (const segment of segments) {
		if (typeof segment === 'string') continue;
		const handle = segment.image.handle as BinaryHandle;
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

/**
 * What to send for one attempt. Call again for every attempt: a streamed body is read once (each
 * attempt reopens the stored images). If the body fails, `source.failed` says why.
 */
export async function toHttpBody(body: RequestBody, source: BinarySource): Promise<HttpBody> {
	if (body.type === 'json') {
		source.complete = true;
		const headers = { 'content-type': body.contentType, 'content-length': String(Buffer.byteLength(body.text)) };
		return { body: body.text, headers, streamed: false };
	}
	const boundary = `mediagw-${randomBytes(12).toString('hex')}`;
	const segments = body.type === 'multipart' ? encodeMultipart(body.parts, boundary) : body.segments;
	const contentType = body.type === 'multipart' ? `multipart/form-data; boundary=${boundary}` : body.contentType;
	const length = segmentsLength(segments);
	const headers = { 'content-type': contentType, 'content-length': String(length) };
	const Readable = readableFor(segments);
	if (Readable) {
		const stream = Readable.from(bodyBytes(segments, source), { objectMode: false, highWaterMark: 256 * 1024 });
		return { body: stream, headers, streamed: true };
	}
	return { body: await assemble(bodyBytes(segments, source), length), headers, streamed: false };
}
