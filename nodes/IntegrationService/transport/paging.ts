import type { IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { LIST_KEYS } from '../../shared/catalogue';
import { endpointUrl, hostBaseUrl } from '../../shared/service';
import type { ServiceContext } from './attempt';
import type { PagePosition } from './cursor';
import { digest, encodeCursor } from './cursor';
import { secretForms } from './secrets';
import type { ListStart } from './nextPage';
import { absolute, decodedOnce, newLoopMemory, pageAfter, resumeAt } from './nextPage';
import type { ServiceRequest, ServiceRun } from './request';
import { connectionIdOf, runCredentials, serviceRequest } from './request';

/**
 * Finds the records in a page, given the name the list's path ends with: the list of records, or the
 * page itself when the answer is one record and no page of a list (recordsOf); anything else means
 * the answer has no records list.
 */
export type RecordsFinder = (page: IDataObject, listName: string | undefined) => unknown;

export interface PageRequest {
	/**
	 * The list request (host + path + extra query), without paging parameters; or, with `link`, a list
	 * the service named (an event's uri), whose further pages are followed by nextLink only.
	 */
	request: ServiceRequest;
	/** How many records at most; undefined means all. */
	maxRecords?: number;
	pageSize: number;
	/** Key of the records array in each page (e.g. "people"), or how to find the records in a page. */
	recordsKey: string | RecordsFinder;
	/** Page at a Time: start where `cursor` says ('' = the start); `field` names it in errors. */
	batch?: { cursor: string; field: string };
}

export interface PagingResult {
	/** Records handed to onPage. */
	received: number;
	/** Page at a Time: the cursor of the next batch; undefined when the list has ended. */
	nextCursor?: string;
}

/** decisions.md: services of this kind cap a page at 100 records; the page size asked for by default. */
export const MAX_PAGE_SIZE = 100;

/**
 * Return All holds every record in n8n's memory (about 4 KB of RSS per person in our benchmark), so a
 * list that goes on past this many records is stopped rather than let run n8n out of memory (~1 GB).
 */
export const MAX_RECORDS = 250_000;
/**
 * Page at a Time holds one batch at a time, so memory does not bound a list read batch by batch: one
 * that announces no total is stopped as endless past this many records over all its batches (40
 * times MAX_RECORDS; the service's lists announce their total, which bounds them far sooner).
 */
export const MAX_UNANNOUNCED_RECORDS = 10_000_000;
/**
 * Records may be created while a list is read: pages may bring this many more than the first page's
 * `_metadata.total` announced (a tenth, at least one page) before paging stops as endless.
 */
export function announcedBound(total: number, pageSize: number): number {
	return total + Math.max(pageSize, Math.ceil(total / 10));
}

/** The page to send for a position: the service's own link to the list (`at` undefined) as it is. */
function requestFor(
	request: ServiceRequest,
	start: ListStart,
	at: PagePosition | undefined,
	limit: number,
): ServiceRequest {
	if (at === undefined) return request;
	if ('link' in at)
		return { ...request, link: { url: at.link, relativeTo: start.firstUrl, what: 'a next page' } };
	const qs = { ...(request.qs ?? {}), limit };
	return { ...request, qs: 'next' in at ? { ...qs, next: at.next } : { ...qs, offset: at.offset } };
}

/** Where the list starts, its path, name and identity, with the credential this run uses. */
function listStart(credentials: IDataObject, request: ServiceRequest): ListStart {
	const host = hostBaseUrl(credentials, request.host);
	const base = 'base' in host ? host.base : undefined;
	const first = base === undefined ? undefined : endpointUrl(base, request.path);
	const firstUrl = request.link
		? absolute(request.link.url, request.link.relativeTo)
		: first && 'url' in first
			? first.url
			: '';
	const listPath = URL.canParse(firstUrl) ? new URL(firstUrl).pathname : '';
	const last = request.link
		? decodedOnce(listPath.slice(listPath.lastIndexOf('/') + 1))
		: request.path.map((segment) => (typeof segment === 'string' ? segment : segment.id)).pop();
	const override = connectionIdOf(request).trim();
	const connectionId = override !== '' ? override : String(credentials.credentialId ?? '').trim();
	return {
		firstUrl,
		listPath,
		listName: last === '' ? undefined : last,
		base,
		listId: listDigest(request, base ?? '', connectionId),
		forms: secretForms(credentials),
	};
}

/**
 * Return All / Limit over a list (decisions.md): follow nextLink (absolute, or relative to the page
 * it came on) on the host's origin and the list's own path, else the `next` cursor, else offset
 * paging; stop on an empty page, no cursor left, or offset + count >= total. Paging always ends: a
 * page that brings no record not seen before, a cursor seen before (Brent's check catches a loop of
 * any length), or an offset the service did not move to stops it with an error. A failed page is
 * retried by serviceRequest on its own: the pages already read are kept. An answer that is no page of
 * a list (recordsOf) is one record, and no further page is asked for.
 * With `batch` (Page at a Time) it starts where a cursor says and returns the cursor of what follows,
 * carrying the loop and progress rules from batch to batch.
 */
export async function serviceRequestPages(
	this: ServiceContext,
	itemIndex: number,
	list: PageRequest,
	run: ServiceRun,
	/** Each page's records (a Limit's share of them) and the page as the service sent it. */
	onPage: (records: IDataObject[], page: IDataObject) => void,
): Promise<PagingResult> {
	const stop = (why: string): never => {
		const message = `Paging stopped: ${why}`;
		throw new NodeApiError(this.getNode(), { message } as JsonObject, { message, itemIndex });
	};
	const refuse = (message: string): never => {
		throw new NodeOperationError(this.getNode(), message, { itemIndex });
	};
	const { batch } = list;
	const start = listStart(await runCredentials(this, run, itemIndex), list.request);
	const resume = batch && batch.cursor !== '' ? resumeAt(start, batch, refuse) : undefined;
	const recordsIn = (page: IDataObject): unknown =>
		typeof list.recordsKey === 'function'
			? list.recordsKey(page, start.listName)
			: page[list.recordsKey];
	const what = typeof list.recordsKey === 'string' ? `"${list.recordsKey}"` : 'records';

	const loops = newLoopMemory(resume, Boolean(batch), stop);
	let received = 0;
	/** Records the service sent in this run, before a Limit takes its share: what memory counts. */
	let sent = 0;
	/** Records the service sent for this list over every batch: what the announced total bounds. */
	let sentOverall = resume?.sent ?? 0;
	let announced = resume?.announced;
	/** The page to ask for, and how many of its records were returned already. */
	let at: PagePosition | undefined = resume?.at ?? (list.request.link ? undefined : { offset: 0 });
	let skip = resume?.skip ?? 0;
	let pageUrl = resume && 'link' in resume.at ? resume.at.link : start.firstUrl;

	for (let pages = 1; ; pages++) {
		const remaining = list.maxRecords === undefined ? list.pageSize : list.maxRecords - received;
		const limit = Math.min(list.pageSize, remaining + skip);
		if (at !== undefined && 'link' in at) pageUrl = at.link;
		const pageRequest = requestFor(list.request, start, at, limit);
		const page = await serviceRequest.call(this, itemIndex, pageRequest, run);
		const records = recordsIn(page);
		if (records === page && pages === 1 && !resume) {
			// Not a page of a list: the answer is one record, and there is no further page to ask for.
			onPage([page], page);
			return { received: 1 };
		}
		if (!Array.isArray(records)) {
			const message = `The service's answer has no ${what} list`;
			throw new NodeApiError(this.getNode(), { message } as JsonObject, { message, itemIndex });
		}
		const meta = (page._metadata ?? {}) as IDataObject;
		// Paging ends before memory does: past what the first page announced, or past MAX_RECORDS.
		if (announced === undefined && typeof meta.total === 'number' && meta.total >= 0)
			announced = meta.total;
		const fresh = skip > 0 ? records.slice(skip) : records;
		sent += fresh.length;
		sentOverall += fresh.length;
		checkBounds(stop, { announced, sent, sentOverall, before: sentOverall - fresh.length }, list);
		const take = list.maxRecords === undefined ? fresh : fresh.slice(0, list.maxRecords - received);
		received += take.length;
		onPage(take as IDataObject[], page);

		const limitReached = list.maxRecords !== undefined && received >= list.maxRecords;
		if (records.length === 0 || (limitReached && !batch)) break;
		if (limitReached && take.length < fresh.length && at !== undefined) {
			// The batch ends inside this page: the next one starts at its first record not returned.
			const position =
				'offset' in at
					? { at: { offset: at.offset + take.length }, skip: 0 }
					: { at, skip: skip + take.length };
			return {
				received,
				nextCursor: cursorFor(position, sentOverall - (fresh.length - take.length)),
			};
		}

		loops.progress(records as IDataObject[], pages === 1 && skip === 0);

		const after = pageAfter(
			{ start, meta, at, pageUrl, count: records.length, limit },
			loops,
			stop,
			refuse,
		);
		if (limitReached || after === undefined)
			return { received, nextCursor: after && cursorFor({ at: after, skip: 0 }, sentOverall) };
		at = after;
		skip = 0;
	}
	return { received };

	function cursorFor(
		position: { at: PagePosition; skip: number },
		sentSoFar: number,
	): string | undefined {
		if (!batch) return undefined;
		return encodeCursor({
			list: start.listId,
			...position,
			sent: sentSoFar,
			...(announced === undefined ? {} : { announced }),
			...loops.carried(),
		});
	}
}

/** The endless-list bounds after a page: an announced total, memory, and a list read batch by batch. */
function checkBounds(
	stop: (why: string) => never,
	counts: { announced?: number; sent: number; sentOverall: number; before: number },
	list: PageRequest,
): void {
	const { announced, sent, sentOverall, before } = counts;
	if (announced !== undefined && sentOverall > announcedBound(announced, list.pageSize)) {
		stop(
			`the service announced ${announced} records but goes on past ${before}; narrow the list with Query Parameters or use a Limit`,
		);
	}
	if (sent > MAX_RECORDS) {
		stop(
			`more than ${MAX_RECORDS} records would be held in memory at once; narrow the list with Query Parameters, use a Limit or Page at a Time`,
		);
	}
	if (announced === undefined && sentOverall > MAX_UNANNOUNCED_RECORDS) {
		stop(
			`the service announced no total and the list goes on past ${MAX_UNANNOUNCED_RECORDS} records; narrow the list with Query Parameters`,
		);
	}
}

/**
 * Identifies a list for its cursors: the same request with other filters, against another host URL
 * or for another Connection ID (the item's override, else the credential's default) is another list.
 */
export function listDigest(request: ServiceRequest, base: string, connectionId: string): string {
	const path = request.path.map((segment) => (typeof segment === 'string' ? segment : segment.id));
	const qs = Object.entries(request.qs ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	return digest(
		JSON.stringify([request.method, request.host, base, path, qs, connectionId, request.link?.url]),
	);
}

/** Lists the pager knows by name (the catalogue's); an answer that is nothing but one of them is a page of that list. */
const KNOWN_LISTS = LIST_KEYS;

/**
 * The records of an answer whose list key is not known beforehand (an event's `uri`, a Custom API
 * Call), given the last segment of the list's path (`loans/7/documents` → documents). An answer is a
 * page of a list when it has `_metadata`, a list under that name, or nothing but a list under
 * people/borrowers/documents: its records are the list under that name, else under those, else its
 * first list other than _metadata (none: no records). Anything else is one record (a person with
 * tags, a loan with its borrowers): the answer itself is returned, and the pager asks for no more.
 */
export function recordsOf(answer: IDataObject, listName?: string): IDataObject[] | IDataObject {
	const keys = Object.keys(answer);
	if (keys.length === 0) return [];
	const named = listName !== undefined && Array.isArray(answer[listName]);
	const onlyKnown = keys.length === 1 && KNOWN_LISTS.includes(keys[0]);
	const isList =
		answer._metadata !== undefined || named || (onlyKnown && Array.isArray(answer[keys[0]]));
	if (!isList) return answer;
	if (named) return answer[listName as string] as IDataObject[];
	for (const key of KNOWN_LISTS) {
		if (Array.isArray(answer[key])) return answer[key] as IDataObject[];
	}
	for (const [key, value] of Object.entries(answer)) {
		if (key !== '_metadata' && Array.isArray(value)) return value as IDataObject[];
	}
	return [];
}
