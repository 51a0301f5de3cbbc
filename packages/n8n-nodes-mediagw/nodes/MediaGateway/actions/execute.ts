/**
 * One item of any operation: its parameters and binary images into the core's input, the request
 * built and sent, the answer parsed, and the produced file (if asked for) downloaded as binary.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { type AnyOperation, buildRequest, type FieldSpec, type InputOf, parseAnswer, type RetryPolicy } from '@mediagw/core/protocol';
import { nodeProperties } from '../description/operations';
import { binaryPropertyNames, readImage } from '../helpers/binary';
import { downloadFile } from '../helpers/download';
import type { FieldLabels } from '../helpers/errors';
import { labelsOf, toJson } from '../helpers/output';
import { configFromCredentials, credentialLabels, type MediaGatewayCredentials } from '../helpers/settings';
import { sendRequest } from '../transport';
import { isMainField } from '../description/parameters';

export interface ItemContext {
	credentials: MediaGatewayCredentials;
	/** Scrubbed from any gateway text that reaches output or errors. */
	secrets: string[];
	retry: RetryPolicy;
}

/** Wire field -> the label the user sees, for error messages. */
export function labelsFor(op: AnyOperation): FieldLabels {
	const images = op.images ? { [op.images.field]: op.images.many ? 'Input Binary Fields' : 'Input Binary Field' } : {};
	return labelsOf(nodeProperties([op]), { ...credentialLabels, ...images });
}

/** The item's field values: main fields from the node, the rest from Options; empty text means not set. */
function fieldValues(context: IExecuteFunctions, op: AnyOperation, itemIndex: number): Record<string, unknown> {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const values: Record<string, unknown> = {};
	for (const [name, spec] of Object.entries(op.fields) as [string, FieldSpec][]) {
		const value = isMainField(spec) ? context.getNodeParameter(name, itemIndex, '') : options[name];
		if (value === undefined || value === null || value === '') continue;
		values[name] = typeof value === 'string' && spec.kind === 'segment' ? value.trim() : value;
	}
	return values;
}

async function imagesOf(context: IExecuteFunctions, op: AnyOperation, itemIndex: number) {
	const spec = op.images;
	if (!spec) return {};
	if (!spec.many) {
		const property = context.getNodeParameter('binaryPropertyName', itemIndex) as string;
		return { [spec.field]: await readImage.call(context, itemIndex, property) };
	}
	const fromList = context.getNodeParameter('images', itemIndex, 'list') === 'list';
	const list = fromList ? (context.getNodeParameter('binaryPropertyNames', itemIndex) as string) : undefined;
	const images = [];
	for (const name of binaryPropertyNames.call(context, itemIndex, list)) images.push(await readImage.call(context, itemIndex, name));
	return { [spec.field]: images };
}

/** `overrides`: field values the node sets itself (Wait for Result's notify hook). */
export async function executeItem(
	this: IExecuteFunctions,
	op: AnyOperation,
	itemIndex: number,
	{ credentials, secrets, retry }: ItemContext,
	overrides: Record<string, unknown> = {},
): Promise<INodeExecutionData> {
	const config = configFromCredentials(credentials);
	const input = {
		...fieldValues(this, op, itemIndex),
		...overrides,
		...(await imagesOf(this, op, itemIndex)),
	} as InputOf<AnyOperation>;
	const request = buildRequest(op, config, input);
	const raw = await sendRequest.call(this, request, retry);
	const result = parseAnswer(op, raw, { config, secrets, warnings: request.warnings });
	const item: INodeExecutionData = { json: toJson(result) };
	const file = op.file?.(result);
	if (file && (this.getNodeParameter('download', itemIndex, true) as boolean)) {
		const property = this.getNodeParameter('outputPropertyName', itemIndex, 'data') as string;
		item.binary = { [property]: await downloadFile.call(this, file, op.name) };
	}
	return item;
}
