import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { ApplicationError } from 'n8n-workflow';

import type { PathSegment } from '../../shared/service';
import { describeValue } from '../../shared/service';
import {
	inputError,
	optionalText,
	requireId,
	toBoolean,
	toNumber,
	toWholeNumber,
} from '../helpers/validation';
import type { Connection, RequestSettings } from '../transport';
import { credentialIdOverride, requestOptions } from './common.descriptions';

/** What reads the shared properties of common.descriptions.ts for an item (or, for Request Options, a run). */

const MEBIBYTE = 1024 * 1024;

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
 * A record's ID for an item, as the path segment that names its label in every error: the one
 * reader of every ID parameter (Person ID, Borrower ID, Webhook ID, a catalogue entity's).
 */
export function readId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	id: { label: string; name: string },
): PathSegment {
	const value = requireId(ctx, itemIndex, id.label, ctx.getNodeParameter(id.name, itemIndex, ''));
	return { id: value, field: id.label };
}

type OptionName =
	| 'concurrency'
	| 'maxRequestsPerSecond'
	| 'maxAttempts'
	| 'maxTimePerItem'
	| 'maxTotalWait'
	| 'initialRetryDelay'
	| 'timeout'
	| 'maxResponseSize';

const WHOLE_NUMBERS: ReadonlySet<OptionName> = new Set(['concurrency', 'maxAttempts']);

/** Each option's label, default and bounds, read from the UI definition (requestOptions): written once. */
function option(name: OptionName): { label: string; default: number; min: number; max: number } {
	const property = (requestOptions.options as INodeProperties[]).find(
		(candidate) => candidate.name === name,
	);
	if (!property) throw new ApplicationError(`Unknown request option ${name}`);
	return {
		label: property.displayName.replace(/ \(.*\)$/, ''),
		default: property.default as number,
		min: property.typeOptions?.minValue as number,
		max: property.typeOptions?.maxValue as number,
	};
}

/**
 * Max Time per Item when it is 0: an AI agent or MCP client that calls the node as a tool gives up on
 * it after a while (the MCP client's default request timeout is 60 s), and asks again; a request that
 * outlives it may create a record twice. In a workflow nobody waits on an item by default, and a Return
 * All of many records legitimately takes minutes: Max Attempts, Max Total Retry Wait and Timeout bound
 * each request there (decisions.md, Deadlines).
 */
export const TOOL_MAX_ITEM_MS = 45_000;

/**
 * Whether an AI agent or an MCP client calls the node as a tool. n8n 2.41 makes the tool variant a node
 * type whose name ends in "Tool"; the AI Agent runs it as an ordinary node (isToolExecution is false
 * there), the MCP Server Trigger through a context whose isToolExecution() is true.
 */
export function runsAsTool(ctx: IExecuteFunctions): boolean {
	const says = typeof ctx.isToolExecution === 'function' && ctx.isToolExecution();
	return says || ctx.getNode().type.endsWith('Tool');
}

function settingsFrom(value: (name: OptionName) => number, asTool: boolean): RequestSettings {
	const maxTimePerItem = value('maxTimePerItem');
	return {
		maxAttempts: value('maxAttempts'),
		maxTotalWaitMs: value('maxTotalWait') * 1000,
		initialDelayMs: value('initialRetryDelay'),
		timeoutMs: value('timeout') * 1000,
		maxResponseBytes: Math.round(value('maxResponseSize') * MEBIBYTE),
		maxRequestsPerSecond: value('maxRequestsPerSecond'),
		maxItemMs: maxTimePerItem > 0 ? maxTimePerItem * 1000 : asTool ? TOOL_MAX_ITEM_MS : 0,
	};
}

/**
 * Reads the Request Options once per run (for the first item: an expression sees that item), checking
 * each against its bounds, so an expression cannot ask for 100,000 attempts or a 5,000-wide burst.
 */
export function readRequestOptions(ctx: IExecuteFunctions): {
	settings: RequestSettings;
	concurrency: number;
} {
	const given = ctx.getNodeParameter('requestOptions', 0, {}) as IDataObject;
	const value = (name: OptionName): number => {
		const { label, default: fallback, min, max } = option(name);
		const raw = given[name];
		if (raw === undefined || raw === null || raw === '') return fallback;
		const field = `Request Options › ${label}`;
		const number = toNumber(ctx, 0, field, raw);
		if (WHOLE_NUMBERS.has(name) && !Number.isInteger(number)) {
			throw inputError(ctx, 0, field, `must be a whole number, got ${number}`);
		}
		if (number < min || number > max) {
			throw inputError(ctx, 0, field, `must be between ${min} and ${max}, got ${number}`);
		}
		return number;
	};
	return { settings: settingsFrom(value, runsAsTool(ctx)), concurrency: value('concurrency') };
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
		if (typeof value === 'object') {
			throw inputError(
				ctx,
				itemIndex,
				`${field} › ${name}`,
				'must be text, not an object or a list',
			);
		}
		query[name] = String(value);
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
