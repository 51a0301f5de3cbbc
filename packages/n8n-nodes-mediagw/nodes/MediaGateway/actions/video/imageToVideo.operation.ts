/** Image to Video (1.6 standard, 10 s): one image from the item's binary data, a created task out. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import {
	buildImageToVideoRequest,
	imageToVideo,
	imageToVideoFieldsSchema,
	parseImageToVideoResponse,
} from '@mediagw/core/protocol';
import { readImage } from '../../helpers/binary';
import { labelsOf, pickSet, toJson } from '../../helpers/output';
import { configFromCredentials } from '../../helpers/settings';
import { sendRequest } from '../../transport';
import { credentialLabels, negativePromptOption, runOptions } from '../common.descriptions';
import type { OperationContext } from '../operation';

const properties: INodeProperties[] = [
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the input binary field holding the image (PNG, JPEG, WebP, ...)',
	},
	{
		displayName: 'Prompt',
		name: 'prompt',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		description: 'What should happen in the video',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Aspect Ratio',
				name: 'aspect_ratio',
				type: 'string',
				default: '',
				placeholder: '16:9',
				description: 'Width:height, such as 1:1 or 16:9 (the gateway does not list its allowed values)',
			},
			{
				displayName: 'CFG',
				name: 'cfg',
				type: 'number',
				typeOptions: { numberPrecision: 2 },
				default: 0.5,
				description: 'Guidance strength: how closely the video follows the prompt (0.5 is typical)',
			},
			negativePromptOption,
			...runOptions,
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['video'], operation: ['imageToVideo'] } },
	properties,
);

export const labels = labelsOf(properties, {
	...credentialLabels,
	[imageToVideo.IMAGE_FIELD]: 'Input Binary Field',
});

const FIELDS = Object.keys(imageToVideoFieldsSchema.shape);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	{ credentials, secrets, retry }: OperationContext,
): Promise<INodeExecutionData> {
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const fields = pickSet({ ...options, prompt: this.getNodeParameter('prompt', itemIndex, '') }, FIELDS);
	const property = this.getNodeParameter('binaryPropertyName', itemIndex) as string;
	const image = await readImage.call(this, itemIndex, property);

	const request = buildImageToVideoRequest(configFromCredentials(credentials), {
		...fields,
		[imageToVideo.IMAGE_FIELD]: image,
	});
	const result = parseImageToVideoResponse(await sendRequest.call(this, request, retry), { secrets });
	return { json: toJson({ ...result, warnings: request.warnings }) };
}
