import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { ApplicationError } from 'n8n-workflow';

import { CONNECTION_RESOURCES } from '../../shared/catalogue';
import { describeValue } from '../../shared/service';
import {
	inputError,
	optionalText,
	toBoolean,
	toNumber,
	toWholeNumber,
} from '../helpers/validation';
import type { Connection, RequestSettings } from '../transport';

/**
 * Per-node and per-item override of X-Service-Credential-Id: one n8n credential serves many end
 * users' connections (decisions.md). Shown for every resource the catalogue puts on a host that takes it.
 */
export const credentialIdOverride: INodeProperties = {
	// Not "Credential ID": next to n8n's credential picker and the Credential resource that would mean three things.
	displayName: 'Connection ID',
	name: 'credentialId',
	type: 'string',
	default: '',
	placeholder: 'e.g. {{ $json.credentialId }}',
	description:
		"Which connected system this call reads or writes: the service's credential ID, sent in a request header. Leave empty to use the Default Credential ID of the n8n credential; use an expression to pick one per item.",
	displayOptions: {
		show: { resource: [...CONNECTION_RESOURCES] },
	},
};

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

/** The external application a connection is for (Credential › Create, Authorization Link › Create). */
export const appKeyProperty: INodeProperties = {
	displayName: 'App Key',
	name: 'appKey',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. my-crm-app',
	description:
		'Key of the external application to connect, as registered with the Integration Service',
};

/** The plan a connection gets (Credential › Create, Authorization Link › Create). */
export const planProperty: INodeProperties = {
	displayName: 'Plan',
	name: 'plan',
	type: 'string',
	default: '',
	placeholder: 'e.g. premium',
	description: 'Plan to attach to the connection, as named by the Integration Service',
};

const MEBIBYTE = 1024 * 1024;

/**
 * Retry, deadline, size, pacing and concurrency settings, shared by every operation. The defaults are
 * the transport's DEFAULT_SETTINGS (a unit test holds them equal; n8n's lint wants literals here).
 */
export const requestOptions: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Concurrency',
			name: 'concurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 50 },
			default: 16,
			description:
				'How many items to send at once. Output keeps the input order. A rate limit (429) pauses all of them.',
		},
		{
			displayName: 'Initial Retry Delay (Ms)',
			name: 'initialRetryDelay',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 60000 },
			default: 1000,
			description:
				'First wait before a retry when the service gives no Retry-After; each further retry waits about twice as long. A 409 (data not ready yet) waits at least 30 times this.',
		},
		{
			displayName: 'Max Attempts',
			name: 'maxAttempts',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 20 },
			default: 5,
			description:
				'How many times to send a request at most. 429 and 409 are retried for every method; server errors, timeouts and dropped connections for GET and PUT, and for POST only when it never reached the service.',
		},
		{
			displayName: 'Max Requests Per Second',
			name: 'maxRequestsPerSecond',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 1000 },
			default: 50,
			description:
				'The most requests the service receives in any one second, shared by every run in this n8n process that uses the same credential and Connection ID (each queue-mode worker keeps its own); 0 for no cap. A request counts from its start until a second after its answer, so a slow service gets fewer. The service typically allows about 50 per second per tenant.',
		},
		{
			displayName: 'Max Response Size (MB)',
			name: 'maxResponseSize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 512 },
			default: 16,
			description:
				'Largest answer to read, counted after decompression. A larger answer fails the request instead of filling memory.',
		},
		{
			displayName: 'Max Time per Item (Seconds)',
			name: 'maxTimePerItem',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 3600 },
			default: 0,
			description:
				"The most time one item's operation may take: every attempt, wait and page together. No wait goes past it, no attempt starts after it, and each attempt's Timeout is cut to the time left; a create cut off by it may have been processed and is never sent again.",
			hint: '0 chooses: 45 s when an AI agent or MCP client calls the node as a tool (below the 60 s such a caller waits), no bound in a workflow. Set it where someone waits for the answer.',
		},
		{
			displayName: 'Max Total Retry Wait (Seconds)',
			name: 'maxTotalWait',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 3600 },
			default: 60,
			description: 'Stop retrying a request once its waits would add up to more than this',
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 600 },
			default: 30,
			description:
				'Deadline for one attempt: the whole answer, headers and body, must arrive within it',
		},
	],
};

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

/** Each option's label, default and bounds, read from the UI definition above: written once. */
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

/** Return All and Limit of the operations that read a list page by page. */
export const returnAllProperty: INodeProperties = {
	displayName: 'Return All',
	name: 'returnAll',
	type: 'boolean',
	default: false,
	description: 'Whether to return all results or only up to a given limit',
};

export const limitProperty: INodeProperties = {
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 50,
	description: 'Max number of results to return',
	displayOptions: { show: { returnAll: [false] } },
};

/** Page at a Time: one batch of up to Limit records as one item, with the cursor of the next batch. */
export const pageAtATimeProperty: INodeProperties = {
	displayName: 'Page at a Time',
	name: 'pageAtATime',
	type: 'boolean',
	default: false,
	description:
		'Whether to return one batch of up to Limit records as a single item, with the cursor of the next batch, to read a list of any size in a loop',
	hint: 'Output: one item with the records, count, nextCursor and done. Pass nextCursor back as Cursor until done is true; run each batch in a sub-workflow to keep memory flat (see the example workflow).',
	displayOptions: { show: { returnAll: [false] } },
};

export const cursorProperty: INodeProperties = {
	displayName: 'Cursor',
	name: 'cursor',
	type: 'string',
	default: '',
	placeholder: 'e.g. {{ $json.nextCursor }}',
	description:
		'Where the batch starts: the nextCursor of the previous batch. Empty starts at the beginning of the list.',
	displayOptions: { show: { returnAll: [false], pageAtATime: [true] } },
};

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

/** Query parameters that paging sets itself; a user value would break it. */
export const PAGING_PARAMETERS = ['limit', 'offset', 'next'];

/** Extra query parameters of a request, as name and value pairs. */
export const queryParametersProperty: INodeProperties = {
	displayName: 'Query Parameters',
	name: 'queryParameters',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Query Parameter',
	default: {},
	description:
		'Query parameters sent with the request, each name and value passed through unchanged; each name may appear once',
	options: [
		{
			displayName: 'Parameter',
			name: 'parameters',
			values: [
				{
					displayName: 'Name',
					name: 'name',
					type: 'string',
					default: '',
					placeholder: 'e.g. stage',
					description: 'Name of the query parameter',
				},
				{
					displayName: 'Value',
					name: 'value',
					type: 'string',
					default: '',
					placeholder: 'e.g. Lead',
					description: 'Value of the query parameter, sent as text',
				},
			],
		},
	],
};

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
