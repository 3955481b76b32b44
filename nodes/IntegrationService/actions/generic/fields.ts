import type { INodeProperties } from 'n8n-workflow';

import type { FieldSpec } from '../../../shared/catalogue';
import {
	addressesProperty,
	communicationsConsentProperty,
	contactValuesProperty,
} from '../../helpers/compoundFields';
import { optionalNumberProperty } from '../../helpers/fieldValue';
import { companionProperty } from '../../helpers/fields/companion';
import { GROUP_PART } from '../../helpers/fields/conditionGroups';
import { objectListProperty } from '../../helpers/fields/objectList';

/** The plain part of a field's parameter; the compound kinds come from their builders. */
function plainProperty(field: FieldSpec): INodeProperties {
	const base = { displayName: field.label, name: field.name };
	const shown = {
		...(field.required ? { required: true } : {}),
		...(field.placeholder !== undefined ? { placeholder: field.placeholder } : {}),
		description: field.description,
	};
	switch (field.type) {
		case 'number': {
			// Optional: text that holds a number, so a model can leave it empty (helpers/fieldValue.ts).
			const min = field.min !== undefined ? { typeOptions: { minValue: field.min } } : {};
			return field.required
				? { ...base, type: 'number', ...min, default: 0, ...shown }
				: optionalNumberProperty({ ...base, ...min, ...shown });
		}
		case 'boolean':
			return { ...base, type: 'boolean', default: field.initial ?? false, ...shown };
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
		default: {
			// string and dateTime: text sent as written. A write-only value is masked in the editor too.
			const masked = field.writeOnly ? { typeOptions: { password: true } } : {};
			return { ...base, type: 'string', ...masked, default: '', ...shown };
		}
	}
}

/**
 * A part of a list entry. An optional number part starts empty: n8n fills every part's default into
 * each entry it adds, and a 0 nobody typed must not be sent.
 */
function partProperty(part: FieldSpec): INodeProperties {
	const property = plainProperty(part);
	return part.type === 'number' && !part.required ? { ...property, default: null } : property;
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
		case 'objectList':
		case 'conditionGroups': {
			const parts = (field.items ?? []).map(partProperty);
			const group = field.type === 'conditionGroups' ? [GROUP_PART] : [];
			return { ...objectListProperty(field, [...group, ...parts]), ...overrides };
		}
		default:
			return plainProperty(field);
	}
}

/** The list kinds, each followed by its "<Label> (JSON)" companion (helpers/fields/companion.ts). */
const LISTS: ReadonlySet<string> = new Set([
	'objectList',
	'conditionGroups',
	'emails',
	'phones',
	'addresses',
]);

/** A field's parameters: its own, and a list's companion that takes the whole list as one value. */
export function fieldPropertyWithCompanion(field: FieldSpec): INodeProperties[] {
	const property = fieldProperty(field);
	return LISTS.has(field.type) ? [property, companionProperty(property)] : [property];
}

/** Every field of an entity as parameters, in the catalogue's order. */
export function fieldProperties(fields: readonly FieldSpec[] = []): INodeProperties[] {
	return fields.flatMap(fieldPropertyWithCompanion);
}
