import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { sameListUrl } from '../../shared/service';
import { jsonOf } from './answer';
import type { ServiceRequest } from './request';
import { PLACEHOLDER, redact } from './secrets';

/** Page at a Time: where a list continues, as an opaque string; it is input, so only our exact shape decodes. */

export type PagePosition = { offset: number } | { next: string } | { link: string };

/** Brent's cycle check: a checkpoint's digest (none before the first), steps since it, and its power of two. */
interface LoopCheck {
	mark?: string;
	steps: number;
	power: number;
}

/** `skip`: records of the page at `at` returned already; `seen`: the latest next-page cursors' digests. */
export interface ListPosition {
	list: string;
	at: PagePosition;
	skip: number;
	sent: number;
	announced?: number;
	seen: string[];
	loop: LoopCheck;
	/** Digest of the ids of the last page read, and Brent's check over those digests. */
	lastPage?: string;
	pageLoop: LoopCheck;
}

const PREFIX = 'isc1.';
export const MAX_CURSOR_LENGTH = 16_384;
/** The longest link or `next` carried: with SEEN_KEPT digests, in base64, under MAX_CURSOR_LENGTH. */
export const MAX_TEXT = 8192;
export const SEEN_KEPT = 64;
const DIGEST = /^[0-9a-f]{14}$/;
const KEYS = ['list', 'at', 'skip', 'sent', 'announced', 'seen', 'loop', 'lastPage', 'pageLoop'];

/** A short hash in hex: not a secret, only to recognise a value again. */
export function digest(text: string): string {
	return createHash('sha256').update(text).digest('hex').slice(0, 14);
}

/** Counts one more cursor (its digest): 'loop' when it is the checkpoint, which moves at each power of two. */
function loopStep(check: LoopCheck, cursor: string): LoopCheck | 'loop' {
	if (check.mark === cursor) return 'loop';
	const steps = check.steps + 1;
	return steps >= check.power
		? { mark: cursor, steps: 0, power: check.power * 2 }
		: { ...check, steps };
}

/** The cursor of a position, or undefined when decodeCursor would refuse it: the pager then fails instead. */
export function encodeCursor(position: ListPosition): string | undefined {
	const { at } = position;
	const carried = 'link' in at ? at.link : 'next' in at ? at.next : '';
	if (carried.length > MAX_TEXT) return undefined;
	const cursor = PREFIX + Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
	return cursor.length <= MAX_CURSOR_LENGTH ? cursor : undefined;
}

type Fields = Record<string, unknown>;
const isCount = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;
const isText = (value: unknown) =>
	typeof value === 'string' && value !== '' && value.length <= MAX_TEXT;
const isDigest = (value: unknown) => typeof value === 'string' && DIGEST.test(value);
const isObject = (value: unknown, keys: readonly string[]): value is Fields =>
	value !== null &&
	typeof value === 'object' &&
	!Array.isArray(value) &&
	Object.keys(value).every((key) => keys.includes(key));

function isLoopCheck(value: unknown): boolean {
	if (!isObject(value, ['mark', 'steps', 'power'])) return false;
	const { mark, steps, power } = value as { mark?: unknown; steps: number; power: number };
	// The first cursor sets the checkpoint and doubles the power: no mark exactly while it is 1.
	const marked = mark === undefined ? power === 1 : isDigest(mark) && power > 1;
	const powerOfTwo = isCount(power) && Number.isInteger(Math.log2(power));
	return powerOfTwo && isCount(steps) && steps < power && marked;
}

function isPagePosition(value: unknown): value is PagePosition {
	if (!isObject(value, ['offset', 'next', 'link']) || Object.keys(value).length !== 1) return false;
	return 'offset' in value ? isCount(value.offset) : isText(value.next ?? value.link);
}

