import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { toAddresses } from './addresses';
import { toCommunicationsConsent } from './consent';
import { toContactValues } from './contactValues';
import { toEntitiesToSync } from './entitiesToSync';

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
