/** Core results -> n8n item JSON. */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import type { FieldLabels } from './errors';

/** Plain JSON: dates become ISO strings, undefined fields disappear (big ids are already digit strings). */
export function toJson(value: object): IDataObject {
	return JSON.parse(JSON.stringify(value)) as IDataObject;
}

/** Parameter name -> display name, through collections: the labels named in error messages. */
export function labelsOf(properties: readonly INodeProperties[], extra: FieldLabels = {}): FieldLabels {
	const labels: Record<string, string> = {};
	const visit = (list: readonly unknown[]) => {
		for (const entry of list) {
			const property = entry as Partial<INodeProperties>;
			if (typeof property.name !== 'string' || typeof property.displayName !== 'string') continue;
			labels[property.name] = property.displayName;
			if (property.type === 'collection' && Array.isArray(property.options)) visit(property.options);
		}
	};
	visit(properties);
	return { ...labels, ...extra };
}
