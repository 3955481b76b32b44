import type { IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { LIST_KEYS } from '../../shared/catalogue';
import { endpointUrl, hostBaseUrl } from '../../shared/service';
import type { ServiceContext } from './attempt';
import type { PagePosition } from './cursor';
import { digest, encodeCursor, MAX_TEXT } from './cursor';
import { secretForms } from './secrets';
import type { ListStart, LoopMemory } from './nextPage';
import { absolute, decodedOnce, newLoopMemory, pageAfter, resumeAt } from './nextPage';
import type { PagingState } from './pageSteps';
import {
	firstState,
	limitReached,
	pageLimit,
	positionInPage,
	requestFor,
	takePage,
} from './pageSteps';
import type { ServiceRequest } from './request';
import { connectionIdOf, runCredentials, serviceRequest } from './request';
import type { ServiceRun } from './run';

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

/**
 * The next step after a list's answers could not be followed (a page served again, more records than
 * announced, no list in the answer, a link too long to continue from): only reads were sent.
 */
export const LIST_NEXT_STEP =
	"Only reads were sent, nothing was changed; the service's pages of this list cannot be followed, so calling again unchanged will fail the same way: ask for fewer records (a Limit or narrower filters), or tell the user.";

/** decisions.md: services of this kind cap a page at 100 records; the page size asked for by default. */
export const MAX_PAGE_SIZE = 100;

export { announcedBound, MAX_RECORDS, MAX_UNANNOUNCED_RECORDS } from './pageSteps';

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
 * carrying the loop and progress rules from batch to batch. Each step between pages is in pageSteps.ts.
 */
export async function serviceRequestPages(
	this: ServiceContext,
	itemIndex: number,
	list: PageRequest,
	run: ServiceRun,
	/** Each page's records (a Limit's share of them) and the page as the service sent it. */
	onPage: (records: IDataObject[], page: IDataObject) => void,
): Promise<PagingResult> {
	const { stop, refuse, refuseAfterReads, failAfterReads } = pagingErrors(this, itemIndex);
	const { batch } = list;
	const start = listStart(await runCredentials(this, run, itemIndex), list.request);
	const resume = batch && batch.cursor !== '' ? resumeAt(start, batch, refuse) : undefined;
	const loops = newLoopMemory(resume, Boolean(batch), stop);
	const cursorFor = (
		state: PagingState,
		position: { at: PagePosition; skip: number },
		sent: number,
	) => (batch ? cursorOf(start, state, position, sent, loops, stop) : undefined);
	let state = firstState(start, resume, Boolean(list.request.link));
	for (let pages = 1; ; pages++) {
		const limit = pageLimit(list, state);
		const { at, skip } = state;
		if (at !== undefined && 'link' in at) state = { ...state, pageUrl: at.link };
		const pageRequest = requestFor(list.request, start, at, limit);
		const page = await serviceRequest
			.call(this, itemIndex, pageRequest, run)
			.catch((error: unknown) => laterPageRefused(error, pages));
		const records = recordsIn(list, page, start.listName);
		if (records === page && pages === 1 && !resume) {
			// Not a page of a list: the answer is one record, and there is no further page to ask for.
			onPage([page], page);
			return { received: 1 };
		}
		if (!Array.isArray(records)) {
			const what = typeof list.recordsKey === 'string' ? `"${list.recordsKey}"` : 'records';
			return failAfterReads(`The service's answer has no ${what} list`);
		}
		const meta = (page._metadata ?? {}) as IDataObject;
		const counted = takePage(list, state, records, meta);
		if (counted.broken !== undefined) stop(counted.broken);
		const { fresh, take } = counted;
		state = counted.state;
		onPage(take as IDataObject[], page);
		const done = limitReached(list, state);
		if (records.length === 0 || (done && !batch)) break;
		if (done && take.length < fresh.length && at !== undefined) {
			// The batch ends inside this page: the next one starts at its first record not returned.
			const sent = state.sentOverall - (fresh.length - take.length);
			return {
				received: state.received,
				nextCursor: cursorFor(state, positionInPage(at, skip, take.length), sent),
			};
		}
		loops.progress(records as IDataObject[], pages === 1 && skip === 0);
		const { pageUrl } = state;
		const after = pageAfter(
			{ start, meta, at, pageUrl, count: records.length, limit },
			loops,
			stop,
			refuseAfterReads,
		);
		if (done || after === undefined) {
			const nextCursor = after && cursorFor(state, { at: after, skip: 0 }, state.sentOverall);
			return { received: state.received, nextCursor };
		}
		state = { ...state, at: after, skip: 0 };
	}
	return { received: state.received };
}

/**
 * A later page the service refuses (400, 404…): the values were good for the first page and only
 * reads were sent, so a model is told that, not to correct its values or an ID.
 */
function laterPageRefused(error: unknown, pages: number): never {
	const { httpCode, context } = error as { httpCode?: string; context?: IDataObject };
	const status = Number(httpCode);
	const refused = status >= 400 && status < 500 && ![401, 403, 429].includes(status);
	if (pages > 1 && refused && context && typeof context === 'object')
		context.nextStep = LIST_NEXT_STEP;
	throw error;
}

/**
 * How paging fails: `refuse` before anything is sent (a cursor given: the input is wrong), the rest
 * after pages were read (only GETs sent), which a model must not take for an input to correct.
 */
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

/** The records of a page: under the list's key, or as the list's finder says. */
function recordsIn(list: PageRequest, page: IDataObject, listName: string | undefined): unknown {
	return typeof list.recordsKey === 'function'
		? list.recordsKey(page, listName)
		: page[list.recordsKey];
}

/** The Page at a Time cursor of a position: the list, where it continues, its counts and loop memory. */
function cursorOf(
	start: ListStart,
	state: PagingState,
	position: { at: PagePosition; skip: number },
	sentSoFar: number,
	loops: LoopMemory,
	stop: (why: string) => never,
): string {
	const { announced } = state;
	const cursor = encodeCursor({
		list: start.listId,
		...position,
		sent: sentSoFar,
		...(announced === undefined ? {} : { announced }),
		...loops.carried(),
	});
	if (cursor !== undefined) return cursor;
	// Never a cursor that would be refused when it comes back: the list ends here, and says why.
	const { at } = position;
	const what = 'link' in at ? 'link to the next page' : 'next-page cursor';
	const length = 'link' in at ? at.link.length : 'next' in at ? at.next.length : 0;
	return stop(
		`the service's ${what} is ${length} characters long, more than a Page at a Time cursor carries (${MAX_TEXT}), so this list cannot be continued batch by batch; Return All or a Limit reads it in one run`,
	);
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
export function recordsOf(
	answer: IDataObject,
	listName?: string,
): IDataObject[] | IDataObject | null {
	const keys = Object.keys(answer);
	if (keys.length === 0) return [];
	// A page that names its list (`_metadata.collection`) and lacks it is no page of records: null, so
	// the pager stops with "no list" rather than take it for the list's end.
	const meta = answer._metadata as IDataObject | undefined;
	const collection = meta && !Array.isArray(meta) ? meta.collection : undefined;
	if (typeof collection === 'string' && collection !== '_metadata') {
		if (Array.isArray(answer[collection])) return answer[collection] as IDataObject[];
		// Named otherwise than its list (a case or spelling of the service's own): the lists below.
		const lists = keys.filter((key) => key !== '_metadata' && Array.isArray(answer[key]));
		if (lists.length === 0) return null;
	}
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
