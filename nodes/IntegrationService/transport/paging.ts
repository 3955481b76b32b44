import type { IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { endpointUrl, hostBaseUrl } from './hosts';
import type { ServiceRequest } from './index';
import { serviceRequest } from './index';
import type { ServiceContext, ServiceRun } from './run';
import { runCredentials } from './run';

export interface PageRequest {
	/** The list request (host + path + extra query), without paging parameters. */
	request: ServiceRequest;
	/** How many records at most; undefined means all. */
	maxRecords?: number;
	pageSize: number;
	/** Key of the records array in each page (e.g. "people"). */
	recordsKey: string;
}

/** A safety net for a service that invents new records forever: 10 million records at 100 a page. */
const MAX_PAGES = 100_000;

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
	let pageUrl = first && 'url' in first ? first.url : '';

	const seenCursors = new Set<string>();
	const seenIds = new Set<string>();
	const baseQs = { ...(list.request.qs ?? {}) };
	let received = 0;
	let offset = 0;
	let cursor: { next?: string; nextLink?: string } = {};

	for (let pages = 1; ; pages++) {
		if (pages > MAX_PAGES) stop(`more than ${MAX_PAGES} pages; narrow the list with Query Parameters or use a Limit`);
		const remaining = list.maxRecords === undefined ? list.pageSize : list.maxRecords - received;
		const limit = Math.min(list.pageSize, remaining);
		const pageRequest: ServiceRequest = { ...list.request };
		if (cursor.nextLink !== undefined) {
			pageRequest.link = { url: cursor.nextLink, relativeTo: pageUrl, what: 'a next page' };
			pageUrl = new URL(cursor.nextLink, pageUrl).href;
		} else if (cursor.next !== undefined) {
			pageRequest.qs = { ...baseQs, limit, next: cursor.next };
		} else {
			pageRequest.qs = { ...baseQs, limit, offset };
		}

		const page = await serviceRequest.call(this, itemIndex, pageRequest, run);
		const records = page[list.recordsKey];
		if (!Array.isArray(records)) {
			const message = `The service's answer has no "${list.recordsKey}" list`;
			throw new NodeApiError(this.getNode(), { message } as JsonObject, { message, itemIndex });
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

		const meta = (page._metadata ?? {}) as IDataObject;
		const nextLink = text(meta.nextLink);
		const next = text(meta.next);
		if (nextLink !== undefined || next !== undefined) {
			const key = nextLink !== undefined ? `link:${new URL(nextLink, pageUrl).href}` : `next:${next}`;
			if (seenCursors.has(key)) stop('the service returned the same next-page cursor twice');
			seenCursors.add(key);
			cursor = nextLink !== undefined ? { nextLink } : { next };
			continue;
		}
		// A service that paged by cursor and gives none now has no more pages.
		if (seenCursors.size > 0) break;
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
