import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { ApplicationError } from 'n8n-workflow';

import { toNumber } from '../helpers/numbers';
import { inputError } from '../helpers/validation';
import type { RequestSettings } from '../transport';
import { requestOptions } from './common.descriptions';

/** The Request Options of a run: read once, for the first item, by the router. */

const MEBIBYTE = 1024 * 1024;

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
	let asTool = toolRuns.get(ctx);
	if (asTool === undefined) {
		const says = typeof ctx.isToolExecution === 'function' && ctx.isToolExecution();
		asTool = says || ctx.getNode().type.endsWith('Tool');
		toolRuns.set(ctx, asTool);
	}
	return asTool;
}

/** Asked once per context (a run's): n8n's getNode() copies the whole node on every call. */
const toolRuns = new WeakMap<IExecuteFunctions, boolean>();

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
