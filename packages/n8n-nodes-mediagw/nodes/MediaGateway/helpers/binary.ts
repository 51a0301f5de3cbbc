/**
 * Item binary data -> the core's image sources. Nothing is read whole: an image in n8n's binary
 * store (filesystem, database or S3 mode: the item holds only an id) keeps its id behind the handle
 * and is streamed by the transport when the request is sent; only its size (n8n's metadata) and
 * first bytes (to sniff the type) are read here. Only data n8n itself keeps in memory (binary mode
 * "default": base64 in the item, no id) comes as a Buffer.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { type ImageSource, SNIFF_BYTES } from '@mediagw/core/protocol';
import { type ReadableClass, readableClassOf, release } from './streams';

/** Where an image's bytes are: what the transport (transport/body.ts) reads. */
export type BinaryHandle =
	| {
			kind: 'stored';
			/** n8n's binary data id (`filesystem-v2:...`, `database:...`, `s3:...`). */
			id: string;
			/** Node's Readable class, taken from the stream n8n returned for this id. */
			Readable: ReadableClass | undefined;
			itemIndex: number;
			property: string;
	  }
	| { kind: 'memory'; bytes: Buffer; itemIndex: number; property: string };

export type BinaryImage = ImageSource<BinaryHandle>;

/** The first `n` bytes of a stream (fewer if it is shorter); the stream is closed afterwards. */
async function firstBytes(stream: AsyncIterable<Uint8Array>, n: number): Promise<Buffer> {
	const chunks: Buffer[] = [];
	let have = 0;
	try {
		for await (const chunk of stream) {
			chunks.push(Buffer.from(chunk.subarray(0, n - have)));
			have += Math.min(chunk.byteLength, n - have);
			if (have >= n) break;
		}
	} finally {
		release(stream);
	}
	return Buffer.concat(chunks);
}

export async function readImage(
	this: IExecuteFunctions,
	itemIndex: number,
	propertyName: string,
): Promise<BinaryImage> {
	const binary = this.helpers.assertBinaryData(itemIndex, propertyName);
	if (binary.id) {
		const metadata = await this.helpers.getBinaryMetadata(binary.id);
		const size = [metadata.fileSize, binary.bytes].find((n): n is number => Number.isSafeInteger(n) && (n as number) >= 0);
		if (size === undefined) {
			throw new NodeOperationError(this.getNode(), `The size of binary field "${propertyName}" is not known`, {
				itemIndex,
				description: "n8n's binary data store has no size for it; the upload needs it for Content-Length.",
			});
		}
		// A small read for the type check; the transport opens the data again when it sends it.
		const stream = await this.helpers.getBinaryStream(binary.id, SNIFF_BYTES);
		const Readable = readableClassOf(stream);
		const head = await firstBytes(stream as AsyncIterable<Uint8Array>, SNIFF_BYTES);
		return {
			size,
			head,
			name: binary.fileName ?? metadata.fileName,
			handle: { kind: 'stored', id: binary.id, Readable, itemIndex, property: propertyName },
		};
	}
	// n8n keeps this binary in the item itself (base64): decoding it is the only way to read it.
	const bytes = await this.helpers.getBinaryDataBuffer(itemIndex, propertyName);
	return {
		size: bytes.length,
		head: bytes.subarray(0, SNIFF_BYTES),
		name: binary.fileName,
		handle: { kind: 'memory', bytes, itemIndex, property: propertyName },
	};
}

/** Names from a comma-separated list, or every binary property of the item. */
export function binaryPropertyNames(
	this: IExecuteFunctions,
	itemIndex: number,
	list: string | undefined,
): string[] {
	if (list === undefined) {
		const names = Object.keys(this.getInputData()[itemIndex]?.binary ?? {});
		if (names.length === 0) {
			throw new NodeOperationError(this.getNode(), 'The item has no binary data: Blend needs at least one image', {
				itemIndex,
				description: 'Read the images into binary properties first (for example with the Read/Write Files node).',
			});
		}
		return names;
	}
	const names = list
		.split(',')
		.map((name) => name.trim())
		.filter(Boolean);
	if (names.length === 0) {
		throw new NodeOperationError(this.getNode(), 'Input Binary Fields is empty: name at least one binary property', {
			itemIndex,
		});
	}
	return names;
}
