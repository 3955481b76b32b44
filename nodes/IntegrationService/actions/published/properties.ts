import type { INodeProperties } from 'n8n-workflow';

import type { PublishedField, PublishedResource } from '../../../shared/catalogue/published';
import { fieldsFor } from '../../../shared/catalogue/published';
import { fieldGroup } from '../../helpers/fieldMapper';
import { fieldProperty } from '../generic/fields';

/**
 * A published field as the node's parameter (generic/fields.ts). A list of objects is a JSON array
 * for now: the mapper reads `values` collections only for Person's compound fields
 * (helpers/fieldMapper.ts), so its description names the objects' keys.
 */
export function publishedProperty(spec: PublishedField): INodeProperties {
	if (!spec.items) return fieldProperty(spec);
	const keys = spec.items.map((item) => item.name).join(', ');
	return fieldProperty({
		...spec,
		description: `${spec.description}, as a JSON array of objects with ${keys}`,
	});
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
	const fields = fieldsFor(resource, operation).map(publishedProperty);
	if (operation === 'update') return [fieldGroup('update', fields)];
	const optional = fields.filter((property) => !property.required);
	return [
		...fields.filter((property) => property.required),
		...(optional.length ? [fieldGroup('additional', optional)] : []),
	];
}
