import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import * as image from './actions/image/Image.resource';
import { router } from './actions/router';
import * as video from './actions/video/Video.resource';

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
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Video', value: 'video' },
					{ name: 'Image', value: 'image' },
				],
				default: 'video',
			},
			...video.description,
			...image.description,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
