/**
 * The pager's steps between two pages (paging.ts `serviceRequestPages`), pure: which page to ask for
 * and how many records, what of a page is taken and counted, which endless-list bound it breaks, and
 * where a batch that ends inside a page continues. No n8n context: unit tests call them directly.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ListPosition, PagePosition } from './cursor';
import type { ListStart } from './nextPage';
import type { ServiceRequest } from './request';

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

/** How much of the list paging wants, and how it pages. */
export interface ListAmount {
	/** How many records at most; undefined means all. */
	maxRecords?: number;
	pageSize: number;
}

/** Where paging is in a list: what it has returned and counted, and the page it asks for next. */
export interface PagingState {
	/** Records handed on (a Limit's share). */
	received: number;
	/** Records the service sent in this run, before a Limit takes its share: what memory counts. */
	sent: number;
	/** Records the service sent for this list over every batch: what the announced total bounds. */
	sentOverall: number;
	/** The total the list's first page announced. */
	announced?: number;
	/** The page to ask for (undefined: the service's own link to the list, as it is). */
	at: PagePosition | undefined;
	/** Records of that page returned already (a batch that ended inside it). */
	skip: number;
	/** The URL of that page: a relative nextLink is read against it. */
	pageUrl: string;
}

/** Paging at the list's start, or where a Page at a Time cursor says. */
export function firstState(
	start: ListStart,
	resume: ListPosition | undefined,
	named: boolean,
): PagingState {
	return {
		received: 0,
		sent: 0,
		sentOverall: resume?.sent ?? 0,
		announced: resume?.announced,
		at: resume?.at ?? (named ? undefined : { offset: 0 }),
		skip: resume?.skip ?? 0,
		pageUrl: resume && 'link' in resume.at ? resume.at.link : start.firstUrl,
	};
}

/** How many records to ask the next page for: a page, or what a Limit still needs (and those to skip). */
export function pageLimit(list: ListAmount, state: PagingState): number {
	const remaining =
		list.maxRecords === undefined ? list.pageSize : list.maxRecords - state.received;
	return Math.min(list.pageSize, remaining + state.skip);
}

/** The page to send for a position: the service's own link to the list (`at` undefined) as it is. */
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

/** A page's records as paging counts them: those not returned before, and a Limit's share of them. */
export interface PageTake {
	/** The page's records after those a batch returned already. */
	fresh: unknown[];
	/** What is handed on. */
	take: unknown[];
	/** The state with this page counted. */
	state: PagingState;
	/** The endless-list bound this page breaks, if any: paging stops with it. */
	broken?: string;
}

/** Counts a page: the total it announces (the first one that does), its fresh records and a Limit's share. */
export function takePage(
	list: ListAmount,
	state: PagingState,
	records: unknown[],
	meta: IDataObject,
): PageTake {
	// Paging ends before memory does: past what the first page announced, or past MAX_RECORDS.
	const announced =
		state.announced === undefined && typeof meta.total === 'number' && meta.total >= 0
			? meta.total
			: state.announced;
	const fresh = state.skip > 0 ? records.slice(state.skip) : records;
	const sent = state.sent + fresh.length;
	const sentOverall = state.sentOverall + fresh.length;
	const broken = boundBroken(
		{ announced, sent, sentOverall, before: state.sentOverall },
		list.pageSize,
	);
	const take =
		list.maxRecords === undefined ? fresh : fresh.slice(0, list.maxRecords - state.received);
	const received = state.received + take.length;
	return { fresh, take, broken, state: { ...state, announced, sent, sentOverall, received } };
}

/** The endless-list bounds after a page (an announced total, memory, a list read batch by batch): the first one broken. */
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

/** Whether a Limit has all it asked for. */
export function limitReached(list: ListAmount, state: PagingState): boolean {
	return list.maxRecords !== undefined && state.received >= list.maxRecords;
}

/**
 * Where a batch that ends inside a page continues: an offset moves past what was taken; a cursor or
 * a link names the same page again, with the records already returned to skip.
 */
export function positionInPage(
	at: PagePosition,
	skip: number,
	taken: number,
): { at: PagePosition; skip: number } {
	return 'offset' in at
		? { at: { offset: at.offset + taken }, skip: 0 }
		: { at, skip: skip + taken };
}
