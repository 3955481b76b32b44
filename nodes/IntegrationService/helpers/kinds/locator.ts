import type { INodeProperties } from 'n8n-workflow';
import { ApplicationError } from 'n8n-workflow';

import type { FieldSpec, ResourceSpec } from '../../../shared/catalogue';
import { resourceSpec, searchable } from '../../../shared/catalogue';
import { isJsonObject } from '../../../shared/service';
import { shown } from './kind';

/** A reference to another record as version 2 offers it: "From List" or "By ID"; both give the ID. */

/** The node's list search method for a resource's records (methods.listSearch). */
export const searchMethodOf = (resource: ResourceSpec) =>
	`search${resource.value[0].toUpperCase()}${resource.value.slice(1)}`;

/** A locator of one record of `target`, with the parts of a property given (label, name, texts). */
export function locatorProperty(
	base: Pick<INodeProperties, 'displayName' | 'name' | 'description'> & { required?: boolean },
	target: ResourceSpec,
	placeholder = target.id?.placeholder,
): INodeProperties {
	return {
		...base,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: `Select a ${target.noun?.one ?? target.label.toLowerCase()}...`,
				typeOptions: { searchListMethod: searchMethodOf(target), searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				...(placeholder ? { placeholder } : {}),
			},
		],
	};
}

/** Where a list of references keeps its entries: `{ entries: [{ id: <locator> }] }`. */
const ENTRIES = 'entries';

/** A field that names another record (one, or a list of them) as version 2's locator. */
export function referenceProperty(spec: FieldSpec): INodeProperties {
	const target = resourceSpec(spec.refersTo as string);
	// The catalogue's word for the record referred to must name a searchable resource.
	if (!target || !searchable(target))
		throw new ApplicationError(
			`The catalogue refers to ${spec.refersTo}, which has no list to search`,
		);
	const { description, required } = shown(spec);
	const base = { displayName: spec.label, name: spec.name, description };
	if (spec.type !== 'stringList')
		return locatorProperty({ ...base, ...(required ? { required } : {}) }, target);
	const label = target.label;
	return {
		...base,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: spec.placeholder ?? `Add ${label}`,
		default: {},
		...(required ? { required } : {}),
		options: [
			{
				displayName: label,
				name: ENTRIES,
				values: [locatorProperty({ displayName: label, name: 'id', required: true }, target)],
			},
		],
	};
}

/** A locator's value as given: `{ __rl, mode, value }` gives its value; anything else is as it is. */
function oneValue(raw: unknown): unknown {
	const isLocator = isJsonObject(raw) && 'value' in raw && ('__rl' in raw || 'mode' in raw);
	return isLocator ? raw.value : raw;
}

/** The ID (or IDs, in order) a reference holds: version 1's text, an expression's value, or locators. */
export function locatorValue(raw: unknown): unknown {
	const entries = isJsonObject(raw) ? raw[ENTRIES] : undefined;
	if (!Array.isArray(entries)) return oneValue(raw);
	return entries.map((entry: unknown) => oneValue(isJsonObject(entry) ? entry.id : entry));
}
