import type { INodeProperties } from 'n8n-workflow';

import type { PublishedResource } from '../../../shared/catalogue/published';
import { fieldsFor } from '../../../shared/catalogue/published';
import { fieldGroup } from '../../helpers/fieldMapper';
import { fieldProperties } from '../generic/fields';

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
	resource: Pick<PublishedResource, 'fields' | 'jsonBody'>,
	operation: 'create' | 'update',
): INodeProperties[] {
	if (resource.jsonBody) return [JSON_BODY];
	const fields = fieldsFor(resource, operation);
	if (operation === 'update') {
		// Update Fields in the order of their labels (a document's required fields come first on create).
		const byLabel = [...fields].sort((a, b) => a.label.localeCompare(b.label, 'en'));
		return [fieldGroup('update', fieldProperties(byLabel))];
	}
	// A required list's companion stays beside it, outside Additional Fields.
	const optional = fieldProperties(fields.filter((field) => !field.required));
	return [
		...fieldProperties(fields.filter((field) => field.required)),
		...(optional.length ? [fieldGroup('additional', optional)] : []),
	];
}
