import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	describeValue,
	hasControlCharacter,
	isJsonObject,
	jsonObjectOf,
	jsonOf,
} from '../../shared/service';

import { lossyNumberAt, lossyProblem } from '../../shared/jsonNumbers';

/**
 * An error in the node's input: it names the field (the router adds the item), and is thrown before
 * anything is sent, so a bad item never reaches the service.
 */
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

/**
 * A text value as it goes on the wire, never made up: text as given; a finite number or a boolean as
 * its text (a phone number or postal code from a spreadsheet column); anything else is an error that
 * names the field. No object, list, null or NaN ever becomes "[object Object]", "a,b", "null" or "NaN".
 */
function textOf(ctx: IExecuteFunctions, itemIndex: number, field: string, value: unknown): string {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' && lossyNumberAt(value) !== undefined)
		throw inputError(ctx, itemIndex, field, lossyProblem(''));
	if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)))
		return String(value);
	if (typeof value === 'number')
		throw inputError(ctx, itemIndex, field, `must be text, got ${String(value)}`);
	if (value === null) throw inputError(ctx, itemIndex, field, 'must be text, not null');
	if (typeof value === 'object')
		throw inputError(ctx, itemIndex, field, 'must be text, not an object or a list');
	throw inputError(ctx, itemIndex, field, `must be text, got a ${typeof value}`);
}

/**
 * A wrong value as a message shows it: its JSON, cut after 100 characters with its length, so a huge
 * value (a model's runaway output) names itself without flooding the message and the model's context.
 */
export function shown(value: unknown): string {
	const text = JSON.stringify(value) ?? String(value);
	return text.length <= 100 ? text : `${text.slice(0, 100)}… (${text.length} characters)`;
}

/**
 * Reads a part of a list entry whose error names the part and the kind of value, never the value: a
 * list often comes whole from another system (an input row, a model) and may carry anything.
 */
export function withoutValue<T>(
	ctx: IExecuteFunctions,
	itemIndex: number,
	raw: unknown,
	read: () => T,
): T {
	try {
		return read();
	} catch (error) {
		const { message, description } = error as NodeOperationError;
		const hidden = String(message).split(shown(raw)).join(describeValue(raw));
		throw new NodeOperationError(ctx.getNode(), hidden, {
			itemIndex,
			description: description ?? undefined,
		});
	}
}

const isBlank = (value: unknown) =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** A required text value: present, not blank. */
export function requireText(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
): string {
	if (isBlank(value)) throw inputError(ctx, itemIndex, field, 'is required but empty');
	return textOf(ctx, itemIndex, field, value);
}

/** An optional text value: blank or null means "not set" (left out of the body); an object or a list is an error. */
export function optionalText(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	return textOf(ctx, itemIndex, field, value);
}

/** An ID that becomes one path segment: required and header-safe (the transport refuses "." and ".."). */
export function requireId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
): string {
	// A number past 2^53 (or with a fraction) has lost digits, or was never an ID: refused, never rounded.
	if (typeof value === 'number' && !Number.isSafeInteger(value))
		throw inputError(
			ctx,
			itemIndex,
			field,
			`must be text or a whole number up to 9007199254740991, got ${String(value)}: a larger number has lost digits; give the ID as text, as the service wrote it`,
		);
	const id = requireText(ctx, itemIndex, field, value).trim();
	if (hasControlCharacter(id)) {
		throw inputError(ctx, itemIndex, field, 'contains a line break or another control character');
	}
	return id;
}

/** A boolean parameter that may arrive as "true"/"false" text from an expression. */
export function toBoolean(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
): boolean {
	if (typeof value === 'boolean') return value;
	if (value === 'true') return true;
	if (value === 'false') return false;
	throw inputError(ctx, itemIndex, field, `must be true or false, got ${shown(value)}`);
}

type JsonShape = 'object' | 'arrayOfObjects';

/**
 * A JSON parameter whose contents the specification does not show: accepted as text or as an object
 * from an expression, and checked for its shape before anything is sent.
 */
