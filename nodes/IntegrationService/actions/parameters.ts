import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { PathSegment } from '../../shared/service';
import { describeValue } from '../../shared/service';
import { toWholeNumber } from '../helpers/numbers';
import { inputError, optionalText, requireId, toBoolean } from '../helpers/validation';
import type { Connection } from '../transport';
import { credentialIdOverride } from './common.descriptions';

/** What reads the shared properties of common.descriptions.ts for an item (Request Options: requestOptions.ts). */

/** The item's connection: its Connection ID, or the credential's default when that is empty. */
export function connectionOf(ctx: IExecuteFunctions, itemIndex: number): Connection {
	const credentialId = optionalText(
		ctx,
		itemIndex,
		'Connection ID',
		ctx.getNodeParameter(credentialIdOverride.name, itemIndex, ''),
	);
	// The one place a Connection is made from a parameter (transport/request.ts brands the type).
	return (credentialId === undefined ? {} : { credentialId }) as Connection;
}

/**
 * A record's ID as read: the path segment's text (`id`, its label named in every error) and the value
 * as the item gave it (`value`): a connected system's numeric ID 11 is sent as "11" and output as 11.
 */
export interface RecordId extends Exclude<PathSegment, string> {
	value: string | number;
}

/** A record's ID for an item: the one reader of every ID parameter (Person ID, Borrower ID, a catalogue entity's). */
export function readId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	id: { label: string; name: string },
): RecordId {
	const given: unknown = ctx.getNodeParameter(id.name, itemIndex, '');
	const text = requireId(ctx, itemIndex, id.label, given);
	return { id: text, field: id.label, value: typeof given === 'number' ? given : text };
}

/** What a list operation reads for an item: Return All or Limit, Simplify, and Page at a Time. */
export function readListParameters(
	ctx: IExecuteFunctions,
	itemIndex: number,
): { limit: number | undefined; simplify: boolean; batch: ReturnType<typeof readBatch> } {
	const returnAll = toBoolean(
		ctx,
		itemIndex,
		'Return All',
		ctx.getNodeParameter('returnAll', itemIndex, false),
	);
	const limit = returnAll
		? undefined
		: toWholeNumber(ctx, itemIndex, 'Limit', ctx.getNodeParameter('limit', itemIndex, 50), 1);
	const simplify = toBoolean(
		ctx,
		itemIndex,
		'Simplify',
		ctx.getNodeParameter('simplify', itemIndex, true),
	);
	return { limit, simplify, batch: readBatch(ctx, itemIndex) };
}

/** Page at a Time for an item: the cursor to start from, or undefined when it is off. */
export function readBatch(
	ctx: IExecuteFunctions,
	itemIndex: number,
): { cursor: string; field: string } | undefined {
	const returnAll = toBoolean(
		ctx,
		itemIndex,
		'Return All',
		ctx.getNodeParameter('returnAll', itemIndex, false),
	);
	const on =
		!returnAll &&
		toBoolean(
			ctx,
			itemIndex,
			'Page at a Time',
			ctx.getNodeParameter('pageAtATime', itemIndex, false),
		);
	if (!on) return undefined;
	const cursor = ctx.getNodeParameter('cursor', itemIndex, '');
	if (cursor !== undefined && cursor !== null && typeof cursor !== 'string') {
		throw inputError(
			ctx,
			itemIndex,
			'Cursor',
			`must be the text of a nextCursor, got ${describeValue(cursor)}`,
		);
	}
	return { cursor: (cursor ?? '').trim(), field: 'Cursor' };
}

/** The one output item of a batch: its records, and where the next batch starts ('' and done at the end). */
export function batchItem(
	key: string,
	records: IDataObject[],
	nextCursor: string | undefined,
): IDataObject {
	return {
		[key]: records,
		count: records.length,
		nextCursor: nextCursor ?? '',
		done: nextCursor === undefined,
	};
}

/**
 * Names n8n's HTTP client (axios, whose merge skips them against prototype pollution) leaves out of
 * the URL without a word: sent exactly or refused, a name is never dropped.
 */
const UNSENDABLE_NAMES = ['__proto__', 'constructor', 'prototype'];

/** Query Parameters as a query object; names are checked (reserved ones refused) before anything is sent. */
export function readQueryParameters(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	raw: unknown,
	reserved: readonly string[] = [],
): IDataObject {
	if (raw === undefined || raw === null || raw === '') return {};
	const entries = Array.isArray(raw) ? raw : ((raw as IDataObject).parameters ?? []);
	if (!Array.isArray(entries)) {
		throw inputError(ctx, itemIndex, field, 'must be a list of {name, value} entries');
	}
	const query: IDataObject = {};
	entries.forEach((entry: unknown, position) => {
		const where = `${field} › entry ${position + 1}`;
		if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
			throw inputError(ctx, itemIndex, where, 'must be an object with a name and a value');
		}
		const { name: rawName, value } = entry as IDataObject;
		const name = typeof rawName === 'string' ? rawName.trim() : '';
		if (name === '') {
			throw inputError(ctx, itemIndex, where, 'has no name');
		}
		if (UNSENDABLE_NAMES.includes(name)) {
			throw inputError(
				ctx,
				itemIndex,
				`${field} › ${name}`,
				`cannot be sent: n8n's HTTP client leaves ${UNSENDABLE_NAMES.join(', ')} out of the URL`,
			);
		}
		if (reserved.includes(name.toLowerCase())) {
			throw inputError(
				ctx,
				itemIndex,
				`${field} › ${name}`,
				`cannot be set here: paging sets ${reserved.join(', ')} itself (use Return All, Limit and Page Size instead)`,
			);
		}
		if (Object.prototype.hasOwnProperty.call(query, name)) {
			throw inputError(ctx, itemIndex, `${field} › ${name}`, 'appears more than once');
		}
		if (value === undefined || value === null || value === '') {
			throw inputError(ctx, itemIndex, `${field} › ${name}`, 'has no value');
		}
		// Text as the form's: an object, a list or a number that lost digits is refused, never sent as made-up text.
		query[name] = optionalText(ctx, itemIndex, `${field} › ${name}`, value) as string;
	});
	return query;
}

/** A record without its bulky `original` (the data as held in the external system); the object itself when it has none (no copy needed). */
export function withoutOriginal(person: IDataObject): IDataObject {
	if (!Object.prototype.hasOwnProperty.call(person, 'original')) return person;
	const result: IDataObject = {};
	for (const key of Object.keys(person)) {
		if (key !== 'original') result[key] = person[key];
	}
	return result;
}
