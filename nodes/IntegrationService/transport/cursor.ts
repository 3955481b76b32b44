import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { sameListUrl } from '../../shared/service';
import { jsonOf } from './answer';
import type { ServiceRequest } from './request';
import { PLACEHOLDER, redact } from './secrets';

/** Page at a Time: where a list continues, as an opaque string; it is input, so only our exact shape decodes. */

export type PagePosition = { offset: number } | { next: string } | { link: string };

/** Brent's cycle check over one sequence of digests: its checkpoint (none before the first), steps since it, its power of two. */
interface LoopCheck {
	mark?: string;
	steps: number;
	power: number;
}

/** `skip`: records of the page at `at` returned already; `loop`, `pageLoop`: the checks over next-page cursors and pages. */
export interface ListPosition {
	list: string;
	at: PagePosition;
	skip: number;
	sent: number;
	announced?: number;
	loop: LoopCheck;
	pageLoop: LoopCheck;
}

const PREFIX = 'isc1.';
export const MAX_CURSOR_LENGTH = 16_384;
/** The longest link or `next` carried: in base64, with the rest of a position, under MAX_CURSOR_LENGTH. */
export const MAX_TEXT = 8192;
const DIGEST = /^[0-9a-f]{14}$/;
const KEYS = ['list', 'at', 'skip', 'sent', 'announced', 'loop', 'pageLoop'];

/** A short hash in hex: not a secret, only to recognise a value again. */
export function digest(text: string): string {
	return createHash('sha256').update(text).digest('hex').slice(0, 14);
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
	const { at, skip, sent, announced } = value;
	const valid =
		typeof value.list === 'string' &&
		isPagePosition(at) &&
		isCount(skip) &&
		(skip === 0 || !('offset' in at)) &&
		isCount(sent) &&
		(announced === undefined || isCount(announced)) &&
		isLoopCheck(value.loop) &&
		isLoopCheck(value.pageLoop);
	if (!valid) return notOurs;
	if (value.list === list) return { position: value as unknown as ListPosition };
	return {
		refused: `was given for another list (a different host URL, path, Query Parameters or Connection ID); leave it empty to start this list`,
	};
}

export type LoopMemory = ReturnType<typeof newLoopMemory>;

const FIRST_CHECK: LoopCheck = { steps: 0, power: 1 };

/**
 * Paging always ends: a next-page cursor, or a page of the same records (by their ids), that comes round
 * again stops it, in a run and from batch to batch. Brent's check, carried in the cursor at a constant
 * size, sees a loop within 2 · max(tail, period) + period pages.
 */
export function newLoopMemory(resume: ListPosition | undefined, stop: (why: string) => never) {
	let cursors = resume?.loop ?? FIRST_CHECK;
	let pages = resume?.pageLoop ?? FIRST_CHECK;
	// The checkpoint moves to the latest value at each power of two of the steps since the last move.
	const step = (check: LoopCheck, text: string, why: string): LoopCheck => {
		const key = digest(text);
		if (check.mark === key) stop(why);
		const steps = check.steps + 1;
		return steps < check.power
			? { ...check, steps }
			: { mark: key, steps: 0, power: check.power * 2 };
	};
	return {
		cursor(key: string) {
			cursors = step(cursors, key, 'the service returned the same next-page cursor twice');
		},
		page(records: IDataObject[]) {
			const ids = records.map((record) => record?.id);
			// A page with a record without an id is not compared.
			if (ids.every((id) => typeof id === 'string' || typeof id === 'number'))
				pages = step(
					pages,
					ids.map(String).sort().join('\u0000'),
					'the service returned the same records again (it does not move to the next page)',
				);
		},
		carried: (): Pick<ListPosition, 'loop' | 'pageLoop'> => ({ loop: cursors, pageLoop: pages }),
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
