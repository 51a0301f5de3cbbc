/**
 * The core's typed errors -> n8n's errors. Bad parameters become NodeOperationError naming the
 * UI field; gateway answers become NodeApiError with the HTTP status and the gateway's message.
 * Only the core's `toJSON()` view (no headers, no key) goes into the error.
 */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import {
	ConnectionError,
	GatewayError,
	InvalidResponseError,
	type MediaGatewayError,
	scrub,
	ValidationError,
} from '@mediagw/core/protocol';

/** Wire field -> the label the user sees (for messages). */
export type FieldLabels = Readonly<Record<string, string>>;

function labelled(field: string, labels: FieldLabels): string {
	const base = field.replace(/\[\d+\]$/, '');
	const label = labels[field] ?? labels[base];
	return label ? `${label} (${field})` : field;
}

function details(error: MediaGatewayError, secrets: readonly string[]): JsonObject {
	return JSON.parse(scrub(JSON.stringify(error), secrets)) as JsonObject;
}

export function toNodeError(
	node: INode,
	error: unknown,
	itemIndex: number,
	labels: FieldLabels,
	secrets: readonly string[],
): unknown {
	if (error instanceof ValidationError) {
		const lines = error.issues.map((issue) => `${labelled(issue.field, labels)}: ${issue.message}`);
		return new NodeOperationError(node, `Invalid parameter: ${lines.join('; ')}`, {
			itemIndex,
			description: error.hint,
		});
	}
	if (
		error instanceof GatewayError ||
		error instanceof InvalidResponseError ||
		error instanceof ConnectionError
	) {
		const status = 'status' in error ? error.status : undefined;
		const gatewayMessage = error instanceof GatewayError ? error.gatewayMessage : undefined;
		const requestId = error instanceof GatewayError ? error.requestId : undefined;
		return new NodeApiError(node, details(error, secrets), {
			itemIndex,
			message: scrub(error.message, secrets),
			// n8n may replace the message of a connection error with its own wording: keep ours here.
			description: [
				error instanceof ConnectionError && `${scrub(error.message, secrets)}.`,
				gatewayMessage && `Gateway said: ${scrub(gatewayMessage, secrets)}`,
				error.hint,
				requestId && `Request id: ${requestId}`,
			]
				.filter(Boolean)
				.join(' '),
			...(status === undefined ? {} : { httpCode: String(status) }),
		});
	}
	return error;
}
