import type { INodeProperties } from 'n8n-workflow';

import type { FieldSpec } from '../../../shared/catalogue';
import {
	addressesProperty,
	communicationsConsentProperty,
	contactValuesProperty,
} from '../../helpers/compoundFields';
import { optionalNumberProperty } from '../../helpers/fieldValue';

/** The plain part of a field's parameter; the compound kinds come from their builders. */
function plainProperty(field: FieldSpec): INodeProperties {
	const base = { displayName: field.label, name: field.name };
	const shown = {
		...(field.required ? { required: true } : {}),
		...(field.placeholder !== undefined ? { placeholder: field.placeholder } : {}),
		description: field.description,
	};
	switch (field.type) {
		case 'number':
			// Optional: text that holds a number, so a model can leave it empty (helpers/fieldValue.ts).
			return field.required
				? { ...base, type: 'number', default: 0, ...shown }
				: optionalNumberProperty({ ...base, ...shown });
		case 'boolean':
			return { ...base, type: 'boolean', default: false, ...shown };
		case 'stringList':
			return {
				...base,
				type: 'string',
				typeOptions: { multipleValues: true },
				default: [],
				...shown,
			};
		case 'json':
			return { ...base, type: 'json', default: '{}', ...shown };
		case 'jsonArray':
			return { ...base, type: 'json', default: '[]', ...shown };
		default:
			// string and dateTime: text sent as written.
			return { ...base, type: 'string', default: '', ...shown };
	}
}

/** A catalogue field as the node's parameter (named as its wire field, so the mapper reads it). */
export function fieldProperty(field: FieldSpec): INodeProperties {
	const overrides = {
		description: field.description,
		...(field.required ? { required: true } : {}),
	};
	switch (field.type) {
		case 'emails':
		case 'phones':
			return contactValuesProperty(field.type, overrides);
		case 'addresses':
			return addressesProperty(overrides);
		case 'consent':
			return communicationsConsentProperty(overrides);
		default:
			return plainProperty(field);
	}
}

/** Every field of an entity as parameters, in the catalogue's order. */
export function fieldProperties(fields: readonly FieldSpec[] = []): INodeProperties[] {
	return fields.map(fieldProperty);
}
