import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ServiceRequest } from '../IntegrationService/transport';
import { DEFAULT_SETTINGS, newRun, serviceRequest } from '../IntegrationService/transport';
import { recordsOf } from './delivery';

/** Pages of an event's records followed at most (a `uri` names a few records; this only stops a loop). */
const MAX_RECORD_PAGES = 50;

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

/** Reads an event's records from its uri (GET, the credential's default Credential ID), following nextLink. */
export async function fetchRecords(ctx: IWebhookFunctions, host: ServiceRequest['host'], uri: string): Promise<IDataObject[]> {
	const run = newRun(FETCH_SETTINGS);
	const records: IDataObject[] = [];
	const seen = new Set<string>();
	let url: string | undefined = uri;
	for (let page = 0; url !== undefined && page < MAX_RECORD_PAGES; page++) {
		seen.add(url);
		// The transport refuses a link off this host's origin (a nextLink included) before sending anything.
		const link = { url, relativeTo: uri, what: page === 0 ? "the event's records" : 'a next page' };
		const answer = await serviceRequest.call(ctx, 0, { method: 'GET', host, path: [], link }, run);
		records.push(...recordsOf(answer).filter((r) => r !== null && typeof r === 'object'));
		const meta = (answer._metadata ?? {}) as IDataObject;
		const next = typeof meta.nextLink === 'string' && meta.nextLink !== '' ? meta.nextLink : undefined;
		url = next !== undefined && !seen.has(next) ? next : undefined;
	}
	return records;
}

