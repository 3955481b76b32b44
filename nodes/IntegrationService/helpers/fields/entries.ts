import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { toEntries } from '../validation';

/** Where an entry stands: its field's label, its number from 1, and its own label `Field › entry N`. */
export interface EntryPlace {
	field: string;
	number: number;
	label: string;
}

/** How one entry of a list field becomes its wire shape. */
type EntryReader = (
	ctx: IExecuteFunctions,
	itemIndex: number,
	entry: IDataObject,
	place: EntryPlace,
) => IDataObject;

/**
 * The reader of a list field (emails, phones, addresses): the fixed collection's entries or a list from
 * an expression, each entry an object read by `readEntry`.
 */
export function entriesReader(wording: { list: string; entry: string }, readEntry: EntryReader) {
	return (ctx: IExecuteFunctions, itemIndex: number, field: string, raw: unknown): IDataObject[] =>
		toEntries(ctx, itemIndex, field, raw, wording).map((entry, position) =>
			readEntry(ctx, itemIndex, entry, {
				field,
				number: position + 1,
				label: `${field} › entry ${position + 1}`,
			}),
		);
}
