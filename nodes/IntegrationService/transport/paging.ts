import type { IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { endpointUrl, hostBaseUrl, sameListUrl } from '../../shared/service';
import type { ListStart, LoopMemory, PagePosition } from './cursor';
import {
	decodedOnce,
	encodeCursor,
	listDigest,
	MAX_TEXT,
	newLoopMemory,
	resumeAt,
	withoutSecrets,
} from './cursor';
import type { ServiceRequest } from './request';
import { connectionIdOf, runCredentials, runForms, serviceRequest } from './request';
import type { ServiceContext, ServiceRun } from './run';

/**
 * A list request without paging parameters (with `link`: a list the service named, paged by nextLink
 * only); `maxRecords` undefined means all; `recordsKey` names the page's list or finds it, given the
 * last segment of the list's path (the catalogue's recordsOf); `batch` (Page at a Time) starts where `cursor` says
 * ('' = the start), and `field` names it in errors.
 */
export interface PageRequest {
	request: ServiceRequest;
	maxRecords?: number;
	pageSize: number;
	recordsKey: string | ((page: IDataObject, listName: string | undefined) => unknown);
	batch?: { cursor: string; field: string };
}

/** `nextCursor`: Page at a Time's next batch; undefined when the list has ended. */
export type PagingResult = { received: number; nextCursor?: string };

/** After a list's pages could not be followed: only reads were sent, and the input is not at fault. */
export const LIST_NEXT_STEP =
	"Only reads were sent, nothing was changed; the service's pages of this list cannot be followed, so calling again unchanged will fail the same way: ask for fewer records (a Limit or narrower filters), or tell the user.";

/** Services of this kind cap a page at 100 records; the page size asked for by default. */
export const MAX_PAGE_SIZE = 100;

/** Return All holds every record in memory (about 4 KB each): a longer list is stopped before n8n runs out. */
export const MAX_RECORDS = 250_000;
/** Page at a Time holds one batch: a list that announces no total is stopped past this many over all batches. */
export const MAX_UNANNOUNCED_RECORDS = 10_000_000;

/** Records created while a list is read: pages may bring a tenth more than announced (at least a page). */
export function announcedBound(total: number, pageSize: number): number {
	return total + Math.max(pageSize, Math.ceil(total / 10));
}

/** One list being read: where it is, the records handed on, sent in this run and sent over all batches. */
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

function listStart(credentials: IDataObject, request: ServiceRequest, run: ServiceRun): ListStart {
	const host = hostBaseUrl(credentials, request.host);
	const base = 'base' in host ? host.base : undefined;
	const { link } = request;
	const first = base === undefined ? undefined : endpointUrl(base, request.path);
	let firstUrl = first && 'url' in first ? first.url : '';
	// A link that is no URL is kept as it is: serviceRequest refuses it.
	if (link)
		firstUrl = URL.canParse(link.url, link.relativeTo)
			? new URL(link.url, link.relativeTo).href
			: link.url;
	const listPath = URL.canParse(firstUrl) ? new URL(firstUrl).pathname : '';
	const last = link
		? decodedOnce(listPath.slice(listPath.lastIndexOf('/') + 1))
		: request.path.map((segment) => (typeof segment === 'string' ? segment : segment.id)).pop();
	const listId = listDigest(request, base ?? '', connectionIdOf(request, credentials).trim());
	const forms = runForms(run, credentials);
	return { firstUrl, listPath, listName: last === '' ? undefined : last, base, listId, forms };
}

/** A list page by page (nextLink, else `next`, else offsets) until it ends or a loop or bound stops it. */
export async function serviceRequestPages(
	this: ServiceContext,
	itemIndex: number,
	list: PageRequest,
	run: ServiceRun,
	onPage: (records: IDataObject[], page: IDataObject) => void,
): Promise<PagingResult> {
	const fail = (message: string, input = false, afterReads = true) =>
		pagingError(this, itemIndex, message, input, afterReads);
	const stop = (why: string) => fail(`Paging stopped: ${why}`);
	const { batch, maxRecords, pageSize, recordsKey } = list;
	const start = listStart(await runCredentials(this, run, itemIndex), list.request, run);
	const refuse = (message: string) => fail(message, true, false);
	const resume = batch && batch.cursor !== '' ? resumeAt(start, batch, refuse) : undefined;
	const paging: Paging = {
		start,
		pageSize,
		maxRecords,
		loops: newLoopMemory(resume, stop),
		stop,
		refuse: (message) => fail(message, true),
		received: 0,
		sent: 0,
		at: resume?.at ?? (list.request.link ? undefined : { offset: 0 }),
		skip: resume?.skip ?? 0,
		pageUrl: resume && 'link' in resume.at ? resume.at.link : start.firstUrl,
		sentOverall: resume?.sent ?? 0,
		announced: resume?.announced,
	};
	for (let pages = 1; ; pages++) {
		const { at, skip } = paging;
		const wanted = maxRecords === undefined ? pageSize : maxRecords - paging.received;
		const limit = Math.min(pageSize, wanted + skip);
		if (at !== undefined && 'link' in at) paging.pageUrl = at.link;
		const page = await serviceRequest
			.call(this, itemIndex, requestFor(list.request, start, at, limit), run)
			.catch((error: unknown) => laterPageRefused(error, pages));
		const records =
			typeof recordsKey === 'function' ? recordsKey(page, start.listName) : page[recordsKey];
		if (records === page && pages === 1 && !resume) {
			onPage([page], page);
			return { received: 1 };
		}
		if (!Array.isArray(records)) {
			const what = typeof recordsKey === 'string' ? `"${recordsKey}"` : 'records';
			return fail(`The service's answer has no ${what} list`);
		}
		const meta = (page._metadata ?? {}) as IDataObject;
		const { fresh, take } = takePage(paging, records, meta);
		onPage(take as IDataObject[], page);
		const { received } = paging;
		const done = maxRecords !== undefined && received >= maxRecords;
		if (records.length === 0 || (done && !batch)) return { received };
		if (done && take.length < fresh.length && at !== undefined) {
			// The batch ends inside this page: past the offset, or the same page with more to skip.
			const sent = paging.sentOverall - (fresh.length - take.length);
			const next = 'offset' in at ? { offset: at.offset + take.length } : at;
			const nextSkip = 'offset' in at ? 0 : skip + take.length;
			return { received, nextCursor: cursorOf(paging, next, nextSkip, sent) };
		}
		paging.loops.page(records as IDataObject[]);
		const after = pageAfter(paging, meta, records.length, limit);
		if (done || after === undefined) {
			const nextCursor = batch && after && cursorOf(paging, after, 0, paging.sentOverall);
			return { received, nextCursor };
		}
		paging.at = after;
		paging.skip = 0;
	}
}

/** A later page refused (400, 404…): the values were good for the first page. */
function laterPageRefused(error: unknown, pages: number): never {
	const { httpCode, context } = error as { httpCode?: string; context?: IDataObject };
	const status = Number(httpCode);
	const refused = status >= 400 && status < 500 && ![401, 403, 429].includes(status);
	if (pages > 1 && refused && context && typeof context === 'object')
		context.nextStep = LIST_NEXT_STEP;
	throw error;
}

/** `input` (a cursor) is refused before anything is sent; `afterReads`: only GETs were sent. */
function pagingError(
	ctx: ServiceContext,
	itemIndex: number,
	message: string,
	input: boolean,
	afterReads: boolean,
): never {
	const error = input
		? new NodeOperationError(ctx.getNode(), message, { itemIndex })
		: new NodeApiError(ctx.getNode(), { message } as JsonObject, { message, itemIndex });
	if (afterReads) error.context.nextStep = LIST_NEXT_STEP;
	throw error;
}

/** The Page at a Time cursor of a position; never one that would be refused when it comes back. */
function cursorOf(paging: Paging, at: PagePosition, skip: number, sent: number): string {
	const { listId: list } = paging.start;
	const { announced } = paging;
	const cursor = encodeCursor({ list, at, skip, sent, announced, ...paging.loops.carried() });
	if (cursor !== undefined) return cursor;
	const what = 'link' in at ? 'link to the next page' : 'next-page cursor';
	const length = 'link' in at ? at.link.length : 'next' in at ? at.next.length : 0;
	return paging.stop(
		`the service's ${what} is ${length} characters long, more than a Page at a Time cursor carries (${MAX_TEXT}), so this list cannot be continued batch by batch; Return All or a Limit reads it in one run`,
	);
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

/** Counts a page (its new records, a Limit's share); past the announced total or a bound, stops the list. */
export function takePage(paging: Paging, records: unknown[], meta: IDataObject) {
	const { skip, received, sentOverall: before, maxRecords } = paging;
	if (paging.announced === undefined && typeof meta.total === 'number' && meta.total >= 0)
		paging.announced = meta.total;
	const fresh = skip > 0 ? records.slice(skip) : records;
	paging.sent += fresh.length;
	paging.sentOverall += fresh.length;
	const take = maxRecords === undefined ? fresh : fresh.slice(0, maxRecords - received);
	paging.received += take.length;
	const { announced, sent, sentOverall, stop } = paging;
	if (announced !== undefined && sentOverall > announcedBound(announced, paging.pageSize))
		stop(
			`the service announced ${announced} records but goes on past ${before}; narrow the list with Query Parameters or use a Limit`,
		);
	if (sent > MAX_RECORDS)
		stop(
			`more than ${MAX_RECORDS} records would be held in memory at once; narrow the list with Query Parameters, use a Limit or Page at a Time`,
		);
	if (announced === undefined && sentOverall > MAX_UNANNOUNCED_RECORDS)
		stop(
			`the service announced no total and the list goes on past ${MAX_UNANNOUNCED_RECORDS} records; narrow the list with Query Parameters`,
		);
	return { fresh, take };
}

const textOf = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** The page after this one, if any: the nextLink (without secrets), else `next`, else the next offset. */
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
		loops.cursor(`link:${link}`);
		return { link };
	}
	if (next !== undefined) {
		loops.cursor(`next:${next}`);
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
