/**
 * Picks the operation from the registry, runs the items with bounded concurrency, keeps their
 * order and pairing, and applies the error policy (continue on fail or stop) in one place.
 */
import type { IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { AnyOperation, Operations } from '@mediagw/core/protocol';
import { operationValue } from '../description/operations';
import { readRunSettings } from '../description/run-options';
import { forEachLimited } from '../helpers/concurrency';
import { toNodeError } from '../helpers/errors';
import { CREDENTIAL_NAME, type MediaGatewayCredentials } from '../helpers/settings';
import { executeItem, labelsFor } from './execute';
import { submitAndWait } from './wait';

function errorJson(error: unknown): INodeExecutionData['json'] {
	const found = error as { message?: unknown; description?: unknown; httpCode?: unknown };
	const json: INodeExecutionData['json'] = { error: String(found?.message ?? error) };
	if (typeof found?.description === 'string' && found.description) json.description = found.description;
	if (typeof found?.httpCode === 'string' && found.httpCode) json.httpCode = found.httpCode;
	return json;
}

/** The operation the node's resource and operation parameters pick. */
export function pickOperation(node: INode, operations: Operations, resource: unknown, name: unknown): AnyOperation {
	const op = operations.find((candidate) => candidate.kind === resource && operationValue(candidate) === name);
	if (!op) throw new NodeOperationError(node, `The operation "${String(name)}" of "${String(resource)}" is not known`);
	return op;
}

export async function router(this: IExecuteFunctions, operations: Operations): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const op = pickOperation(this.getNode(), operations, this.getNodeParameter('resource', 0), this.getNodeParameter('operation', 0));
	const credentials = await this.getCredentials<MediaGatewayCredentials>(CREDENTIAL_NAME);
	const secrets = [String(credentials.apiKey ?? '')];
	const { concurrency, retry } = readRunSettings(this);
	const labels = labelsFor(op);

	if (op.notifyField && this.getNodeParameter('waitForResult', 0, false)) {
		try {
			return await submitAndWait.call(this, op, { credentials, secrets, retry });
		} catch (error) {
			const nodeError = toNodeError(this.getNode(), error, 0, labels, secrets);
			if (!this.continueOnFail()) throw nodeError;
			return [items.map((_, item) => ({ json: errorJson(nodeError), pairedItem: { item } }))];
		}
	}

	const output: INodeExecutionData[] = new Array(items.length);
	await forEachLimited(items.length, concurrency, async (itemIndex) => {
		try {
			const item = await executeItem.call(this, op, itemIndex, { credentials, secrets, retry });
			output[itemIndex] = { ...item, pairedItem: { item: itemIndex } };
		} catch (error) {
			const nodeError = toNodeError(this.getNode(), error, itemIndex, labels, secrets);
			if (!this.continueOnFail()) throw nodeError;
			output[itemIndex] = { json: errorJson(nodeError), pairedItem: { item: itemIndex } };
		}
	});
	return [output];
}
