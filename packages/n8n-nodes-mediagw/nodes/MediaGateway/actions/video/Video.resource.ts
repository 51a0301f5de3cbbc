import type { INodeProperties } from 'n8n-workflow';
import type { Operation } from '../operation';
import * as imageToVideo from './imageToVideo.operation';
import * as textToVideo from './textToVideo.operation';

export const operations: Record<string, Operation> = { imageToVideo, textToVideo };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['video'] } },
		options: [
			{
				name: 'Image to Video',
				value: 'imageToVideo',
				action: 'Create a video from an image',
				description: 'Start a 10-second video (1.6 standard) from an image and a prompt',
			},
			{
				name: 'Text to Video',
				value: 'textToVideo',
				action: 'Create a video from a text prompt',
				description: 'Generate a video from a prompt and get its URL (and the file)',
			},
		],
		default: 'textToVideo',
	},
	...imageToVideo.description,
	...textToVideo.description,
];
