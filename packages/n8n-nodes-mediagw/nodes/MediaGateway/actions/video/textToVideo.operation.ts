/** Text to Video: a prompt in, a finished video reference out, optionally downloaded as binary. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import {
	buildTextToVideoRequest,
	parseTextToVideoResponse,
	TEXT_TO_VIDEO_RANGES,
	textToVideoRequestSchema,
} from '@mediagw/core/protocol';
import { downloadVideo } from '../../helpers/download';
import { labelsOf, pickSet, toJson } from '../../helpers/output';
import { configFromCredentials } from '../../helpers/settings';
import { sendRequest } from '../../transport';
import { credentialLabels, negativePromptOption, runOptions } from '../common.descriptions';
import type { OperationContext } from '../operation';

/** UI bounds of the numeric fields come from the core, where the schema uses them too. */
export { TEXT_TO_VIDEO_RANGES };

const properties: INodeProperties[] = [
	{
		displayName: 'Prompt',
		name: 'prompt',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		description: 'A detailed description of the video; short prompts give poor results',
	},
	{
		displayName: 'Download Video',
		name: 'download',
		type: 'boolean',
		default: true,
		description: 'Whether to download the finished video into the binary data of the output item',
	},
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		displayOptions: { show: { download: [true] } },
		hint: 'The name of the output binary field to put the video in',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Guidance Scale',
				name: 'guidance_scale',
				type: 'number',
				typeOptions: {
					minValue: TEXT_TO_VIDEO_RANGES.guidance_scale.min,
					maxValue: TEXT_TO_VIDEO_RANGES.guidance_scale.max,
					numberPrecision: 1,
				},
				default: 5,
				description: 'How closely the video follows the prompt',
			},
			{
				displayName: 'Model',
				name: 'model',
				type: 'string',
				default: 'text_video_model',
				description: 'The model path segment: the request goes to &lt;service prefix&gt;/submit/&lt;model&gt;',
			},
			negativePromptOption,
			{
				displayName: 'Number of Inference Steps',
				name: 'num_inference_steps',
				type: 'number',
				typeOptions: {
					minValue: TEXT_TO_VIDEO_RANGES.num_inference_steps.min,
					maxValue: TEXT_TO_VIDEO_RANGES.num_inference_steps.max,
				},
				default: 25,
				description: 'More steps: more detail, slower',
			},
			{
				displayName: 'Seed',
				name: 'seed',
				type: 'string',
				default: '',
				placeholder: '196619188014358660',
				description: 'Random seed as digits (kept exactly, even beyond 2^53)',
			},
			...runOptions,
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['video'], operation: ['textToVideo'] } },
	properties,
);

export const labels = labelsOf(properties, credentialLabels);

const FIELDS = Object.keys(textToVideoRequestSchema.shape);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	{ credentials, secrets, retry }: OperationContext,
): Promise<INodeExecutionData> {
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const fields = pickSet({ ...options, prompt: this.getNodeParameter('prompt', itemIndex) }, FIELDS);
	const model = typeof options.model === 'string' && options.model.trim() ? options.model.trim() : undefined;

	const request = buildTextToVideoRequest(configFromCredentials(credentials), {
		...(fields as { prompt: string }),
		model,
	});
	const result = parseTextToVideoResponse(await sendRequest.call(this, request, retry), { secrets });
	const item: INodeExecutionData = { json: toJson({ ...result, warnings: request.warnings }) };

	if (this.getNodeParameter('download', itemIndex, true) as boolean) {
		const property = this.getNodeParameter('binaryPropertyName', itemIndex) as string;
		item.binary = {
			[property]: await downloadVideo.call(this, result.videoUrl, result.contentType, itemIndex, result.fileSize),
		};
	}
	return item;
}
