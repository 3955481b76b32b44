import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { INPUT_NEXT_STEP, newRun, redactRunError, startItem, stopRun } from '../transport';
import { credentialIdOverride, outputProperty, requestOptions } from './common.descriptions';
import { boundForModel } from './output';
import { readRequestOptions, runsAsTool } from './request';
import { RESOURCE_MODULES } from './resources';
import { OWN_SETTINGS_OPERATIONS, settingsProperty } from './settings';
import { argumentsBehind } from './toolArguments';
import type { OperationModule } from './types';
import { FROM_VERSION_2, ONLY_VERSION_1 } from './version';

/**
 * The node's own properties besides the operations' (IntegrationService.node.ts): version 1's three,
 * version 2's one Options collection (Get Many, Find and Create or Update hold their own, with the
 * same settings: settings.ts `withSettings`).
 */
export const NODE_WIDE_PROPERTIES: INodeProperties[] = [
	...updateDisplayOptions({ show: ONLY_VERSION_1 }, [
		credentialIdOverride,
		outputProperty,
		requestOptions,
	]),
	...updateDisplayOptions({ show: FROM_VERSION_2, hide: { operation: OWN_SETTINGS_OPERATIONS } }, [
		settingsProperty(),
	]),
];

export function operationModule(resource: string, operation: string): OperationModule | undefined {
	const modules = Object.prototype.hasOwnProperty.call(RESOURCE_MODULES, resource)
		? RESOURCE_MODULES[resource].operations
		: undefined;
	return modules && Object.prototype.hasOwnProperty.call(modules, operation)
		? modules[operation]
		: undefined;
}

function errorText(error: unknown): { message: string; description?: string; httpCode?: string } {
	const { message, description, httpCode } = error as {
		message?: string;
		description?: string;
		httpCode?: string;
	};
	return {
		message: message ?? String(error),
		description: description ?? undefined,
		httpCode: httpCode ?? undefined,
	};
}

type Reader = { asTool: false } | { asTool: true; properties: INodeProperties[] };

/** The transport's next step, or, for an input error, which arguments to fix. */
function nextStepFor(ctx: IExecuteFunctions, error: ErrorFields, properties: INodeProperties[]) {
	const next = error.context?.nextStep;
	if (typeof next === 'string') return next;
	const keys = argumentsBehind(ctx.getNode(), properties, error.message ?? '');
	return keys.length === 0
		? INPUT_NEXT_STEP
		: `${INPUT_NEXT_STEP} The arguments behind that field: ${keys.join(', ')}.`;
}

type ErrorFields = { message?: string; description?: string; context?: IDataObject };

/** Names the error's item; a model (one item) gets no "(item 0)", and the next step as description. */
function tagWithItem(
	ctx: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
	reader: Reader,
): void {
	if (error && typeof error === 'object') {
		const tagged = error as ErrorFields;
		const suffix = ` (item ${itemIndex})`;
		if (!reader.asTool && typeof tagged.message === 'string' && !tagged.message.endsWith(suffix))
			tagged.message += suffix;
		if (tagged.context && typeof tagged.context === 'object') tagged.context.itemIndex = itemIndex;
		if (reader.asTool) tagged.description = nextStepFor(ctx, tagged, reader.properties);
		const forModel = tagged.context?.toolMessage;
		if (reader.asTool && typeof forModel === 'string') tagged.message = forModel;
	}
}

function readerOf(ctx: IExecuteFunctions, module: OperationModule): Reader {
	if (!runsAsTool(ctx)) return { asTool: false };
	return { asTool: true, properties: [...module.description, ...NODE_WIDE_PROPERTIES] };
}

function asNodeError(
	ctx: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
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
	const module = operationModule(resource, operation);
	if (!module) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
		);
	}
	let settings: ReturnType<typeof readRequestOptions>;
	try {
		settings = readRequestOptions(this);
	} catch (failure) {
		// Node-wide options are read for the first item (an expression sees that item).
		tagWithItem(this, failure, 0, readerOf(this, module));
		const error = asNodeError(this, failure, 0);
		await redactRunError(this, newRun(), 0, error);
		if (!this.continueOnFail()) throw error;
		// A wrong node-wide option fails every item alike (n8n would pass the input through as a success).
		const { message } = errorText(error);
		return [
			items.map((_, itemIndex) => ({
				json: { error: message, details: { itemIndex } },
				pairedItem: { item: itemIndex },
			})),
		];
	}
	const reader = readerOf(this, module);
	const asTool = reader.asTool;
	const run = newRun(settings.settings, asTool);
	const continueOnFail = this.continueOnFail();

	const perItem = await mapInOrder(
		items.length,
		settings.concurrency,
		async (itemIndex) => {
			let failure: unknown;
			try {
				// The item's Max Time counts from when its operation starts, not while it waits for a turn.
				const found = await module.execute.call(this, itemIndex, startItem(run));
				const records = asTool ? boundForModel(found) : found;
				return records.map((json) => ({ json, pairedItem: { item: itemIndex } }));
			} catch (error) {
				failure = error;
			}
			tagWithItem(this, failure, itemIndex, reader);
			const error = asNodeError(this, failure, itemIndex);
			// Every error leaves redacted, input errors too: a bad value may be a pasted secret.
			await redactRunError(this, run, itemIndex, error);
			if (!continueOnFail) throw error;
			const { message, description, httpCode } = errorText(error);
			const details: IDataObject = { itemIndex };
			if (httpCode) details.httpCode = httpCode;
			if (description) details.description = description;
			// Only `error`, `message` and `details` keys: n8n then routes the item to the error output under
			// "Continue (using error output)" and keeps all of it (an item carrying `.error` is cut to its message).
			return [{ json: { error: message, details }, pairedItem: { item: itemIndex } }];
		},
		() => stopRun(run, 'another item failed and the node stops'),
	);
	return [perItem.flat()];
}
