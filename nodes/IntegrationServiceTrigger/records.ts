import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import {
	CREDENTIAL_DEFAULT,
	DEFAULT_SETTINGS,
	MAX_PAGE_SIZE,
	newRun,
	recordsOf,
	serviceRequestPages,
	startItem,
} from '../IntegrationService/transport';
import type { ServiceHost } from '../shared/service';

/**
 * The most time a delivery spends reading its records, every page, attempt and wait together. The
 * sender waits for the answer meanwhile and sends the event again when it gives up; the specification
 * names no timeout, and webhook senders commonly wait 30 s or less. 20 s leaves the sender's timeout a
 * margin for n8n to receive the delivery and start the workflow (decisions.md, Deadlines).
 */
export const DELIVERY_READ_MS = 20_000;

/** The sender waits for the answer while records are fetched: retry less than an action would. */
const FETCH_SETTINGS = {
	...DEFAULT_SETTINGS,
	maxAttempts: 3,
	maxTotalWaitMs: 10_000,
	timeoutMs: 15_000,
	maxItemMs: DELIVERY_READ_MS,
};

/**
 * Reads an event's records from its uri (GET, the credential's default Credential ID) with the node's
 * pager: further pages by nextLink on the same origin, and every paging rule (no loops, progress,
 * bounds, DELIVERY_READ_MS) stops with an error that says why, so the delivery fails and the service
 * sends it again.
 */
export async function fetchRecords(
	ctx: IWebhookFunctions,
	host: ServiceHost,
	uri: string,
): Promise<IDataObject[]> {
	const records: IDataObject[] = [];
	const link = { url: uri, relativeTo: uri, what: "the event's records" };
	await serviceRequestPages.call(
		ctx,
		0,
		{
			request: { method: 'GET', host, path: [], link, connection: CREDENTIAL_DEFAULT },
			pageSize: MAX_PAGE_SIZE,
			recordsKey: recordsOf,
		},
		// An endless list (new records on every page, no total) fails the delivery at the bound, never
		// starting the workflow with part of the records: the service delivers the event again.
		startItem(
			newRun(FETCH_SETTINGS),
			`the ${DELIVERY_READ_MS / 1000} s limit for reading a delivery's records`,
		),
		(page) =>
			records.push(...page.filter((record) => record !== null && typeof record === 'object')),
	);
	return records;
}
