/** The pager's steps between two pages (paging.ts), pure: which page, how many records, the bounds. */
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

export interface ListAmount {
	maxRecords?: number;
	pageSize: number;
}

/**
 * Where paging is: records handed on (`received`), sent by the service in this run (what memory
 * counts) and over every batch (what a total bounds); the page to ask for (none: the list's own
 * link), its records returned already and its URL, which a relative nextLink is read against.
 */
export interface PagingState {
	received: number;
	sent: number;
	sentOverall: number;
	announced?: number;
	at: PagePosition | undefined;
	skip: number;
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

/** How many records to ask the next page for: a page, or what a Limit still needs plus those to skip. */
export function pageLimit(list: ListAmount, state: PagingState): number {
	const remaining =
		list.maxRecords === undefined ? list.pageSize : list.maxRecords - state.received;
	return Math.min(list.pageSize, remaining + state.skip);
}

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
export function takePage(
	list: ListAmount,
	state: PagingState,
	records: unknown[],
	meta: IDataObject,
): { fresh: unknown[]; take: unknown[]; state: PagingState; broken?: string } {
	const announced =
		state.announced === undefined && typeof meta.total === 'number' && meta.total >= 0
			? meta.total
			: state.announced;
	const fresh = state.skip > 0 ? records.slice(state.skip) : records;
	const sent = state.sent + fresh.length;
	const sentOverall = state.sentOverall + fresh.length;
	const counts = { announced, sent, sentOverall, before: state.sentOverall };
	const broken = boundBroken(counts, list.pageSize);
	const take =
		list.maxRecords === undefined ? fresh : fresh.slice(0, list.maxRecords - state.received);
	const received = state.received + take.length;
	return { fresh, take, broken, state: { ...state, announced, sent, sentOverall, received } };
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

export function limitReached(list: ListAmount, state: PagingState): boolean {
	return list.maxRecords !== undefined && state.received >= list.maxRecords;
}

/** Where a batch that ends inside a page continues: past the offset, or the same page with more to skip. */
export function positionInPage(
	at: PagePosition,
	skip: number,
	taken: number,
): { at: PagePosition; skip: number } {
	return 'offset' in at
		? { at: { offset: at.offset + taken }, skip: 0 }
		: { at, skip: skip + taken };
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
export function pageAfter(
	page: {
		start: ListStart;
		meta: IDataObject;
		at: PagePosition | undefined;
		pageUrl: string;
		count: number;
		limit: number;
	},
	loops: LoopMemory,
	stop: (why: string) => never,
	refuse: (message: string) => never,
): PagePosition | undefined {
	const { start, meta, at, pageUrl, count, limit } = page;
	const written = textOf(meta.nextLink);
	const next = textOf(meta.next);
	if (written !== undefined) {
		if (!URL.canParse(written, pageUrl))
			stop('the service gave a next-page link that is not a URL');
		// Another origin is refused by serviceRequest when the link is followed.
		const target = start.base && sameListUrl(written, pageUrl, start.base, start.listPath);
		if (target && 'otherList' in target)
			refuse(
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
