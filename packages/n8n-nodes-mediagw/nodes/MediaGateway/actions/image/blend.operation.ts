/** Blend: several images from the item's binary data, a task id out. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import {
	BOT_TYPES,
	blend,
	blendOptionsSchema,
	buildBlendRequest,
	DIMENSIONS,
	parseBlendResponse,
} from '@mediagw/core/protocol';
import { binaryPropertyNames, readImage } from '../../helpers/binary';
import { labelsOf, pickSet, toJson } from '../../helpers/output';
import { configFromCredentials } from '../../helpers/settings';
import { sendRequest } from '../../transport';
import { credentialLabels, runOptions } from '../common.descriptions';
import type { OperationContext } from '../operation';

/** `MAIN_JOURNEY` -> `Main Journey`. */
const optionsOf = (values: readonly string[]) =>
	values.map((value) => ({
		name: value
			.toLowerCase()
			.split('_')
			.map((word) => word.charAt(0).toUpperCase() + word.slice(1))
			.join(' '),
		value,
	}));

const properties: INodeProperties[] = [
	{
		displayName: 'Images',
		name: 'images',
		type: 'options',
		options: [
			{ name: 'From Listed Binary Fields', value: 'list' },
			{ name: 'All Binary Fields of the Item', value: 'all' },
		],
		default: 'list',
		description: 'Which binary data of the item to blend',
	},
	{
		displayName: 'Input Binary Fields',
		name: 'binaryPropertyNames',
		type: 'string',
		default: 'data',
		required: true,
		displayOptions: { show: { images: ['list'] } },
		placeholder: 'image1, image2',
		hint: 'Comma-separated names of the input binary fields holding the images, in blend order',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Bot Type',
				name: 'botType',
				type: 'options',
				options: optionsOf(BOT_TYPES),
				default: 'MAIN_JOURNEY',
				description: 'Which generation journey blends the images',
			},
			{
				displayName: 'Dimensions',
				name: 'dimensions',
				type: 'options',
				options: optionsOf(DIMENSIONS),
				default: 'SQUARE',
				description: 'Shape of the blended image',
			},
			{
				displayName: 'Notify Hook',
				name: 'notifyHook',
				type: 'string',
				default: '',
				placeholder: 'https://n8n.example.com/webhook/…',
				description:
					'Address the gateway notifies about the task, such as the Production URL of a Media Gateway Trigger',
			},
			{
				displayName: 'State',
				name: 'state',
				type: 'string',
				default: '',
				description: 'Your own value, passed along with the task',
			},
			...runOptions,
		],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['image'], operation: ['blend'] } }, properties);

export const labels = labelsOf(properties, { ...credentialLabels, [blend.IMAGES_FIELD]: 'Input Binary Fields' });

const FIELDS = Object.keys(blendOptionsSchema.shape);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	{ credentials, secrets, retry }: OperationContext,
): Promise<INodeExecutionData> {
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const fromList = this.getNodeParameter('images', itemIndex, 'list') === 'list';
	const list = fromList ? (this.getNodeParameter('binaryPropertyNames', itemIndex) as string) : undefined;
	const images = [];
	for (const name of binaryPropertyNames.call(this, itemIndex, list)) images.push(await readImage.call(this, itemIndex, name));

	const config = configFromCredentials(credentials);
	const request = buildBlendRequest(config, { ...pickSet(options, FIELDS), [blend.IMAGES_FIELD]: images });
	const raw = await sendRequest.call(this, request, retry);
	const result = parseBlendResponse(raw, { secrets, acceptedCodes: config.acceptedBlendCodes });
	return { json: toJson({ ...result, warnings: request.warnings }) };
}
