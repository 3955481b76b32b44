/**
 * Which page continues a list (paging.ts): the service's nextLink, only as a page of the same list and
 * without secrets, else its `next` cursor, else the next offset; a Page at a Time cursor's link,
 * checked the same way; and the loop rule, every next-page cursor at most once, across batches too.
 */
import type { IDataObject } from 'n8n-workflow';

import { sameListUrl } from '../../shared/service';
import type { ListPosition, LoopCheck, PagePosition } from './cursor';
import { decodeCursor, digest, SEEN_KEPT } from './cursor';
import { redact } from './secrets';

/** Where a list starts and what it is, with the credential this run uses. */
export interface ListStart {
	/** The first page's URL (an event's uri as given); '' when the host URL cannot be used. */
	firstUrl: string;
	/** The first page's path: every link that continues the list must name it. */
	listPath: string;
	/** The last segment of that path: a key the answer's list may be under (recordsOf). */
	listName?: string;
	/** The host's base URL, unless the credential's is unusable (serviceRequest then says why). */
	base?: string;
	/** The list's identity in its cursors. */
	listId: string;
	/** The credential's secrets in every form. */
	forms: readonly string[];
}

/** The URL a link names; the link itself when it is no URL (the transport refuses it before sending). */
export function absolute(url: string, relativeTo: string): string {
	try {
		return new URL(url, relativeTo).href;
	} catch {
		return url;
	}
}

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The loop check of a list not read yet: no checkpoint, which the first next-page cursor sets. */
export const FIRST_LOOP_CHECK: LoopCheck = { steps: 0, power: 1 };

/**
 * Brent's cycle detection, one next-page cursor (its digest) at a time, carried from batch to batch:
 * 'loop' when the cursor is the checkpoint, else the check with it counted. The checkpoint moves to
 * the latest cursor each time the count reaches a power of two that then doubles, so a loop of any
 * length L after any tail T is caught within about 2·max(L, T) + L cursors, with constant state.
 */
export function loopStep(check: LoopCheck, cursor: string): LoopCheck | 'loop' {
	if (check.mark === cursor) return 'loop';
	const steps = check.steps + 1;
	return steps >= check.power
		? { mark: cursor, steps: 0, power: check.power * 2 }
		: { ...check, steps };
}

/** What errors.ts puts in place of a secret: a value the transport redacted already is one too. */
const REDACTED = '[redacted]';

export function decodedOnce(text: string): string {
	try {
		return decodeURIComponent(text.replace(/\+/g, ' '));
	} catch {
		return text;
	}
}

/**
 * An absolute link without its fragment and without every query parameter that holds a secret (the
 * credential's in any form, a bearer token or JWT, or `[redacted]`), as written or decoded: the token
 * goes in the Authorization header only, never in a URL we send or a cursor we output.
 */
export function withoutSecrets(link: string, forms: readonly string[]): string {
	let url: URL;
	try {
		url = new URL(link);
	} catch {
		return link;
	}
	const holdsSecret = (part: string) => part.includes(REDACTED) || redact(part, forms) !== part;
	url.search = url.search
		.slice(1)
		.split('&')
		.filter((pair) => {
			if (pair === '' || holdsSecret(pair)) return false;
			const decoded = decodedOnce(pair);
			// Most pairs (limit=100) read the same decoded: checked once.
			return decoded === pair || !holdsSecret(decoded);
		})
		.join('&');
	url.hash = '';
	return url.href;
}

/** The position a cursor names for this list, checked as input before anything is sent. */
export function resumeAt(
	start: ListStart,
	batch: { cursor: string; field: string },
	refuse: (message: string) => never,
): ListPosition {
	const decoded = decodeCursor(batch.cursor, start.listId);
	if ('refused' in decoded) return refuse(`${batch.field}: ${decoded.refused}`);
	const { position } = decoded;
	if (!('link' in position.at) || start.base === undefined) return position;
	// A cursor is input: the page it names is checked as a nextLink is, and loses what holds a secret.
	const target = sameListUrl(position.at.link, start.firstUrl, start.base, start.listPath);
	if ('refused' in target) {
		return refuse(
			`${batch.field}: names a page on another origin (${target.refused}); it is not followed with your token`,
		);
	}
	if ('otherList' in target) {
		return refuse(
			`${batch.field}: names a page of another list (${target.otherList}); it is not followed`,
		);
	}
	return { ...position, at: { link: withoutSecrets(target.url, start.forms) } };
}

