/**
 * The core's typed errors -> n8n's errors. Bad parameters become NodeOperationError naming the
 * UI field; gateway answers and failed downloads become NodeApiError with the HTTP status and the
 * gateway's (plain, scrubbed) message. Only the core's `toJSON()` view (no headers, no key) goes in.
 */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { GatewayError, MediaGatewayError, scrub, ValidationError } from '@mediagw/core/protocol';

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

export function toNodeError(node: INode, error: unknown, itemIndex: number, labels: FieldLabels, secrets: readonly string[]): unknown {
	if (error instanceof ValidationError) {
		const lines = error.issues.map((issue) => `${labelled(issue.field, labels)}: ${issue.message}`);
		return new NodeOperationError(node, `Invalid parameter: ${lines.join('; ')}`, { itemIndex, description: error.hint });
	}
	if (!(error instanceof MediaGatewayError)) return error;
	const status = (error as { status?: unknown }).status;
	const gateway = error instanceof GatewayError ? error : undefined;
	const message = scrub(error.message, secrets);
	return new NodeApiError(node, details(error, secrets), {
		itemIndex,
		message,
		// n8n may replace the message of a connection error with its own wording: keep ours here too.
		description: [
			error.kind === 'connection' && `${message}.`,
			gateway?.gatewayMessage && `Gateway said: ${scrub(gateway.gatewayMessage, secrets)}`,
			scrub(error.hint, secrets),
			gateway?.requestId && `Request id: ${gateway.requestId}`,
		]
			.filter(Boolean)
			.join(' '),
		...(typeof status === 'number' ? { httpCode: String(status) } : {}),
	});
}
