import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { mapInOrder } from '../helpers/concurrency';
import { inputError, toNumber } from '../helpers/validation';
import type { RequestSettings } from '../transport';
import { DEFAULT_SETTINGS, newRun } from '../transport';
import type { OperationModule } from './operation.types';
import { operations } from './operations';

function readPolicy(ctx: IExecuteFunctions): { settings: RequestSettings; concurrency: number } {
	const options = ctx.getNodeParameter('requestOptions', 0, {}) as IDataObject;
	const option = (name: string, label: string, fallback: number, min: number) => {
		if (options[name] === undefined || options[name] === '') return fallback;
		const value = toNumber(ctx, 0, `Request Options › ${label}`, options[name]);
		if (value < min) {
			// Node-wide options are read for the first item (an expression sees that item).
			throw inputError(ctx, 0, `Request Options › ${label}`, `must be at least ${min}, got ${value}`);
		}
		return value;
	};
	return {
		settings: {
			maxAttempts: Math.floor(option('maxAttempts', 'Max Attempts', DEFAULT_SETTINGS.maxAttempts, 1)),
			maxTotalWaitMs: option('maxTotalWait', 'Max Total Retry Wait', DEFAULT_SETTINGS.maxTotalWaitMs / 1000, 0) * 1000,
			initialDelayMs: option('initialRetryDelay', 'Initial Retry Delay', DEFAULT_SETTINGS.initialDelayMs, 0),
			timeoutMs: option('timeout', 'Timeout', DEFAULT_SETTINGS.timeoutMs / 1000, 0.001) * 1000,
		},
		concurrency: Math.floor(option('concurrency', 'Concurrency', 1, 1)),
	};
}

function errorText(error: unknown): { message: string; description?: string; httpCode?: string } {
	const { message, description, httpCode } = error as { message?: string; description?: string; httpCode?: string };
	return {
		message: message ?? String(error),
		description: description ?? undefined,
		httpCode: httpCode ?? undefined,
	};
}

/** Makes sure an error says which item it belongs to, in its text and in its context. */
function tagWithItem(error: unknown, itemIndex: number): void {
	if (error && typeof error === 'object') {
		const tagged = error as { message?: string; context?: IDataObject };
		if (typeof tagged.message === 'string' && !tagged.message.includes(`(item ${itemIndex})`)) {
			tagged.message = `${tagged.message} (item ${itemIndex})`;
		}
		if (tagged.context && typeof tagged.context === 'object') tagged.context.itemIndex = itemIndex;
	}
}

/** Keeps n8n's own errors as they are (with their HTTP code); anything else becomes a NodeOperationError. */
function asNodeError(
	ctx: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

/**
 * Runs the chosen operation once per input item. Every input item yields its records or, with
 * Continue On Fail, exactly one error item; all of them are paired with the input item and kept in
 * input order.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const module: OperationModule | undefined = operations[resource]?.[operation];
	if (!module) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`);
	}
	let settings: ReturnType<typeof readPolicy>;
	try {
		settings = readPolicy(this);
	} catch (failure) {
		const error = asNodeError(this, failure, 0);
		if (!this.continueOnFail()) throw error;
		// A wrong node-wide option fails every item alike. n8n would pass the input through as if it had
		// succeeded, so each item gets its own error item, as any other failure would.
		const { message } = errorText(error);
		return [items.map((_, itemIndex) => ({ json: { error: message, details: { itemIndex } }, pairedItem: { item: itemIndex } }))];
	}
	const { concurrency } = settings;
	const run = newRun(settings.settings);

	const perItem = await mapInOrder(items.length, concurrency, async (itemIndex) => {
		let failure: unknown;
		try {
			const records = await module.execute.call(this, itemIndex, run);
			return records.map((json) => ({ json, pairedItem: { item: itemIndex } }));
		} catch (error) {
			failure = error;
		}
		tagWithItem(failure, itemIndex);
		const error = asNodeError(this, failure, itemIndex);
		if (!this.continueOnFail()) throw error;
		const { message, description, httpCode } = errorText(error);
		const details: IDataObject = { itemIndex };
		if (httpCode) details.httpCode = httpCode;
		if (description) details.description = description;
		// Only `error`, `message` and `details` keys: n8n then routes the item to the error output under
		// "Continue (using error output)" and keeps all of it (an item carrying `.error` is cut to its message).
		return [{ json: { error: message, details }, pairedItem: { item: itemIndex } }];
	});
	return [perItem.flat()];
}
