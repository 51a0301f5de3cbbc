import type { INodeProperties } from 'n8n-workflow';
import type { Operation } from '../operation';
import * as blend from './blend.operation';

export const operations: Record<string, Operation> = { blend };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['image'] } },
		options: [
			{
				name: 'Blend',
				value: 'blend',
				action: 'Blend images into one',
				description: 'Submit several images to be blended into one image',
			},
		],
		default: 'blend',
	},
	...blend.description,
];
