import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { PublishedField, PublishedResource } from '../../../shared/catalogue/published';
import { fieldsFor } from '../../../shared/catalogue/published';
import { fieldGroup } from '../../helpers/fieldMapper';

/**
 * A published field as the node's parameter, named as its wire field so the field mapper reads it.
 * A list of objects is a JSON array for now: the mapper reads `values` collections only for
 * Person's compound fields (helpers/fieldMapper.ts), and `items` describe the objects' keys.
 */
export function fieldProperty(spec: PublishedField): INodeProperties {
	const base = {
		displayName: spec.label,
		name: spec.name,
		description: spec.items
			? `${spec.description}, as a JSON array of objects with ${spec.items.map((item) => item.name).join(', ')}`
			: spec.description,
		...(spec.required ? { required: true } : {}),
		...(spec.placeholder !== undefined ? { placeholder: spec.placeholder } : {}),
	};
	switch (spec.type) {
		case 'number':
			return { ...base, type: 'number', default: 0 };
		case 'boolean':
			return { ...base, type: 'boolean', default: false };
		case 'stringList':
			return { ...base, type: 'string', typeOptions: { multipleValues: true }, default: [] };
		case 'json':
			return { ...base, type: 'json', default: '{}' };
		case 'jsonArray':
			return { ...base, type: 'json', default: '[]' };
		default:
			// string and dateTime: text sent as written.
			return { ...base, type: 'string', default: '' };
	}
}

/** The one JSON object a Create or Update sends where the source publishes no fields. */
export const JSON_BODY: INodeProperties = {
	displayName: 'Body (JSON)',
	name: 'jsonBody',
	type: 'json',
	required: true,
	default: '{}',
	description:
		'The fields to send, as one JSON object: the service publishes no field list for this entity, so every key is sent as written',
};

/**
 * The body parameters of a Create (required fields first, the rest in Additional Fields) or an
 * Update (every field in Update Fields), as the catalogue lists them.
 */
export function bodyProperties(
	resource: PublishedResource,
	operation: 'create' | 'update',
): INodeProperties[] {
	if (resource.jsonBody) return [JSON_BODY];
	const fields = fieldsFor(resource, operation).map(fieldProperty);
	if (operation === 'update') return [fieldGroup('update', fields)];
	const optional = fields.filter((property) => !property.required);
	return [
		...fields.filter((property) => property.required),
		...(optional.length ? [fieldGroup('additional', optional)] : []),
	];
}

/** The record's ID parameter, named `<resource>Id` as the catalogue gives it. */
export function idProperty(resource: PublishedResource, verb: string): INodeProperties {
	const one = resource.noun?.one ?? resource.label.toLowerCase();
	return {
		displayName: resource.id?.label ?? 'ID',
		name: resource.id?.name ?? 'id',
		type: 'string',
		required: true,
		default: '',
		placeholder: resource.id?.placeholder,
		description: `ID of the ${one} to ${verb}, as the Integration Service returns it in the ${one}'s "ID" field`,
	};
}

/** Properties shown for one operation of one resource. */
export function shownFor(
	resource: PublishedResource,
	operation: string,
	properties: INodeProperties[],
): INodeProperties[] {
	return updateDisplayOptions(
		{ show: { resource: [resource.value], operation: [operation] } },
		properties,
	);
}
