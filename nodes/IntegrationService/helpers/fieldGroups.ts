import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { COMPOUND_READERS } from './fields';
import { isCompanion } from './fields/companion';

/** The field group of an update: an update that changes nothing is refused. */
export const UPDATE_FIELDS = 'updateFields';

/**
 * A group of fields the user adds one by one: Additional Fields of a create (each optional) or Update
 * Fields of an update (at least one, since an update that changes nothing is refused).
 */
export function fieldGroup(
	kind: 'additional' | 'update',
	options: INodeProperties[],
	description?: string,
): INodeProperties {
	const update = kind === 'update';
	return {
		displayName: update ? 'Update Fields' : 'Additional Fields',
		name: update ? UPDATE_FIELDS : 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: update
			? 'The fields to change; add at least one. Fields you do not add are not sent and stay as they are.'
			: description,
		options,
	};
}

/** A collection of further fields (Additional Fields, Update Fields), as opposed to a compound field. */
export function isFieldGroup(property: INodeProperties): boolean {
	return property.type === 'collection' && !(property.name in COMPOUND_READERS);
}

/** Wire fields per operation: worked out once, not again for every input item. */
const fieldsOf = new WeakMap<INodeProperties[], INodeProperties[]>();

/** Every wire field the properties declare, field groups opened up. */
export function bodyFields(properties: INodeProperties[]): INodeProperties[] {
	let fields = fieldsOf.get(properties);
	if (!fields) {
		// A list's "(JSON)" companion is no wire field: an input item gives the list under its own name.
		fields = properties
			.flatMap((property) =>
				isFieldGroup(property) ? ((property.options ?? []) as INodeProperties[]) : [property],
			)
			.filter((property) => !isCompanion(property));
		fieldsOf.set(properties, fields);
	}
	return fields;
}

/**
 * A body that would write nothing: no field, or only empty objects and lists (a Bio left at its `{}`),
 * so a Create would make an empty record and an Update change nothing.
 */
export function writesNothing(body: IDataObject): boolean {
	return Object.values(body).every(
		(value) => value !== null && typeof value === 'object' && Object.keys(value).length === 0,
	);
}
