import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { OPERATIONS } from '@mediagw/core/protocol';
import { router } from './actions/router';
import { nodeProperties } from './description/operations';

export class MediaGateway implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Media Gateway',
		name: 'mediaGateway',
		icon: { light: 'file:../../icons/mediagw.svg', dark: 'file:../../icons/mediagw.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Create videos from images or text, and blend images, through the media gateway',
		defaults: { name: 'Media Gateway' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'mediaGatewayApi', required: true }],
		// Every operation of the core's registry, with its parameters (description/operations.ts).
		properties: nodeProperties(OPERATIONS),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this, OPERATIONS);
	}
}
