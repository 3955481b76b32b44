import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { ApplicationError } from 'n8n-workflow';

import { inputError, toNumber } from '../helpers/validation';

/** How hard to try, read once per node run from the Request Options. */
export interface RequestSettings {
	maxAttempts: number;
	maxTotalWaitMs: number;
	initialDelayMs: number;
	timeoutMs: number;
	/** Largest answer read, counted after decompression. */
	maxResponseBytes: number;
	/** Requests started per second by the whole run; 0 means no cap. */
	maxRequestsPerSecond: number;
}

/** Retry, deadline, size, pacing and concurrency settings, shared by every operation. */
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
				'How many times to send a request at most. 429 and 409 are retried for every operation; server errors, timeouts and dropped connections only for Get Many and Update, never for Create.',
		},
		{
			displayName: 'Max Requests Per Second',
			name: 'maxRequestsPerSecond',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 1000 },
			default: 50,
			description:
				'Cap on requests started per second by this node run, across all items and pages; 0 for no cap. The service typically allows about 50 per second.',
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
			description: 'Deadline for one attempt: the whole answer, headers and body, must arrive within it',
		},
	],
};

const MEBIBYTE = 1024 * 1024;

type OptionName =
	| 'concurrency'
	| 'maxRequestsPerSecond'
	| 'maxAttempts'
	| 'maxTotalWait'
	| 'initialRetryDelay'
	| 'timeout'
	| 'maxResponseSize';

const WHOLE_NUMBERS: ReadonlySet<OptionName> = new Set(['concurrency', 'maxAttempts']);

/** Each option's label, default and bounds, read from the UI definition above: written once. */
function option(name: OptionName): { label: string; default: number; min: number; max: number } {
	const property = (requestOptions.options as INodeProperties[]).find((candidate) => candidate.name === name);
	if (!property) throw new ApplicationError(`Unknown request option ${name}`);
	return {
		label: property.displayName.replace(/ \(.*\)$/, ''),
		default: property.default as number,
		min: property.typeOptions?.minValue as number,
		max: property.typeOptions?.maxValue as number,
	};
}

/** The settings a run uses when no option is set (the trigger uses them too). */
export const DEFAULT_SETTINGS: Readonly<RequestSettings> = settingsFrom((name) => option(name).default);

function settingsFrom(value: (name: OptionName) => number): RequestSettings {
	return {
		maxAttempts: value('maxAttempts'),
		maxTotalWaitMs: value('maxTotalWait') * 1000,
		initialDelayMs: value('initialRetryDelay'),
		timeoutMs: value('timeout') * 1000,
		maxResponseBytes: Math.round(value('maxResponseSize') * MEBIBYTE),
		maxRequestsPerSecond: value('maxRequestsPerSecond'),
	};
}

/**
 * Reads the Request Options once per run (for the first item: an expression sees that item), checking
 * each against its bounds, so an expression cannot ask for 100,000 attempts or a 5,000-wide burst.
 */
export function readRequestOptions(ctx: IExecuteFunctions): { settings: RequestSettings; concurrency: number } {
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
	return { settings: settingsFrom(value), concurrency: value('concurrency') };
}