export function parseJsonParameter(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
	shape: 'object',
): IDataObject;
export function parseJsonParameter(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
	shape: 'arrayOfObjects',
): IDataObject[];
export function parseJsonParameter(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
	shape: JsonShape,
): IDataObject | IDataObject[] {
	if (shape === 'object') {
		const parsed = jsonObjectOf(value);
		if ('problem' in parsed) throw inputError(ctx, itemIndex, field, parsed.problem);
		const lossy = lossyNumberAt(parsed.object);
		if (lossy !== undefined) throw inputError(ctx, itemIndex, field, lossyProblem(lossy));
		return parsed.object as IDataObject;
	}
	let list = value;
	if (typeof value === 'string') {
		const read = jsonOf(value);
		if ('problem' in read) throw inputError(ctx, itemIndex, field, read.problem);
		list = read.value;
	}
	if (!Array.isArray(list) || !list.every(isJsonObject)) {
		throw inputError(
			ctx,
			itemIndex,
			field,
			`must be a JSON list of objects like [{"key": "value"}], got ${describeValue(list)}`,
		);
	}
	const lossy = lossyNumberAt(list);
	if (lossy !== undefined) throw inputError(ctx, itemIndex, field, lossyProblem(lossy));
	return list as IDataObject[];
}

/**
 * A list of strings, from a multi-value string parameter or from an expression giving a list or comma
 * text. A list's entries are sent as given (" padded " stays padded); comma text is a list written
 * out, so the blanks around each comma-separated piece are dropped ("vip, navy"); a blank entry is
 * not set (decisions.md, "Where blanks are dropped").
 */
export function toStringList(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
): string[] {
	const list = typeof value === 'string' ? value.split(',').map((piece) => piece.trim()) : value;
	if (!Array.isArray(list)) {
		throw inputError(
			ctx,
			itemIndex,
			field,
			`must be a list of text values, got ${describeValue(value)}`,
		);
	}
	// Each entry is text itself: a null entry (a NULL column) never becomes the text "null".
	return list
		.map((entry, position) => textOf(ctx, itemIndex, `${field} › entry ${position + 1}`, entry))
		.filter((entry) => entry.trim() !== '');
}

/**
 * An object whose keys the service knows, each sent as given: an unknown key (a misspelt column,
 * `primary` for `isPrimary`, `__proto__`) is an error naming it, never silently left out.
 */
export function refuseUnknownKeys(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: IDataObject,
	known: readonly string[],
): void {
	const unknown = Object.keys(value).find((key) => !known.includes(key));
	if (unknown !== undefined) {
		// Cut as a value is (`shown`): a runaway key must not flood the message or a model's context.
		throw inputError(ctx, itemIndex, field, `${shown(unknown)} is not one of: ${known.join(', ')}`);
	}
}

/** The most entries one list field sends: a row with a runaway list is refused, not sent. */
export const MAX_ENTRIES = 1000;

/**
 * The entries of a repeatable fixed collection (emails, phones, addresses): the form gives
 * `{ values: [...] }`, an expression or an input field gives the list itself. Each entry must be an
 * object; an object that is not the form's `{ values }` (one entry without its list) is refused.
 */
export function toEntries(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	raw: unknown,
	wording: { list: string; entry: string },
): IDataObject[] {
	const formShape = isJsonObject(raw) && Object.keys(raw).every((key) => key === 'values');
	const entries = formShape ? ((raw as IDataObject).values ?? []) : raw;
	if (!Array.isArray(entries))
		throw inputError(ctx, itemIndex, field, `must be a list of ${wording.list}`);
	if (entries.length > MAX_ENTRIES) {
		throw inputError(
			ctx,
			itemIndex,
			field,
			`has ${entries.length} entries; at most ${MAX_ENTRIES} are sent in one request`,
		);
	}
	entries.forEach((entry, position) => {
		if (!isJsonObject(entry))
			throw inputError(ctx, itemIndex, field, `entry ${position + 1} ${wording.entry}`);
	});
	return entries as IDataObject[];
}
