import type { IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { endpointUrl, hostBaseUrl, sameOriginUrl } from '../../shared/service';
import type { ServiceContext } from './attempt';
import type { ListPosition, PagePosition } from './cursor';
import { decodeCursor, digest, encodeCursor, SEEN_KEPT } from './cursor';
import type { ServiceRequest, ServiceRun } from './request';
import { runCredentials, serviceRequest } from './request';

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
	const { batch } = list;
	const listId = batch ? listDigest(list.request) : '';
	let resume: ListPosition | undefined;
	if (batch && batch.cursor !== '') {
		const decoded = decodeCursor(batch.cursor, listId);
		if ('refused' in decoded) {
			throw new NodeOperationError(this.getNode(), `${batch.field}: ${decoded.refused}`, {
				itemIndex,
			});
		}
		resume = decoded.position;
	}
	const credentials = await runCredentials(this, run, itemIndex);
	const host = hostBaseUrl(credentials, list.request.host);
	const first = 'base' in host ? endpointUrl(host.base, list.request.path) : undefined;
	const startLink = list.request.link;
	const firstUrl = startLink
		? absolute(startLink.url, startLink.relativeTo)
		: first && 'url' in first
			? first.url
			: '';
	if (resume && 'link' in resume.at && 'base' in host) {
		// A cursor is input: the page it names is checked before anything is sent, as a nextLink is.
		const target = sameOriginUrl(resume.at.link, firstUrl, host.base);
		if ('refused' in target) {
			throw new NodeOperationError(
				this.getNode(),
				`${batch?.field}: names a page on another origin (${target.refused}); it is not followed with your token`,
				{ itemIndex },
			);
		}
	}
	const recordsIn = (page: IDataObject): unknown =>
		typeof list.recordsKey === 'function' ? list.recordsKey(page) : page[list.recordsKey];
	const what = typeof list.recordsKey === 'string' ? `"${list.recordsKey}"` : 'records';

	const seenCursors = new Set<string>();
	/** Next-page cursors seen by earlier batches (digests), newest last. */
	const carriedSeen = [...(resume?.seen ?? [])];
	const seenIds = new Set<string>();
	const baseQs = { ...(list.request.qs ?? {}) };
	let received = 0;
	/** Records the service sent in this run, before a Limit takes its share: what memory counts. */
	let sent = 0;
	/** Records the service sent for this list over every batch: what the announced total bounds. */
	let sentOverall = resume?.sent ?? 0;
	let announced = resume?.announced;
	/** The page to ask for, and how many of its records were returned already. */
	let at: PagePosition | undefined = resume?.at ?? (startLink ? undefined : { offset: 0 });
	let skip = resume?.skip ?? 0;
	let pageUrl = resume && 'link' in resume.at ? resume.at.link : firstUrl;
	let lastPage = resume?.lastPage;

	for (let pages = 1; ; pages++) {
		const remaining = list.maxRecords === undefined ? list.pageSize : list.maxRecords - received;
		const limit = Math.min(list.pageSize, remaining + skip);
		const pageRequest: ServiceRequest = { ...list.request };
		if (at === undefined) {
			// The service's own link to the list: sent as it is, without paging parameters.
		} else if ('link' in at) {
			pageRequest.link = { url: at.link, relativeTo: firstUrl, what: 'a next page' };
			pageUrl = at.link;
		} else if ('next' in at) {
			pageRequest.qs = { ...baseQs, limit, next: at.next };
		} else {
			pageRequest.qs = { ...baseQs, limit, offset: at.offset };
		}

		const page = await serviceRequest.call(this, itemIndex, pageRequest, run);
		const records = recordsIn(page);
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
		if (announced !== undefined && sentOverall > announcedBound(announced, list.pageSize)) {
			stop(
				`the service announced ${announced} records but goes on past ${sentOverall - fresh.length}; narrow the list with Query Parameters or use a Limit`,
			);
		}
		if (sent > MAX_RECORDS) {
			stop(
				`more than ${MAX_RECORDS} records would be held in memory at once; narrow the list with Query Parameters, use a Limit or Page at a Time`,
			);
		}
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

		// Progress: at least one record not seen on an earlier page (records without an id are not compared).
		const ids = (records as IDataObject[])
			.map((record) => record?.id)
			.filter((id) => typeof id === 'string' || typeof id === 'number');
		const allHaveIds = ids.length === records.length;
		if (allHaveIds && ids.every((id) => seenIds.has(String(id)))) {
			stop('the service returned the same records again (it does not move to the next page)');
		}
		for (const id of ids) seenIds.add(String(id));
		if (batch && allHaveIds) {
			const pageDigest = digest(ids.join('\u0000'));
			if (pages === 1 && skip === 0 && pageDigest === lastPage) {
				stop('the service returned the same records again (it does not move to the next page)');
			}
			lastPage = pageDigest;
		}

		const nextLink = text(meta.nextLink);
		const next = text(meta.next);
		let after: PagePosition | undefined;
		if (nextLink !== undefined && !URL.canParse(nextLink, pageUrl))
			stop('the service gave a next-page link that is not a URL');
		if (nextLink !== undefined || next !== undefined) {
			const key = nextLink !== undefined ? `link:${absolute(nextLink, pageUrl)}` : `next:${next}`;
			const keyDigest = batch ? digest(key) : '';
			if (seenCursors.has(key) || (batch && carriedSeen.includes(keyDigest)))
				stop('the service returned the same next-page cursor twice');
			seenCursors.add(key);
			if (batch) carriedSeen.push(keyDigest);
			after =
				nextLink !== undefined ? { link: absolute(nextLink, pageUrl) } : { next: next as string };
		} else if (at !== undefined && 'offset' in at) {
			// Offset paging: the service must say it served the offset we asked for, and we move on ourselves.
			if (typeof meta.offset === 'number' && meta.offset !== at.offset) {
				stop(`the service answered offset ${meta.offset} when asked for offset ${at.offset}`);
			}
			const offset = at.offset + records.length;
			const total = typeof meta.total === 'number' ? meta.total : undefined;
			if (total !== undefined ? offset < total : records.length >= limit) after = { offset };
		}
		// Otherwise a service that paged by cursor and gives none now has no more pages; a named list pages by link only.
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
		const seen = carriedSeen.slice(-SEEN_KEPT);
		return encodeCursor({
			list: listId,
			...position,
			sent: sentSoFar,
			...(announced === undefined ? {} : { announced }),
			seen,
			...(lastPage === undefined ? {} : { lastPage }),
		});
	}
}

/** Identifies a list for its cursors: the same request with other filters is another list. */
function listDigest(request: ServiceRequest): string {
	const path = request.path.map((segment) => (typeof segment === 'string' ? segment : segment.id));
	const qs = Object.entries(request.qs ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	return digest(
		JSON.stringify([request.method, request.host, path, qs, request.credentialId ?? '']),
	);
}

/**
 * The records in an answer whose list key is not known beforehand (an event's `uri`, a Custom API
 * Call): the list under people/borrowers/documents, else the first list other than _metadata, else the
 * answer itself as one record.
 */
export function recordsOf(answer: IDataObject): IDataObject[] {
	for (const key of ['people', 'borrowers', 'documents']) {
		if (Array.isArray(answer[key])) return answer[key] as IDataObject[];
	}
	for (const [key, value] of Object.entries(answer)) {
		if (key !== '_metadata' && Array.isArray(value)) return value as IDataObject[];
	}
	return Object.keys(answer).length > 0 ? [answer] : [];
}
