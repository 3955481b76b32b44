import type { INodeProperties } from 'n8n-workflow';
import { ApplicationError } from 'n8n-workflow';

import type { FieldSpec, ResourceSpec } from '../../../shared/catalogue';
import { resourceSpec, searchable } from '../../../shared/catalogue';
import { shown } from './kind';

/**
 * A reference to another record as version 2 offers it: a resource locator, "From List" (searched
 * by actions/listSearch.ts, the method named after the resource referred to) or "By ID". Its labels
 * follow from that resource's nouns; the value read is the ID in both modes (`locatorValue`).
 */

/** The node's list search method for a resource's records (methods.listSearch). */
export const searchMethodOf = (resource: ResourceSpec) =>
	`search${resource.value[0].toUpperCase()}${resource.value.slice(1)}`;

/** The searchable resource a field refers to: the catalogue's word for it must name one. */
export function referredResource(value: string): ResourceSpec {
	const resource = resourceSpec(value);
	if (!resource || !searchable(resource))
		throw new ApplicationError(`The catalogue refers to ${value}, which has no list to search`);
	return resource;
}

const nounOf = (resource: ResourceSpec) => resource.noun?.one ?? resource.label.toLowerCase();

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
				placeholder: `Select a ${nounOf(target)}...`,
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
	const target = referredResource(spec.refersTo as string);
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
	const isLocator =
		raw !== null && typeof raw === 'object' && !Array.isArray(raw) && 'value' in raw;
	return isLocator && ('__rl' in raw || 'mode' in raw) ? (raw as { value: unknown }).value : raw;
}

/**
 * The ID (or IDs) a reference parameter holds, in either version: version 1's text, an expression's
 * value, version 2's locator, or its list of locators (their IDs, in order).
 */
export function locatorValue(raw: unknown): unknown {
	if (raw !== null && typeof raw === 'object' && !Array.isArray(raw) && ENTRIES in raw) {
		const entries = (raw as Record<string, unknown>)[ENTRIES];
		if (Array.isArray(entries))
			return entries.map((entry: unknown) =>
				oneValue(entry && typeof entry === 'object' ? (entry as { id?: unknown }).id : entry),
			);
	}
	return oneValue(raw);
}
