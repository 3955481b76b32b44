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

/** Reading a delivery's records: webhook senders commonly wait 30 s or less, and n8n needs a margin. */
export const DELIVERY_READ_MS = 20_000;

/** The sender waits for the answer while records are fetched: retry less than an action would. */
const FETCH_SETTINGS = {
	...DEFAULT_SETTINGS,
	maxAttempts: 3,
	maxTotalWaitMs: 10_000,
	timeoutMs: 15_000,
	maxItemMs: DELIVERY_READ_MS,
};

/** Every paging rule stops with an error, so the delivery fails and the service sends it again. */
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
		// An endless list fails the delivery at the bound, never starting the workflow with part of it.
		startItem(
			newRun(FETCH_SETTINGS),
			`the ${DELIVERY_READ_MS / 1000} s limit for reading a delivery's records`,
		),
		(page) =>
			records.push(...page.filter((record) => record !== null && typeof record === 'object')),
	);
	return records;
}
