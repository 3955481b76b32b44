import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { parseJsonParameter } from '../validation';
import { addressesProperty, toAddresses } from './addresses';
import { toCommunicationsConsent } from './consent';
import { contactValuesProperty, toContactValues } from './contactValues';
import { toEntitiesToSync } from './entitiesToSync';
import { conditionGroupsReader, conditionParts } from './conditionGroups';
import { objectListReader, type PartReader } from './objectList';

/**
 * Compound fields: a fixed collection or a set of flags, each with its form and its reader (into its wire
 * shape) in its own module here.
 */

export type CompoundReader = (
	ctx: IExecuteFunctions,
	itemIndex: number,
	label: string,
	raw: unknown,
) => IDataObject | IDataObject[];

/** Every compound field, by its wire name: the one list of them (the description test reads it too). */
export const COMPOUND_READERS: Readonly<Record<string, CompoundReader>> = {
	emails: toContactValues,
	phones: toContactValues,
	addresses: toAddresses,
	entitiesToSync: toEntitiesToSync,
	communicationsConsent: toCommunicationsConsent,
};

export const COMPOUND_FIELDS: readonly string[] = Object.keys(COMPOUND_READERS);

const groupReaders = new WeakMap<INodeProperties, CompoundReader>();

/** The list kinds whose entries have their own reader (Person's and Borrower's), with their form. */
const ENTRY_LISTS: Readonly<Record<string, () => INodeProperties>> = {
	emails: () => contactValuesProperty('emails'),
	phones: () => contactValuesProperty('phones'),
	addresses: () => addressesProperty(),
};

/** The form of a list given as one JSON part whose entries have their own reader, for its description. */
export function entryListForm(property: INodeProperties): INodeProperties | undefined {
	return property.type === 'json' &&
		Object.prototype.hasOwnProperty.call(ENTRY_LISTS, property.name)
		? ENTRY_LISTS[property.name]()
		: undefined;
}

/**
 * Emails, phones or addresses as one JSON part of an entry (a Loan's Borrowers: an entry holds no
 * collection): the list read by the same reader as Borrower › Create's, after its JSON text is parsed.
 */
function listPartReader(property: INodeProperties): CompoundReader | undefined {
	if (!entryListForm(property)) return undefined;
	const read = COMPOUND_READERS[property.name];
	return (ctx, itemIndex, label, raw) =>
		read(
			ctx,
			itemIndex,
			label,
			typeof raw === 'string'
				? parseJsonParameter(ctx, itemIndex, label, raw, 'arrayOfObjects')
				: raw,
		);
}

/**
 * The reader of a compound field: Person's by name (a collection or repeatable collection), else a
 * list of objects declared by its parts (objectList.ts), with a Group part a list of lists
 * (conditionGroups.ts). `read` reads one part of an entry as its own field.
 */
export function compoundReader(
	property: INodeProperties,
	read: PartReader,
): CompoundReader | undefined {
	if (property.type === 'json') return listPartReader(property);
	if (property.type !== 'fixedCollection' && property.type !== 'collection') return undefined;
	const named = COMPOUND_READERS[property.name];
	if (named || property.type !== 'fixedCollection') return named;
	if (!conditionParts(property)) return objectListReader(property, read);
	let reader = groupReaders.get(property);
	if (!reader) {
		reader = conditionGroupsReader(property, read);
		groupReaders.set(property, reader);
	}
	return reader;
}
