import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { describeValue, isJsonObject } from '../../shared/service';

/** An error in the node's input, naming the field (the router adds the item); thrown before sending. */
export function inputError(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	problem: string,
	description?: string,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `${field}: ${problem}`, {
		itemIndex,
		description,
	});
}

/** Reads one value of an item's field, or throws an error that names the field. */
export type ValueCheck<T> = (
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
) => T;

/** A wrong value as a message shows it: cut after 100 characters, so a runaway value cannot flood it. */
export function shown(value: unknown): string {
	const text = JSON.stringify(value) ?? String(value);
	return text.length <= 100 ? text : `${text.slice(0, 100)}… (${text.length} characters)`;
}

/** Where a value is read: the item, and the label every error of it names. */
export interface Reading {
	ctx: IExecuteFunctions;
	itemIndex: number;
	label: string;
}

/** Reads a list entry's part; its error names the kind of value, never the value (it may carry anything). */
export function withoutValue<T>({ ctx, itemIndex }: Reading, raw: unknown, read: () => T): T {
	try {
		return read();
	} catch (error) {
		const { message, description } = error as NodeOperationError;
		// Only after the field's name: "entry 1" stays itself when the value is 1.
		const text = String(message);
		const at = text.indexOf(': ') + 1;
		const hidden = text.slice(0, at) + text.slice(at).split(shown(raw)).join(describeValue(raw));
		throw new NodeOperationError(ctx.getNode(), hidden, {
			itemIndex,
			description: description ?? undefined,
		});
	}
}

/** The most entries one list field sends: a row with a runaway list is refused, not sent. */
export const MAX_ENTRIES = 1000;

/** A list field's value as a list: the form's `{ values: [...] }` unwrapped, an expression's list as given. */
export const entriesOf = (raw: unknown): unknown =>
	isJsonObject(raw) && Object.keys(raw).every((key) => key === 'values') ? (raw.values ?? []) : raw;

/** A list field's entries (the form's `{ values: [...] }`, or the list), each read at `Field › entry N`; an empty one is refused. */
export function readEntries<T>(
	at: Reading,
	raw: unknown,
	wording: { list: string; entry: string },
	read: (place: Reading, entry: IDataObject) => T,
): T[] {
	const { ctx, itemIndex, label: field } = at;
	const entries = entriesOf(raw);
	if (!Array.isArray(entries))
		throw inputError(ctx, itemIndex, field, `must be a list of ${wording.list}`);
	if (entries.length > MAX_ENTRIES) {
		const problem = `has ${entries.length} entries; at most ${MAX_ENTRIES} are sent in one request`;
		throw inputError(ctx, itemIndex, field, problem);
	}
	return entries.map((entry: unknown, position) => {
		const number = position + 1;
		if (!isJsonObject(entry))
			throw inputError(ctx, itemIndex, field, `entry ${number} ${wording.entry}`);
		const value = read({ ...at, label: `${field} › entry ${number}` }, entry as IDataObject);
		if (isJsonObject(value) && Object.keys(value).length === 0)
			throw inputError(ctx, itemIndex, field, `entry ${number} is empty`);
		return value;
	});
}

/** An unknown key (misspelt, `primary` for `isPrimary`, `__proto__`) is an error, never left out. */
export function refuseUnknownKeys(at: Reading, value: IDataObject, known: readonly string[]) {
	const unknown = Object.keys(value).find((key) => !known.includes(key));
	if (unknown !== undefined) {
		const problem = `${shown(unknown)} is not one of: ${known.join(', ')}`;
		throw inputError(at.ctx, at.itemIndex, at.label, problem);
	}
}
