import type { IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { LIST_KEYS } from '../../shared/catalogue';
import { endpointUrl, hostBaseUrl } from '../../shared/service';
import type { PagePosition } from './cursor';
import { digest, encodeCursor, MAX_TEXT, newLoopMemory } from './cursor';
import type { ListStart, Paging } from './nextPage';
import { absolute, decodedOnce, pageAfter, requestFor, resumeAt, takePage } from './nextPage';
import type { ServiceRequest } from './request';
import { connectionIdOf, runCredentials, runForms, serviceRequest } from './request';
import type { ServiceContext, ServiceRun } from './run';

export { announcedBound, MAX_RECORDS, MAX_UNANNOUNCED_RECORDS } from './nextPage';

/** Finds a page's records, given the last segment of the list's path (recordsOf). */
export type RecordsFinder = (page: IDataObject, listName: string | undefined) => unknown;

/**
 * A list request without paging parameters (with `link`: a list the service named, paged by nextLink
 * only); `maxRecords` undefined means all; `batch` (Page at a Time) starts where `cursor` says ('' =
 * the start), and `field` names it in errors.
 */
export interface PageRequest {
	request: ServiceRequest;
	maxRecords?: number;
	pageSize: number;
	recordsKey: string | RecordsFinder;
	batch?: { cursor: string; field: string };
}

/** `nextCursor`: Page at a Time's next batch; undefined when the list has ended. */
export interface PagingResult {
	received: number;
	nextCursor?: string;
}

/** After a list's pages could not be followed: only reads were sent, and the input is not at fault. */
export const LIST_NEXT_STEP =
	"Only reads were sent, nothing was changed; the service's pages of this list cannot be followed, so calling again unchanged will fail the same way: ask for fewer records (a Limit or narrower filters), or tell the user.";

/** Services of this kind cap a page at 100 records; the page size asked for by default. */
export const MAX_PAGE_SIZE = 100;

function listStart(credentials: IDataObject, request: ServiceRequest, run: ServiceRun): ListStart {
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
	const listId = listDigest(request, base ?? '', connectionIdOf(request, credentials).trim());
	const forms = runForms(run, credentials);
	return { firstUrl, listPath, listName: last === '' ? undefined : last, base, listId, forms };
}

/**
 * A list page by page (nextLink, else `next`, else offsets) until it ends. Paging always ends: a
 * repeated cursor or page, an offset the service did not move to, or an endless-list bound stops it.
 */
export async function serviceRequestPages(
	this: ServiceContext,
	itemIndex: number,
	list: PageRequest,
	run: ServiceRun,
	onPage: (records: IDataObject[], page: IDataObject) => void,
): Promise<PagingResult> {
	const { stop, refuse, refuseAfterReads, failAfterReads } = pagingErrors(this, itemIndex);
	const { batch, maxRecords, pageSize, recordsKey } = list;
	const start = listStart(await runCredentials(this, run, itemIndex), list.request, run);
	const resume = batch && batch.cursor !== '' ? resumeAt(start, batch, refuse) : undefined;
	const paging: Paging = {
		start,
		pageSize,
		maxRecords,
		loops: newLoopMemory(resume, Boolean(batch), stop),
		stop,
		refuse: refuseAfterReads,
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
			return failAfterReads(`The service's answer has no ${what} list`);
		}
		const meta = (page._metadata ?? {}) as IDataObject;
		const { fresh, take, broken } = takePage(paging, records, meta);
		if (broken !== undefined) stop(broken);
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
		paging.loops.progress(records as IDataObject[], pages === 1 && skip === 0);
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

/** `refuse`: a cursor, before anything is sent; the rest after pages were read (only GETs). */
function pagingErrors(ctx: ServiceContext, itemIndex: number) {
	const afterReads = (error: NodeApiError | NodeOperationError): never => {
		error.context.nextStep = LIST_NEXT_STEP;
		throw error;
	};
	const failAfterReads = (message: string): never =>
		afterReads(new NodeApiError(ctx.getNode(), { message } as JsonObject, { message, itemIndex }));
	return {
		stop: (why: string): never => failAfterReads(`Paging stopped: ${why}`),
		failAfterReads,
		refuse: (message: string): never => {
			throw new NodeOperationError(ctx.getNode(), message, { itemIndex });
		},
		refuseAfterReads: (message: string): never =>
			afterReads(new NodeOperationError(ctx.getNode(), message, { itemIndex })),
	};
}

/** The Page at a Time cursor of a position; never one that would be refused when it comes back. */
function cursorOf(paging: Paging, at: PagePosition, skip: number, sent: number): string {
	const { announced } = paging;
	const cursor = encodeCursor({
		list: paging.start.listId,
		at,
		skip,
		sent,
		...(announced === undefined ? {} : { announced }),
		...paging.loops.carried(),
	});
	if (cursor !== undefined) return cursor;
	const what = 'link' in at ? 'link to the next page' : 'next-page cursor';
	const length = 'link' in at ? at.link.length : 'next' in at ? at.next.length : 0;
	return paging.stop(
		`the service's ${what} is ${length} characters long, more than a Page at a Time cursor carries (${MAX_TEXT}), so this list cannot be continued batch by batch; Return All or a Limit reads it in one run`,
	);
}

/** A list's identity in its cursors: other filters, host URL or Connection ID make another list. */
export function listDigest(request: ServiceRequest, base: string, connectionId: string): string {
	const path = request.path.map((segment) => (typeof segment === 'string' ? segment : segment.id));
	const qs = Object.entries(request.qs ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	return digest(
		JSON.stringify([request.method, request.host, base, path, qs, connectionId, request.link?.url]),
	);
}

/**
 * The records of an answer whose list key is not known beforehand: a page (with `_metadata`, a list
 * named as the path ends, or only a catalogue list) has them under that name, a catalogue key or its
 * first list; anything else is one record, returned as it is.
 */
export function recordsOf(
	answer: IDataObject,
	listName?: string,
): IDataObject[] | IDataObject | null {
	const keys = Object.keys(answer);
	if (keys.length === 0) return [];
	const lists = keys.filter((key) => key !== '_metadata' && Array.isArray(answer[key]));
	// A page that names its list and lacks every list is no page of records: the pager says "no list".
	const meta = answer._metadata as IDataObject | undefined;
	const collection = meta && !Array.isArray(meta) ? meta.collection : undefined;
	if (typeof collection === 'string' && collection !== '_metadata') {
		if (Array.isArray(answer[collection])) return answer[collection] as IDataObject[];
		if (lists.length === 0) return null;
	}
	const named = listName !== undefined && Array.isArray(answer[listName]);
	const onlyKnown = keys.length === 1 && LIST_KEYS.includes(keys[0]) && lists.length === 1;
	if (!(meta !== undefined || named || onlyKnown)) return answer;
	if (named) return answer[listName as string] as IDataObject[];
	const key = LIST_KEYS.find((known) => Array.isArray(answer[known])) ?? lists[0];
	return key === undefined ? [] : (answer[key] as IDataObject[]);
}
