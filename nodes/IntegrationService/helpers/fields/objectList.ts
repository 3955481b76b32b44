import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { inputError, refuseUnknownKeys, withoutValue } from '../validation';
import { entriesReader } from './entries';

/**
 * A list of objects whose keys are published (an email's recipients, a smart list's columns): a
 * `values` collection like Person's emails, one entry per object, its parts the object's keys. Read
 * from the form (`{ values: [...] }`), an input item or one JSON value (a list), each entry checked as
 * its parts' own fields would be.
 */

/** How one part of an entry is read: the field mapper's reader of a single value, given by it. */
export type PartReader = (
	ctx: IExecuteFunctions,
	itemIndex: number,
	property: INodeProperties,
	label: string,
	raw: unknown,
) => unknown;

/** The repeatable collection of a list field; the button says `placeholder` (e.g. Add Recipient). */
export function objectListProperty(
	field: { name: string; label: string; description: string; placeholder?: string },
	parts: INodeProperties[],
): INodeProperties {
	const placeholder = field.placeholder ?? 'Add Entry';
	return {
		displayName: field.label,
		name: field.name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder,
		default: {},
		description: field.description,
		options: [{ displayName: placeholder.replace(/^Add /, ''), name: 'values', values: parts }],
	};
}

/** The parts of one entry, as the collection declares them. */
export function entryParts(property: INodeProperties): INodeProperties[] {
	const [entry] = (property.options ?? []) as Array<{ values?: INodeProperties[] }>;
	return entry?.values ?? [];
}

const isEmptyJson = (value: unknown) =>
	typeof value === 'object' && value !== null && Object.keys(value).length === 0;

/**
 * One part's value. Its error never echoes the value: a list often comes whole from another system
 * (an input row, a model) and may carry anything, a secret included; the error names the part and
 * the kind of value instead.
 */
function readPart(
	ctx: IExecuteFunctions,
	itemIndex: number,
	part: INodeProperties,
	label: string,
	raw: unknown,
	read: PartReader,
): unknown {
	return withoutValue(ctx, itemIndex, raw, () => read(ctx, itemIndex, part, label, raw));
}

/** Where an entry is read: the item, the entry's place and its parts with their reader. */
export interface EntryRead {
	ctx: IExecuteFunctions;
	itemIndex: number;
	place: { field: string; number: number; label: string };
	parts: { list: INodeProperties[]; read: PartReader };
}

/** One entry's wire object: each part read as its field, unknown keys and an empty entry refused. */
export function readEntry(entry: IDataObject, at: EntryRead): IDataObject {
	const { ctx, itemIndex, place, parts } = at;
	refuseUnknownKeys(
		ctx,
		itemIndex,
		place.label,
		entry,
		parts.list.map((part) => part.name),
	);
	const object: IDataObject = {};
	for (const part of parts.list) {
		const label = `${place.label} › ${part.displayName}`;
		const value = readPart(ctx, itemIndex, part, label, entry[part.name], parts.read);
		// n8n fills a JSON part's default ({} or []) into every entry: empty is not set.
		if (value !== undefined && !isEmptyJson(value)) {
			object[part.name] = value as IDataObject[keyof IDataObject];
		} else if (part.required) throw inputError(ctx, itemIndex, label, 'is required but empty');
	}
	if (Object.keys(object).length === 0) {
		throw inputError(ctx, itemIndex, place.field, `entry ${place.number} is empty`);
	}
	return object;
}

const readers = new WeakMap<INodeProperties, ReturnType<typeof entriesReader>>();

/** The reader of a list field, made once per property. */
export function objectListReader(property: INodeProperties, read: PartReader) {
	let reader = readers.get(property);
	if (!reader) {
		const list = entryParts(property);
		reader = entriesReader(
			{ list: 'entries', entry: 'must be an object' },
			(ctx, i, entry, place) =>
				readEntry(entry, { ctx, itemIndex: i, place, parts: { list, read } }),
		);
		readers.set(property, reader);
	}
	return reader;
}