/** The position a cursor names for this list, or why it cannot be used (nothing is sent then). */
export function decodeCursor(
	cursor: string,
	list: string,
): { position: ListPosition } | { refused: string } {
	const notOurs = {
		refused: `is not a cursor this operation gave; pass the nextCursor of the previous batch, or leave it empty to start`,
	};
	if (cursor.length > MAX_CURSOR_LENGTH || !cursor.startsWith(PREFIX)) return notOurs;
	const value = jsonOf(Buffer.from(cursor.slice(PREFIX.length), 'base64url').toString('utf8'));
	if (!isObject(value, KEYS)) return notOurs;
	const { at, skip, sent, announced, seen, lastPage } = value;
	const valid =
		typeof value.list === 'string' &&
		isPagePosition(at) &&
		isCount(skip) &&
		(skip === 0 || !('offset' in at)) &&
		isCount(sent) &&
		(announced === undefined || isCount(announced)) &&
		Array.isArray(seen) &&
		seen.length <= SEEN_KEPT &&
		seen.every(isDigest) &&
		isLoopCheck(value.loop) &&
		isLoopCheck(value.pageLoop) &&
		(lastPage === undefined || isDigest(lastPage));
	if (!valid) return notOurs;
	if (value.list === list) return { position: value as unknown as ListPosition };
	return {
		refused: `was given for another list (a different host URL, path, Query Parameters or Connection ID); leave it empty to start this list`,
	};
}

export type LoopMemory = ReturnType<typeof newLoopMemory>;

const FIRST_CHECK: LoopCheck = { steps: 0, power: 1 };
const SAME_RECORDS =
	'the service returned the same records again (it does not move to the next page)';

/** What stops a loop, in this run and across batches: a cursor seen before, pages seen before or repeating. */
export function newLoopMemory(
	resume: ListPosition | undefined,
	batch: boolean,
	stop: (why: string) => never,
) {
	const seen = new Set<string>();
	const seenIds = new Set<string>();
	let carried = [...(resume?.seen ?? [])];
	let check = resume?.loop ?? FIRST_CHECK;
	let lastPage = resume?.lastPage;
	let pageCheck = resume?.pageLoop ?? FIRST_CHECK;
	return {
		add(key: string) {
			const keyDigest = digest(key);
			const step = loopStep(check, keyDigest);
			if (seen.has(key) || carried.includes(keyDigest) || step === 'loop')
				stop('the service returned the same next-page cursor twice');
			seen.add(key);
			check = step;
			if (batch) carried = [...carried, keyDigest].slice(-SEEN_KEPT);
		},
		progress(records: IDataObject[], firstOfBatch: boolean) {
			const ids: string[] = [];
			for (const record of records) {
				const id = record?.id;
				if (typeof id === 'string' || typeof id === 'number') ids.push(String(id));
			}
			// A page with records without an id is not compared.
			const allHaveIds = ids.length === records.length;
			if (allHaveIds && ids.every((id) => seenIds.has(id))) stop(SAME_RECORDS);
			for (const id of ids) seenIds.add(id);
			if (!batch || !allHaveIds) return;
			// Fresh links around the same pages: the pages' ids repeat with the loop's period.
			const pageDigest = digest(ids.join('\u0000'));
			const step = loopStep(pageCheck, pageDigest);
			if ((firstOfBatch && pageDigest === lastPage) || step === 'loop') stop(SAME_RECORDS);
			lastPage = pageDigest;
			pageCheck = step;
		},
		carried: (): Pick<ListPosition, 'seen' | 'loop' | 'lastPage' | 'pageLoop'> => {
			return { seen: carried, loop: check, lastPage, pageLoop: pageCheck };
		},
	};
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

/** A list's identity in its cursors: other filters, host URL or Connection ID make another list. */
export function listDigest(request: ServiceRequest, base: string, connectionId: string): string {
	const path = request.path.map((segment) => (typeof segment === 'string' ? segment : segment.id));
	const qs = Object.entries(request.qs ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	return digest(
		JSON.stringify([request.method, request.host, base, path, qs, connectionId, request.link?.url]),
	);
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
