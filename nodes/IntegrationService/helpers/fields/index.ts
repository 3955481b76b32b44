import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { toAddresses } from './addresses';
import { toCommunicationsConsent } from './consent';
import { toContactValues } from './contactValues';
import { toEntitiesToSync } from './entitiesToSync';
import { conditionGroupsReader, GROUP_PART } from './conditionGroups';
import { objectListReader, entryParts, type PartReader } from './objectList';

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

/**
 * The reader of a compound field: Person's by name (a collection or repeatable collection), else a
 * list of objects declared by its parts (objectList.ts), with a Group part a list of lists
 * (conditionGroups.ts). `read` reads one part of an entry as its own field.
 */
export function compoundReader(
	property: INodeProperties,
	read: PartReader,
): CompoundReader | undefined {
	if (property.type !== 'fixedCollection' && property.type !== 'collection') return undefined;
	const named = COMPOUND_READERS[property.name];
	if (named || property.type !== 'fixedCollection') return named;
	if (!entryParts(property).some((part) => part.name === GROUP_PART.name)) {
		return objectListReader(property, read);
	}
	let reader = groupReaders.get(property);
	if (!reader) {
		reader = conditionGroupsReader(property, read);
		groupReaders.set(property, reader);
	}
	return reader;
}
