import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { FieldSpec } from '../../../shared/catalogue';
import type { Reading } from '../validation';
import { inputError, readEntries, refuseUnknownKeys, withoutValue } from '../validation';
import type { Fields, Kind } from './kind';
import { compoundValue, named } from './kind';

/** A list of objects whose keys are published (`items`), each part read by its own kind. */

/** An entry as its button names it: "Recipient" for Add Recipient. */
const entryName = (spec: FieldSpec) => (spec.placeholder ?? 'Add Entry').replace(/^Add /, '');
export const entryWord = (spec: FieldSpec) => entryName(spec).toLowerCase();

export function objectListProperty(spec: FieldSpec, parts: INodeProperties[]): INodeProperties {
	return {
		...named(spec),
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: spec.placeholder ?? 'Add Entry',
		default: {},
		description: spec.description,
		options: [{ displayName: entryName(spec), name: 'values', values: parts }],
		...(spec.required ? { required: true } : {}),
	};
}

/** `name (text, required), email (text)`: the parts of one entry, each with its kind. */
export const partsInWords = (parts: readonly FieldSpec[], fields: Fields, separator = ', ') =>
	parts
		.map((part) => `${part.name} (${fields.words(part)}${part.required ? ', required' : ''})`)
		.join(separator);

/** A text part of a fixed list's entry (its kind builds the property). */
export const textPart = (label: string, name: string, placeholder?: string, description?: string) =>
	({ label, name, type: 'string', placeholder, description }) as FieldSpec;

const isEmptyJson = (value: unknown) =>
	typeof value === 'object' && value !== null && Object.keys(value).length === 0;

/** One entry: unknown keys refused; a part's error never echoes its value. */
export function readEntry(
	place: Reading,
	entry: IDataObject,
	parts: readonly FieldSpec[],
	fields: Fields,
): IDataObject {
	const { ctx, itemIndex } = place;
	const names = parts.map((part) => part.name);
	refuseUnknownKeys(place, entry, names);
	const object: IDataObject = {};
	for (const part of parts) {
		const label = `${place.label} › ${part.label}`;
		const raw = entry[part.name];
		const value = withoutValue(place, raw, () =>
			fields.readPart({ ctx, itemIndex, label }, part, raw),
		);
		// n8n fills a JSON part's default ({} or []) into every entry: empty is not set.
		if (value !== undefined && !isEmptyJson(value)) {
			object[part.name] = value as IDataObject[keyof IDataObject];
		} else if (part.required) throw inputError(ctx, itemIndex, label, 'is required but empty');
	}
	return object;
}

export const objectList: Kind = {
	property: (spec, fields) => objectListProperty(spec, (spec.items ?? []).map(fields.part)),
	read: (at, spec, raw, fields) =>
		compoundValue(at, spec, raw, entryWord(spec), (given) =>
			readEntries(at, given, { list: 'entries', entry: 'must be an object' }, (place, entry) =>
				readEntry(place, entry, spec.items ?? [], fields),
			),
		),
	words: (spec, fields) => `list of objects with ${partsInWords(spec.items ?? [], fields)}`,
	list: true,
};
