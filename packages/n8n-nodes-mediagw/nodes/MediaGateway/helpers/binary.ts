/** Item binary data -> the core's image sources (bytes behind the handle, head for sniffing). */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { type ImageSource, SNIFF_BYTES } from '@mediagw/core/protocol';

export async function readImage(
	this: IExecuteFunctions,
	itemIndex: number,
	propertyName: string,
): Promise<ImageSource<Buffer>> {
	const binary = this.helpers.assertBinaryData(itemIndex, propertyName);
	// The whole image is needed in memory anyway: FormData takes a Blob, Blend sends base64 in JSON.
	const bytes = await this.helpers.getBinaryDataBuffer(itemIndex, propertyName);
	return { size: bytes.length, head: bytes.subarray(0, SNIFF_BYTES), name: binary.fileName, handle: bytes };
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
