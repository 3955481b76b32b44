import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ServiceRequest } from '../IntegrationService/transport';
import { DEFAULT_SETTINGS, newRun, serviceRequestPages } from '../IntegrationService/transport';
import { recordsOf } from './delivery';

/** Only for the margin over an announced total: a named list's pages are as long as the service makes them. */
const DEFAULT_PAGE_SIZE = 100;

/** The sender waits for the answer while records are fetched: retry less than an action would. */
const FETCH_SETTINGS = { ...DEFAULT_SETTINGS, maxAttempts: 3, maxTotalWaitMs: 10_000, timeoutMs: 15_000 };

export function parseFilters(ctx: IHookFunctions, text: string): IDataObject | undefined {
	if (text.trim() === '' || text.trim() === '{}') return undefined;
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		value = undefined;
	}
	if (value === null || typeof value !== 'object' || Array.isArray(value)) {
		throw new NodeOperationError(ctx.getNode(), 'Filters: must be a JSON object, e.g. {"stage": "Lead"}');
	}
	return value as IDataObject;
}

/**
 * Reads an event's records from its uri (GET, the credential's default Credential ID) with the node's
 * pager: further pages by nextLink on the same origin, and every paging rule (no loops, progress,
 * bounds) stops with an error that says why, so the delivery fails and the service sends it again.
 */
export async function fetchRecords(ctx: IWebhookFunctions, host: ServiceRequest['host'], uri: string): Promise<IDataObject[]> {
	const records: IDataObject[] = [];
	const link = { url: uri, relativeTo: uri, what: "the event's records" };
	await serviceRequestPages.call(
		ctx,
		0,
		{ request: { method: 'GET', host, path: [], link }, pageSize: DEFAULT_PAGE_SIZE, recordsKey: recordsOf },
		newRun(FETCH_SETTINGS),
		(page) => records.push(...page.filter((record) => record !== null && typeof record === 'object')),
	);
	return records;
}
