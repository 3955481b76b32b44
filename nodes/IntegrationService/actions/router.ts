import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ServiceRun } from '../transport';
import { newRun, redactRunError, startItem, stopRun } from '../transport';
import { boundForModel } from './output';
import { readRequestOptions, runsAsTool } from './request';
import { RESOURCE_MODULES } from './entity';
import { NODE_WIDE_PROPERTIES } from './settings';
import { argumentsBehind } from './toolArguments';

/** The own entry of `table` (a name such as "constructor" is none). */
const own = <T>(table: Record<string, T>, key: string): T | undefined =>
	Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;

/** The next step after an input error: nothing was sent. */
const INPUT_NEXT_STEP = 'Nothing was sent: correct the value the message names and call again.';

type ErrorFields = { message?: string; description?: string; context?: IDataObject };

/** The transport's next step, or, for an input error, which arguments to fix. */
function nextStepFor(ctx: IExecuteFunctions, error: ErrorFields, properties: INodeProperties[]) {
	const next = error.context?.nextStep;
	if (typeof next === 'string') return next;
	const keys = argumentsBehind(ctx.getNode(), properties, error.message ?? '');
	return keys.length === 0
		? INPUT_NEXT_STEP
		: `${INPUT_NEXT_STEP} The arguments behind that field: ${keys.join(', ')}.`;
}

/** The item's error, named and redacted (an input may be a pasted secret); a model's: no item, its next step. */
async function failed(
	ctx: IExecuteFunctions,
	failure: unknown,
	itemIndex: number,
	run: ServiceRun,
	toolProperties?: INodeProperties[],
): Promise<NodeApiError | NodeOperationError> {
	if (failure && typeof failure === 'object') {
		const tagged = failure as ErrorFields;
		const suffix = ` (item ${itemIndex})`;
		if (!toolProperties && typeof tagged.message === 'string' && !tagged.message.endsWith(suffix))
			tagged.message += suffix;
		if (tagged.context && typeof tagged.context === 'object') tagged.context.itemIndex = itemIndex;
		if (toolProperties) {
			tagged.description = nextStepFor(ctx, tagged, toolProperties);
			const forModel = tagged.context?.toolMessage;
			if (typeof forModel === 'string') tagged.message = forModel;
		}
	}
	const error =
		failure instanceof NodeApiError || failure instanceof NodeOperationError
			? failure
			: new NodeOperationError(ctx.getNode(), failure as Error, { itemIndex });
	await redactRunError(ctx, run, itemIndex, error);
	return error;
}

/**
 * Runs `task` for 0..count-1, at most `limit` at once, results in index order. After a failure no
 * task starts, and it is thrown once those in flight have settled: nothing lands after it.
 */
async function mapInOrder<T>(
	count: number,
	limit: number,
	task: (index: number) => Promise<T>,
	onFailure: () => void = () => undefined,
): Promise<T[]> {
	const results = new Array<T>(count);
	let next = 0;
	let failure: { error: unknown } | undefined;
	const worker = async () => {
		while (!failure && next < count) {
			const index = next++;
			try {
				results[index] = await task(index);
			} catch (error) {
				if (!failure) {
					failure = { error };
					onFailure();
				}
			}
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, count)) }, worker));
	if (failure) throw failure.error;
	return results;
}

/** Every input item yields its records or, with Continue On Fail, one error item, in input order. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const module = own(own(RESOURCE_MODULES, resource)?.operations ?? {}, operation);
	if (!module) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
		);
	}
	const toolProperties = runsAsTool(this)
		? [...module.description, ...NODE_WIDE_PROPERTIES]
		: undefined;
	let settings: ReturnType<typeof readRequestOptions>;
	try {
		settings = readRequestOptions(this);
	} catch (failure) {
		// Node-wide options are read for the first item (an expression sees that item).
		const error = await failed(this, failure, 0, newRun(), toolProperties);
		if (!this.continueOnFail()) throw error;
		// A wrong node-wide option fails every item alike (n8n would pass the input through as a success).
		return [
			items.map((_, itemIndex) => ({
				json: { error: error.message, details: { itemIndex } },
				pairedItem: { item: itemIndex },
			})),
		];
	}
	const run = newRun(settings.settings, toolProperties !== undefined);
	const continueOnFail = this.continueOnFail();

	const perItem = await mapInOrder(
		items.length,
		settings.concurrency,
		async (itemIndex) => {
			try {
				// The item's Max Time counts from when its operation starts, not while it waits for a turn.
				const found = await module.execute.call(this, itemIndex, startItem(run));
				const records = toolProperties ? boundForModel(found) : found;
				return records.map((json) => ({ json, pairedItem: { item: itemIndex } }));
			} catch (failure) {
				const error = await failed(this, failure, itemIndex, run, toolProperties);
				if (!continueOnFail) throw error;
				const details: IDataObject = { itemIndex };
				if ('httpCode' in error && error.httpCode) details.httpCode = error.httpCode;
				if (error.description) details.description = error.description;
				// Only `error`, `message` and `details` keys: n8n then routes the item to the error output under
				// "Continue (using error output)" and keeps all of it (an item carrying `.error` is cut to its message).
				return [{ json: { error: error.message, details }, pairedItem: { item: itemIndex } }];
			}
		},
		() => stopRun(run, 'another item failed and the node stops'),
	);
	return [perItem.flat()];
}
