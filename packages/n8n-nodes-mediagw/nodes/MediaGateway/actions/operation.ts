/** What every operation file provides to the router. */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import type { RetryPolicy } from '@mediagw/core/protocol';
import type { FieldLabels } from '../helpers/errors';
import type { MediaGatewayCredentials } from '../helpers/settings';

export interface OperationContext {
	credentials: MediaGatewayCredentials;
	/** Scrubbed from any gateway text that reaches output or errors. */
	secrets: string[];
	retry: RetryPolicy;
}

export interface Operation {
	description: INodeProperties[];
	/** Wire field -> UI label, for error messages. */
	labels: FieldLabels;
	/** One item in, one item out (json + binary); the router adds pairedItem and error policy. */
	execute(this: IExecuteFunctions, itemIndex: number, context: OperationContext): Promise<INodeExecutionData>;
}
