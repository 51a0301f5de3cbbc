/**
 * The node's resource and operation pickers and every operation's parameters, generated from the
 * core's registry: a new operation in the core is a new operation here, with its parameters.
 */
import type { INodeProperties } from 'n8n-workflow';
import { type AnyOperation, camelCase, type FieldSpec, type Operations, titleCase } from '@mediagw/core/protocol';
import { fileParameters, imageParameters, isMainField, parameterOf, sentence } from './parameters';
import { runOptions } from './run-options';
import { waitParameters } from './wait';

/** n8n's operation value of an operation (`image-to-video` -> `imageToVideo`). */
export const operationValue = (op: AnyOperation) => camelCase(op.name);

/** Resources are the media kinds the operations make, in the order they first appear. */
export function resourcesOf(operations: Operations): string[] {
	return [...new Set(operations.map((op) => op.kind))];
}

const byDisplayName = (a: INodeProperties, b: INodeProperties) => a.displayName.localeCompare(b.displayName);

/** One operation's parameters (shown only when it is picked). */
function operationProperties(op: AnyOperation): INodeProperties[] {
	const fields = Object.entries(op.fields) as [string, FieldSpec][];
	const main = fields.filter(([, spec]) => isMainField(spec)).map(([name, spec]) => parameterOf(name, spec, true));
	const optional = fields.filter(([, spec]) => !isMainField(spec)).map(([name, spec]) => parameterOf(name, spec, false));
	const properties: INodeProperties[] = [
		...imageParameters(op),
		...main,
		...fileParameters(op),
		...waitParameters(op),
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [...optional, ...runOptions].sort(byDisplayName),
		},
	];
	const show = { resource: [op.kind], operation: [operationValue(op)] };
	return properties.map((property) => ({
		...property,
		displayOptions: { ...property.displayOptions, show: { ...show, ...property.displayOptions?.show } },
	}));
}

/**
 * The line under the node's name on the canvas: the picked operation's title ("Text to Video"),
 * not n8n's usual raw values ("textToVideo: video"), which read poorly.
 */
export function subtitleOf(operations: Operations): string {
	const titles = Object.fromEntries(operations.map((op) => [operationValue(op), op.title]));
	return `={{ ${JSON.stringify(titles)}[$parameter["operation"]] ?? $parameter["operation"] }}`;
}

/** Every property of the node: the resource picker, an operation picker per resource, every operation's parameters. */
export function nodeProperties(operations: Operations): INodeProperties[] {
	const resources = resourcesOf(operations);
	const firstResource = resources[0] ?? '';
	const pickers: INodeProperties[] = resources.map((resource) => {
		const ops = operations.filter((op) => op.kind === resource);
		return {
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: ops.map((op) => ({
				name: op.title,
				value: operationValue(op),
				action: sentence(op.summary),
				description: sentence(op.description.split('. ')[0] ?? op.summary),
			})),
			default: operationValue(ops[0] as AnyOperation),
		};
	});
	return [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: resources.map((resource) => ({ name: titleCase(resource), value: resource })),
			default: firstResource,
		},
		...pickers,
		...operations.flatMap(operationProperties),
	];
}
