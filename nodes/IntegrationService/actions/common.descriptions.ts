import type { INodeProperties } from 'n8n-workflow';

import { CONNECTION_RESOURCES } from '../../shared/catalogue';

/** The properties several operations show; request.ts and list.ts read them. */

/** Per-item X-Service-Credential-Id; not "Credential ID", which n8n's picker and a resource use. */
export const credentialIdOverride: INodeProperties = {
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

/** Whole: a whole number only; the label (as errors name it) is the display name without its unit. */
const bound = (
	displayName: string,
	[initial, min, max]: [number, number, number],
	description: string,
	extra: { whole?: true; hint?: string } = {},
) => ({ displayName, initial, min, max, description, ...extra });
export type Bound = ReturnType<typeof bound>;

/** Each Request Option's bounds; the defaults are DEFAULT_SETTINGS' (a unit test holds them equal). */
export const REQUEST_BOUNDS = {
	concurrency: bound(
		'Concurrency',
		[16, 1, 50],
		'How many items to send at once. Output keeps the input order. A rate limit (429) pauses all of them.',
		{ whole: true },
	),
	initialRetryDelay: bound(
		'Initial Retry Delay (Ms)',
		[1000, 0, 60000],
		'First wait before a retry when the service gives no Retry-After; each further retry waits about twice as long. A 409 (data not ready yet) waits at least 30 times this.',
	),
	maxAttempts: bound(
		'Max Attempts',
		[5, 1, 20],
		'How many times to send a request at most. 429 and 409 are retried for every method; server errors, timeouts and dropped connections for GET and PUT, and for POST, PATCH and DELETE only when they never reached the service.',
		{ whole: true },
	),
	maxRequestsPerSecond: bound(
		'Max Requests Per Second',
		[50, 0, 1000],
		'The most requests the service receives in any one second, shared by every run in this n8n process that uses the same credential and Connection ID (each queue-mode worker keeps its own); 0 for no cap. A request counts from its start until a second after its answer, so a slow service gets fewer. The service typically allows about 50 per second per tenant.',
	),
	maxResponseSize: bound(
		'Max Response Size (MB)',
		[16, 1, 512],
		'Largest answer to read, counted after decompression. A larger answer fails the request instead of filling memory.',
	),
	maxTimePerItem: bound(
		'Max Time per Item (Seconds)',
		[0, 0, 3600],
		"The most time one item's operation may take: every attempt, wait and page together. No wait goes past it, no attempt starts after it, and each attempt's Timeout is cut to the time left; a create cut off by it may have been processed and is never sent again.",
		{
			hint: '0 chooses: 45 s when an AI agent or MCP client calls the node as a tool (below the 60 s such a caller waits), no bound in a workflow. Set it where someone waits for the answer.',
		},
	),
	maxTotalWait: bound(
		'Max Total Retry Wait (Seconds)',
		[60, 0, 3600],
		'Stop retrying a request once its waits would add up to more than this',
	),
	timeout: bound(
		'Timeout (Seconds)',
		[30, 1, 600],
		'Deadline for one attempt: the whole answer, headers and body, must arrive within it',
	),
};

export const requestOptions: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: Object.entries(REQUEST_BOUNDS).map(([name, option]) => ({
		displayName: option.displayName,
		name,
		type: 'number' as const,
		typeOptions: { minValue: option.min, maxValue: option.max },
		default: option.initial,
		description: option.description,
		...(option.hint ? { hint: option.hint } : {}),
	})),
};

/** Get Many's paging; Custom API Call shows it for a GET. */
export const listProperties: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
	{
		displayName: 'Page at a Time',
		name: 'pageAtATime',
		type: 'boolean',
		default: false,
		description:
			'Whether to return one batch of up to Limit records as a single item, with the cursor of the next batch, to read a list of any size in a loop',
		hint: 'Output: one item with the records, count, nextCursor and done. Pass nextCursor back as Cursor until done is true; run each batch in a sub-workflow to keep memory flat (see the example workflow).',
		displayOptions: { show: { returnAll: [false] } },
	},
	{
		displayName: 'Cursor',
		name: 'cursor',
		type: 'string',
		default: '',
		placeholder: 'e.g. {{ $json.nextCursor }}',
		description:
			'Where the batch starts: the nextCursor of the previous batch. Empty starts at the beginning of the list.',
		displayOptions: { show: { returnAll: [false], pageAtATime: [true] } },
	},
];

/** Query parameters that paging sets itself; a user value would break it. */
export const PAGING_PARAMETERS = ['limit', 'offset', 'next'];

export const queryParametersProperty: INodeProperties = {
	displayName: 'Query Parameters',
	name: 'queryParameters',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Query Parameter',
	default: {},
	description:
		'Query parameters sent with the request, each value passed through unchanged and each name without blanks around it; each name may appear once',
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

/** The record operations whose output Output shapes (actions/output.ts reads it). */
export const OUTPUT_OPERATIONS = ['get', 'getAll', 'create', 'update', 'find', 'upsert'];

/** Also the changes trigger's. */
export const fieldsToReturn: INodeProperties = {
	displayName: 'Fields to Return',
	name: 'fields',
	type: 'string',
	default: '',
	placeholder: 'e.g. firstName, lastName, emails',
	description:
		'Top-level fields of each record to return, separated by commas; empty returns every field. A name the record does not have is left out.',
};

export const outputProperty: INodeProperties = {
	displayName: 'Output',
	name: 'output',
	type: 'collection',
	placeholder: 'Add Output Option',
	default: {},
	displayOptions: { show: { operation: OUTPUT_OPERATIONS } },
	options: [
		{
			...fieldsToReturn,
			hint: 'Keeps an AI agent\'s answers short: a person is about 1,000 characters, its "id, firstName, lastName" about 80',
		},
		{
			displayName: 'Form',
			name: 'form',
			type: 'options',
			options: [
				{
					name: 'Automatic',
					value: 'auto',
					description:
						'The full record in a workflow; without "original" when an AI agent calls the node as a tool',
				},
				{
					name: 'Compact',
					value: 'compact',
					description:
						'Without the bulky "original" record (the data as held in the external system)',
				},
				{
					name: 'Full',
					value: 'full',
					description: 'The record exactly as the service returns it',
				},
			],
			default: 'auto',
			description: 'Whether the record comes back with or without its bulky "original"',
			displayOptions: { show: { '/operation': ['get', 'create', 'update', 'find', 'upsert'] } },
		},
	],
};
