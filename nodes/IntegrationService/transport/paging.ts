import type { IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { endpointUrl, hostBaseUrl } from './hosts';
import type { ServiceRequest } from './index';
import { serviceRequest } from './index';
import type { ServiceContext, ServiceRun } from './run';
import { runCredentials } from './run';

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
	recordsKey: string | ((page: IDataObject) => unknown);
}

/**
 * Return All holds every record in n8n's memory (about 4 KB of RSS per person in our benchmark), so a
 * list that goes on past this many records is stopped rather than let run n8n out of memory (~1 GB).
 */
export const MAX_RECORDS = 250_000;
/**
 * Records may be created while a list is read: pages may bring this many more than the first page's
 * `_metadata.total` announced (a tenth, at least one page) before paging stops as endless.
 */
export function announcedBound(total: number, pageSize: number): number {
	return total + Math.max(pageSize, Math.ceil(total / 10));
}

/** The URL a link names; the link itself when it is no URL (the transport refuses it before sending). */
function absolute(url: string, relativeTo: string): string {
	try {
		return new URL(url, relativeTo).href;
	} catch {
		return url;
	}
}

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Return All / Limit over a list (decisions.md): follow nextLink (absolute, or relative to the page
 * it came on) on the host's origin, else the `next` cursor, else offset paging; stop on an empty page,
 * no cursor left, or offset + count >= total. Paging always ends: a page that brings no record not
 * seen before, a cursor seen before, or an offset the service did not move to stops it with an error.
 * A failed page is retried by serviceRequest on its own: the pages already read are kept.
 */
export async function serviceRequestPages(
	this: ServiceContext,
	itemIndex: number,
	list: PageRequest,
	run: ServiceRun,
	onPage: (records: IDataObject[]) => void,
): Promise<number> {
	const stop = (why: string): never => {
		const message = `Paging stopped: ${why}`;
		throw new NodeApiError(this.getNode(), { message } as JsonObject, { message, itemIndex });
	};
	const credentials = await runCredentials(this, run, itemIndex);
	const host = hostBaseUrl(credentials, list.request.host);
	const first = 'base' in host ? endpointUrl(host.base, list.request.path) : undefined;
	const startLink = list.request.link;
	let pageUrl = startLink ? absolute(startLink.url, startLink.relativeTo) : first && 'url' in first ? first.url : '';
	const recordsIn = (page: IDataObject): unknown =>
		typeof list.recordsKey === 'function' ? list.recordsKey(page) : page[list.recordsKey];
	const what = typeof list.recordsKey === 'string' ? `"${list.recordsKey}"` : 'records';

	const seenCursors = new Set<string>();
	const seenIds = new Set<string>();
	const baseQs = { ...(list.request.qs ?? {}) };
	let received = 0;
	/** Records the service sent, before a Limit takes its share: what memory and the bounds count. */
	let sent = 0;
	let announced: number | undefined;
	let offset = 0;
	let cursor: { next?: string; nextLink?: string } = {};

	for (let pages = 1; ; pages++) {
		const remaining = list.maxRecords === undefined ? list.pageSize : list.maxRecords - received;
		const limit = Math.min(list.pageSize, remaining);
		const pageRequest: ServiceRequest = { ...list.request };
		if (startLink !== undefined && pages === 1) {
			// The service's own link to the list: sent as it is, without paging parameters.
		} else if (cursor.nextLink !== undefined) {
			pageRequest.link = { url: cursor.nextLink, relativeTo: pageUrl, what: 'a next page' };
			pageUrl = new URL(cursor.nextLink, pageUrl).href;
		} else if (cursor.next !== undefined) {
			pageRequest.qs = { ...baseQs, limit, next: cursor.next };
		} else {
			pageRequest.qs = { ...baseQs, limit, offset };
		}

		const page = await serviceRequest.call(this, itemIndex, pageRequest, run);
		const records = recordsIn(page);
		if (!Array.isArray(records)) {
			const message = `The service's answer has no ${what} list`;
			throw new NodeApiError(this.getNode(), { message } as JsonObject, { message, itemIndex });
		}
		const meta = (page._metadata ?? {}) as IDataObject;
		// Paging ends before memory does: past what the first page announced, or past MAX_RECORDS.
		if (announced === undefined && typeof meta.total === 'number' && meta.total >= 0) announced = meta.total;
		sent += records.length;
		if (announced !== undefined && sent > announcedBound(announced, list.pageSize)) {
			stop(`the service announced ${announced} records but goes on past ${sent - records.length}; narrow the list with Query Parameters or use a Limit`);
		}
		if (sent > MAX_RECORDS) {
			stop(`more than ${MAX_RECORDS} records would be held in memory at once; narrow the list with Query Parameters or use a Limit`);
		}
		const take = list.maxRecords === undefined ? records : records.slice(0, list.maxRecords - received);
		received += take.length;
		onPage(take as IDataObject[]);

		if (records.length === 0) break;
		if (list.maxRecords !== undefined && received >= list.maxRecords) break;

		// Progress: at least one record not seen on an earlier page (records without an id are not compared).
		const ids = (records as IDataObject[]).map((record) => record?.id).filter((id) => typeof id === 'string' || typeof id === 'number');
		if (ids.length === records.length && ids.every((id) => seenIds.has(String(id)))) {
			stop('the service returned the same records again (it does not move to the next page)');
		}
		for (const id of ids) seenIds.add(String(id));

		const nextLink = text(meta.nextLink);
		const next = text(meta.next);
		if (nextLink !== undefined || next !== undefined) {
			const key = nextLink !== undefined ? `link:${new URL(nextLink, pageUrl).href}` : `next:${next}`;
			if (seenCursors.has(key)) stop('the service returned the same next-page cursor twice');
			seenCursors.add(key);
			cursor = nextLink !== undefined ? { nextLink } : { next };
			continue;
		}
		// A service that paged by cursor and gives none now has no more pages; a named list pages by link only.
		if (seenCursors.size > 0 || startLink !== undefined) break;
		// Offset paging: the service must say it served the offset we asked for, and we move on ourselves.
		if (typeof meta.offset === 'number' && meta.offset !== offset) {
			stop(`the service answered offset ${meta.offset} when asked for offset ${offset}`);
		}
		offset += records.length;
		const total = typeof meta.total === 'number' ? meta.total : undefined;
		if (total !== undefined ? offset >= total : records.length < limit) break;
	}
	return received;
}