/** What paging has seen: what stops a loop, in this run and (carried by the cursor) across batches. */
export interface LoopMemory {
	/** Counts one more next-page cursor; stops paging when it was seen before. */
	add(key: string): void;
	/**
	 * Stops paging when a page brings no record not seen on an earlier page of this run, or (the first
	 * page of a batch) is the last page of the batch before, or (Brent's check over the pages' ids,
	 * carried) repeats an earlier page of the list (records without an id are not compared).
	 */
	progress(records: IDataObject[], firstOfBatch: boolean): void;
	/** What a cursor carries of it. */
	carried(): Pick<ListPosition, 'seen' | 'loop' | 'lastPage' | 'pageLoop'>;
}

export function newLoopMemory(
	resume: ListPosition | undefined,
	batch: boolean,
	stop: (why: string) => never,
): LoopMemory {
	const seen = new Set<string>();
	const seenIds = new Set<string>();
	let carried = [...(resume?.seen ?? [])];
	let check = resume?.loop ?? FIRST_LOOP_CHECK;
	let lastPage = resume?.lastPage;
	let pageCheck = resume?.pageLoop ?? FIRST_LOOP_CHECK;
	const again = 'the service returned the same records again (it does not move to the next page)';
	return {
		add(key) {
			const keyDigest = digest(key);
			const step = loopStep(check, keyDigest);
			if (seen.has(key) || carried.includes(keyDigest) || step === 'loop')
				stop('the service returned the same next-page cursor twice');
			seen.add(key);
			check = step;
			if (batch) carried = [...carried, keyDigest].slice(-SEEN_KEPT);
		},
		progress(records, firstOfBatch) {
			// One pass over the page: its ids, and whether every one was seen before.
			const ids: string[] = [];
			let allSeen = true;
			for (const record of records) {
				const id = record?.id;
				if (typeof id !== 'string' && typeof id !== 'number') continue;
				const key = String(id);
				ids.push(key);
				if (allSeen && !seenIds.has(key)) allSeen = false;
			}
			const allHaveIds = ids.length === records.length;
			if (allHaveIds && allSeen) stop(again);
			for (const id of ids) seenIds.add(id);
			if (batch && allHaveIds) {
				const pageDigest = digest(ids.join('\u0000'));
				if (firstOfBatch && pageDigest === lastPage) stop(again);
				// Fresh links around the same pages: the pages' ids repeat with the loop's period.
				const step = loopStep(pageCheck, pageDigest);
				if (step === 'loop') stop(again);
				lastPage = pageDigest;
				pageCheck = step;
			}
		},
		carried: () => ({
			seen: carried,
			loop: check,
			...(lastPage === undefined ? {} : { lastPage }),
			pageLoop: pageCheck,
		}),
	};
}

/**
 * The page after this one: by the service's nextLink (checked to be a page of this list, and without
 * secrets), else its `next` cursor, else by offset; undefined when the list has no more pages.
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
	const written = text(meta.nextLink);
	const next = text(meta.next);
	if (written !== undefined) {
		if (!URL.canParse(written, pageUrl))
			stop('the service gave a next-page link that is not a URL');
		const target =
			start.base === undefined
				? undefined
				: sameListUrl(written, pageUrl, start.base, start.listPath);
		// A link to another origin is refused by serviceRequest when it is followed (or in a cursor).
		if (target && 'otherList' in target) {
			refuse(
				`The service pointed to a next page of another list (${target.otherList}); it is not followed`,
			);
		}
		const link = withoutSecrets(absolute(written, pageUrl), start.forms);
		loops.add(`link:${link}`);
		return { link };
	}
	if (next !== undefined) {
		loops.add(`next:${next}`);
		return { next };
	}
	if (at !== undefined && 'offset' in at) {
		// Offset paging: the service must say it served the offset we asked for, and we move on ourselves.
		if (typeof meta.offset === 'number' && meta.offset !== at.offset) {
			stop(`the service answered offset ${meta.offset} when asked for offset ${at.offset}`);
		}
		const offset = at.offset + count;
		const total = typeof meta.total === 'number' ? meta.total : undefined;
		if (total !== undefined ? offset < total : count >= limit) return { offset };
	}
	// Otherwise a service that paged by cursor and gives none now has no more pages; a named list pages by link only.
	return undefined;
}
