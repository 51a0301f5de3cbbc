/**
 * n8n parameters from the core's field declarations: one helper for every field of every
 * operation (display name, type, bounds, options, description), so the UI cannot drift from
 * what the core validates.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { type AnyOperation, DEFAULT_ROUTES, type FieldSpec, labelOf, ruleOf, titleCase } from '@mediagw/core/protocol';

/** n8n writes descriptions as sentences, and renders them as HTML (angle brackets encoded). */
export const sentence = (text: string) =>
	(text.charAt(0).toUpperCase() + text.slice(1)).replace(/</g, '&lt;').replace(/>/g, '&gt;');

function describeField(spec: FieldSpec): string {
	const rule = ruleOf(spec);
	const shown = spec.kind === 'text' && !spec.format ? '' : ` (${rule})`;
	return sentence(`${spec.description}${shown}`);
}

/** One field as an n8n parameter (inside or outside a collection). */
export function parameterOf(name: string, spec: FieldSpec, topLevel: boolean): INodeProperties {
	const base = {
		displayName: labelOf(name, spec),
		name,
		description: describeField(spec),
		...(topLevel && spec.required ? { required: true } : {}),
	};
	switch (spec.kind) {
		case 'number':
		case 'integer':
			return {
				...base,
				type: 'number',
				typeOptions: {
					...(spec.min === undefined ? {} : { minValue: spec.min }),
					...(spec.max === undefined ? {} : { maxValue: spec.max }),
					numberPrecision: spec.kind === 'integer' ? 0 : 2,
				},
				default: typeof spec.suggested === 'number' ? spec.suggested : (spec.min ?? 0),
			};
		case 'choice':
			return {
				...base,
				type: 'options',
				options: spec.choices.map((value): INodePropertyOptions => ({ name: titleCase(value), value })),
				default: typeof spec.suggested === 'string' ? spec.suggested : spec.choices[0],
			};
		case 'segment':
			return { ...base, type: 'string', default: DEFAULT_ROUTES[spec.setting] };
		default:
			return {
				...base,
				type: 'string',
				...(spec.kind === 'text' && spec.long ? { typeOptions: { rows: 4 } } : {}),
				...(spec.example ? { placeholder: spec.example } : {}),
				default: typeof spec.suggested === 'string' ? spec.suggested : '',
			};
	}
}

/** Main fields (required ones, and long texts such as prompts) sit on the node; the rest go into Options. */
export function isMainField(spec: FieldSpec): boolean {
	return spec.required === true || (spec.kind === 'text' && spec.long === true);
}

/** The parameters that name the item's binary fields holding the operation's images. */
export function imageParameters(op: AnyOperation): INodeProperties[] {
	const images = op.images;
	if (!images) return [];
	if (!images.many) {
		return [
			{
				displayName: 'Input Binary Field',
				name: 'binaryPropertyName',
				type: 'string',
				default: 'data',
				required: true,
				hint: sentence(`The name of the input binary field holding ${images.description}`),
			},
		];
	}
	return [
		{
			displayName: 'Images',
			name: 'images',
			type: 'options',
			options: [
				{ name: 'From Listed Binary Fields', value: 'list' },
				{ name: 'All Binary Fields of the Item', value: 'all' },
			],
			default: 'list',
			description: 'Which binary data of the item to send',
		},
		{
			displayName: 'Input Binary Fields',
			name: 'binaryPropertyNames',
			type: 'string',
			default: 'data',
			required: true,
			displayOptions: { show: { images: ['list'] } },
			placeholder: 'image1, image2',
			hint: sentence(`Comma-separated names of the input binary fields holding ${images.description}`),
		},
	];
}

/** For operations whose result points at a file: download it into the output item's binary data. */
export function fileParameters(op: AnyOperation): INodeProperties[] {
	if (!op.file) return [];
	const kind = titleCase(op.kind);
	return [
		{
			displayName: `Download ${kind}`,
			name: 'download',
			type: 'boolean',
			default: true,
			description: `Whether to download the finished ${op.kind} into the binary data of the output item`,
		},
		{
			displayName: 'Put Output File in Field',
			name: 'outputPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			displayOptions: { show: { download: [true] } },
			hint: `The name of the output binary field to put the ${op.kind} in`,
		},
	];
}
