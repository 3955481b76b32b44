/** The pager's steps between two pages (paging.ts): which page, how many records, the bounds. */
import type { IDataObject } from 'n8n-workflow';

import { sameListUrl } from '../../shared/service';
import type { ListPosition, LoopMemory, PagePosition } from './cursor';
import { decodeCursor } from './cursor';
import type { ServiceRequest } from './request';
import { PLACEHOLDER, redact } from './secrets';

/** Return All holds every record in memory (about 4 KB each): a longer list is stopped before n8n runs out. */
export const MAX_RECORDS = 250_000;
/** Page at a Time holds one batch: a list that announces no total is stopped past this many over all batches. */
export const MAX_UNANNOUNCED_RECORDS = 10_000_000;

/** Records created while a list is read: pages may bring a tenth more than announced (at least a page). */
export function announcedBound(total: number, pageSize: number): number {
	return total + Math.max(pageSize, Math.ceil(total / 10));
}

/** Where a list starts (its path: every link that continues it names it) and what it is; `base` when usable. */
export interface ListStart {
	firstUrl: string;
	listPath: string;
	listName?: string;
	base?: string;
	listId: string;
	forms: readonly string[];
}

/**
 * One list being read: where it starts, the page to ask for (none: the list's own link) with its
 * records returned already and its URL (a relative nextLink is read against it), and the records
 * handed on (`received`), sent in this run (what memory bounds) and over every batch (what a total
 * bounds).
 */
export interface Paging {
	start: ListStart;
	pageSize: number;
	maxRecords?: number;
	loops: LoopMemory;
	stop: (why: string) => never;
	refuse: (message: string) => never;
	at: PagePosition | undefined;
	skip: number;
	pageUrl: string;
	received: number;
	sent: number;
	sentOverall: number;
	announced?: number;
}

/** The request for a page. */
export function requestFor(
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

/** Counts a page: the first total announced, the records not returned before, and a Limit's share. */
export function takePage(paging: Paging, records: unknown[], meta: IDataObject) {
	const { skip, received, sentOverall, maxRecords } = paging;
	if (paging.announced === undefined && typeof meta.total === 'number' && meta.total >= 0)
		paging.announced = meta.total;
	const fresh = skip > 0 ? records.slice(skip) : records;
	paging.sent += fresh.length;
	paging.sentOverall += fresh.length;
	const take = maxRecords === undefined ? fresh : fresh.slice(0, maxRecords - received);
	paging.received += take.length;
	const { announced, sent } = paging;
	const counts = { announced, sent, sentOverall: paging.sentOverall, before: sentOverall };
	return { fresh, take, broken: boundBroken(counts, paging.pageSize) };
}

/** The first endless-list bound broken: past the announced total, past memory, past an unannounced list. */
export function boundBroken(
	counts: { announced?: number; sent: number; sentOverall: number; before: number },
	pageSize: number,
): string | undefined {
	const { announced, sent, sentOverall, before } = counts;
	if (announced !== undefined && sentOverall > announcedBound(announced, pageSize))
		return `the service announced ${announced} records but goes on past ${before}; narrow the list with Query Parameters or use a Limit`;
	if (sent > MAX_RECORDS)
		return `more than ${MAX_RECORDS} records would be held in memory at once; narrow the list with Query Parameters, use a Limit or Page at a Time`;
	if (announced === undefined && sentOverall > MAX_UNANNOUNCED_RECORDS)
		return `the service announced no total and the list goes on past ${MAX_UNANNOUNCED_RECORDS} records; narrow the list with Query Parameters`;
	return undefined;
}

/** The URL a link names; the link itself when it is no URL (serviceRequest refuses it). */
export function absolute(url: string, relativeTo: string): string {
	return URL.canParse(url, relativeTo) ? new URL(url, relativeTo).href : url;
}

export function decodedOnce(text: string): string {
	try {
		return decodeURIComponent(text.replace(/\+/g, ' '));
	} catch {
		return text;
	}
}

/** A link without its fragment and any query parameter holding a secret: the token goes in a header only. */
export function withoutSecrets(link: string, forms: readonly string[]): string {
	if (!URL.canParse(link)) return link;
	const url = new URL(link);
	const holdsSecret = (part: string) => part.includes(PLACEHOLDER) || redact(part, forms) !== part;
	url.search = url.search
		.slice(1)
		.split('&')
		.filter((pair) => pair !== '' && !holdsSecret(pair) && !holdsSecret(decodedOnce(pair)))
		.join('&');
	url.hash = '';
	return url.href;
}

/** The position a cursor names for this list, checked as input (a link as a nextLink is) before anything is sent. */
export function resumeAt(
	start: ListStart,
	batch: { cursor: string; field: string },
	refuse: (message: string) => never,
): ListPosition {
	const decoded = decodeCursor(batch.cursor, start.listId);
	if ('refused' in decoded) return refuse(`${batch.field}: ${decoded.refused}`);
	const { position } = decoded;
	if (!('link' in position.at) || start.base === undefined) return position;
	const target = sameListUrl(position.at.link, start.firstUrl, start.base, start.listPath);
	if ('refused' in target)
		refuse(
			`${batch.field}: names a page on another origin (${target.refused}); it is not followed with your token`,
		);
	if ('otherList' in target)
		refuse(
			`${batch.field}: names a page of another list (${target.otherList}); it is not followed`,
		);
	return { ...position, at: { link: withoutSecrets(target.url, start.forms) } };
}

const textOf = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * The page after this one: the service's nextLink (a page of this list, without secrets), else its
 * `next` cursor, else the next offset; undefined when the list has no more pages.
 */
export function pageAfter(paging: Paging, meta: IDataObject, count: number, limit: number) {
	const { start, at, pageUrl, loops, stop } = paging;
	const written = textOf(meta.nextLink);
	const next = textOf(meta.next);
	if (written !== undefined) {
		if (!URL.canParse(written, pageUrl))
			stop('the service gave a next-page link that is not a URL');
		// Another origin is refused by serviceRequest when the link is followed.
		const target = start.base && sameListUrl(written, pageUrl, start.base, start.listPath);
		if (target && 'otherList' in target)
			paging.refuse(
				`The service pointed to a next page of another list (${target.otherList}); it is not followed`,
			);
		const link = withoutSecrets(new URL(written, pageUrl).href, start.forms);
		loops.add(`link:${link}`);
		return { link };
	}
	if (next !== undefined) {
		loops.add(`next:${next}`);
		return { next };
	}
	if (at === undefined || !('offset' in at)) return undefined;
	// The service must say it served the offset asked for; we move on ourselves.
	if (typeof meta.offset === 'number' && meta.offset !== at.offset)
		stop(`the service answered offset ${meta.offset} when asked for offset ${at.offset}`);
	const offset = at.offset + count;
	const more = typeof meta.total === 'number' ? offset < meta.total : count >= limit;
	return more ? { offset } : undefined;
}
