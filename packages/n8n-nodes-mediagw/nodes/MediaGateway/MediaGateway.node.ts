import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { OPERATIONS } from '@mediagw/core/protocol';
import { pickOperation, router } from './actions/router';
import { resumeOnNotification } from './actions/wait';
import { noRemoteRegistration } from '../shared/hooks';
import { nodeProperties, subtitleOf } from './description/operations';

export class MediaGateway implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Media Gateway',
		name: 'mediaGateway',
		icon: { light: 'file:../../icons/mediagw.svg', dark: 'file:../../icons/mediagw.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: subtitleOf(OPERATIONS),
		description: 'Create videos from images or text, and blend images, through the media gateway',
		defaults: { name: 'Media Gateway' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'mediaGatewayApi', required: true }],
		// Wait for Result: the gateway's notification resumes the waiting execution (like the Wait node).
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				responseData: '',
				path: '',
				restartWebhook: true,
				isFullPath: true,
			},
		],
		// Every operation of the core's registry, with its parameters (description/operations.ts).
		properties: nodeProperties(OPERATIONS),
	};

	/** Nothing to register anywhere (see shared/hooks.ts). */
	webhookMethods = noRemoteRegistration;

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this, OPERATIONS);
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const op = pickOperation(this.getNode(), OPERATIONS, this.getNodeParameter('resource'), this.getNodeParameter('operation'));
		return await resumeOnNotification.call(this, op);
	}
}
