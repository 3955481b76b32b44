import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import {
	CREDENTIAL_DEFAULT,
	DEFAULT_SETTINGS,
	MAX_PAGE_SIZE,
	newRun,
	serviceRequestPages,
	startItem,
} from '../IntegrationService/transport';
import { recordsOf } from '../shared/catalogue';
import type { ServiceHost } from '../shared/service';
import { hasControlCharacter, hostBaseUrl, hostOfUrl, originOf } from '../shared/service';

const NOT_READ = 'it is not read with your token';

/**
 * Whether a path holds a "." or ".." segment in any encoding: percent-encoded once or more (`%2e`,
 * `%252e`), or behind an encoded separator (`people%2F..`), which a server may decode before routing.
 */
function hasDotSegment(path: string): boolean {
	let text = path;
	for (let round = 0; round < 4; round++) {
		if (text.split(/[/\\]/).some((part) => part === '.' || part === '..')) return true;
		let decoded: string;
		try {
			decoded = decodeURIComponent(text);
		} catch {
			decoded = text.replace(/%2e/gi, '.').replace(/%2f/gi, '/').replace(/%5c/gi, '\\');
		}
		if (decoded === text) return false;
		text = decoded;
	}
	return true; // Encoded over and over: no event's uri looks like that.
}

/**
 * The credential's host on the uri's origin, a path under its base (with or without `/api`) and no
 * dot segment; else why not, for a 422 with nothing sent: the uri is read with our token.
 */
export function eventUriHost(
	credentials: IDataObject,
	uri: string,
): { host: ServiceHost } | { refused: string } {
	const host = hostOfUrl(credentials, uri);
	if (host === undefined) {
		return {
			refused: `The event's uri is on ${originOf(uri)}, which is none of the credential's hosts; ${NOT_READ}`,
		};
	}
	// hostOfUrl found the host by its base URL, so it has one.
	const { base } = hostBaseUrl(credentials, host) as { base: string };
	const basePath = `${new URL(base).pathname.replace(/\/+$/, '')}/`;
	let problem: string | undefined;
	if (hasControlCharacter(uri)) problem = 'it contains a control character';
	else if (hasDotSegment(uri.trim().split(/[?#]/, 1)[0])) problem = 'it has a "." or ".." segment';
	else if (!`${new URL(uri, base).pathname}/`.startsWith(basePath))
		problem = `its path is not under ${basePath}`;
	if (problem === undefined) return { host };
	return { refused: `The event's uri on ${originOf(uri)} is refused: ${problem}; ${NOT_READ}` };
}

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
	const request = { method: 'GET', host, path: [], link, connection: CREDENTIAL_DEFAULT } as const;
	const paging = { request, pageSize: MAX_PAGE_SIZE, recordsKey: recordsOf };
	// An endless list fails the delivery at the bound, never starting the workflow with part of it.
	const bound = `the ${DELIVERY_READ_MS / 1000} s limit for reading a delivery's records`;
	await serviceRequestPages.call(ctx, 0, paging, startItem(newRun(FETCH_SETTINGS), bound), (page) =>
		records.push(...page.filter((record) => record !== null && typeof record === 'object')),
	);
	return records;
}
