/**
 * Page at a Time (decisions.md): where a list continues, carried between runs as an opaque string.
 * A cursor is user input: decoding accepts only the exact shape written here, and the pager checks a
 * link in it as it checks a nextLink (the host's origin, the list's own path) before sending anything.
 */

/** What to send for the page a list continues with. */
export type PagePosition = { offset: number } | { next: string } | { link: string };

/**
 * Brent's cycle detection over the next-page cursors (or the pages' ids) of every batch (nextPage.ts
 * `loopStep`): the digest of a checkpoint (none before the first), the steps since it, and how many it
 * waits for (a power of two) before moving to the latest.
 */
export interface LoopCheck {
	mark?: string;
	steps: number;
	power: number;
}

export interface ListPosition {
	/** Digest of the list (method, host URL, path, query, Connection ID): refused on any other. */
	list: string;
	at: PagePosition;
	/** Records of the page at `at` already returned (when the service sent more than the batch took). */
	skip: number;
	/** Records the service has sent for this list so far, and the total it announced first. */
	sent: number;
	announced?: number;
	/** Digests of the next-page cursors seen, newest last: a short cursor loop is caught at once. */
	seen: string[];
	/** A cursor loop of any length is caught by this, however many batches it spans. */
	loop: LoopCheck;
	/** Digest of the ids of the last page read: a service serving that page again is caught. */
	lastPage?: string;
	/** Brent's check over those page digests: pages repeating with any period, whatever their links. */
	pageLoop: LoopCheck;
}

const PREFIX = 'isc1.';
/** The longest cursor taken back (actions/output.ts never cuts one this long for a model). */
export const MAX_CURSOR_LENGTH = 16_384;
/**
 * The longest nextLink or `next` cursor of the service a cursor carries: with its counts and 64
 * digests (about 1,500 characters), in base64 (a third more), it stays under MAX_CURSOR_LENGTH.
 */
export const MAX_TEXT = 8192;
/** How many next-page cursors a cursor remembers; a longer loop is caught by `loop` (Brent). */
export const SEEN_KEPT = 64;
const DIGEST = /^[0-9a-f]{14}$/;

/** A 53-bit string hash (cyrb53) in hex: not a secret, only to recognise a value again. */
export function digest(text: string): string {
	let h1 = 0xdeadbeef;
	let h2 = 0x41c6ce57;
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		h1 = Math.imul(h1 ^ code, 2654435761);
		h2 = Math.imul(h2 ^ code, 1597334677);
	}
	h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
	h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
	return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

/**
 * The cursor of a position, or undefined when decodeCursor would refuse it (a link or `next` longer
 * than MAX_TEXT): a cursor handed out must always be taken back, so the pager fails instead.
 */
export function encodeCursor(position: ListPosition): string | undefined {
	const { at } = position;
	const carried = 'link' in at ? at.link : 'next' in at ? at.next : '';
	if (carried.length > MAX_TEXT) return undefined;
	const cursor = PREFIX + Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
	return cursor.length <= MAX_CURSOR_LENGTH ? cursor : undefined;
}

const isCount = (value: unknown): value is number =>
	typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const isText = (value: unknown): value is string =>
	typeof value === 'string' && value !== '' && value.length <= MAX_TEXT;
const hasOnly = (value: object, keys: readonly string[]) =>
	Object.keys(value).every((key) => keys.includes(key));
const isObject = (value: unknown): value is Record<string, unknown> =>
	value !== null && typeof value === 'object' && !Array.isArray(value);

function loopCheck(value: unknown): LoopCheck | undefined {
	if (!isObject(value) || !hasOnly(value, ['mark', 'steps', 'power'])) return undefined;
	const { mark, steps, power } = value;
	const valid =
		isCount(steps) &&
		isCount(power) &&
		Number.isInteger(Math.log2(power)) &&
		steps < power &&
		// The first cursor sets the checkpoint and doubles the wait: no mark exactly while it is 1.
		(mark === undefined ? power === 1 : typeof mark === 'string' && DIGEST.test(mark) && power > 1);
	if (!valid) return undefined;
	return mark === undefined
		? { steps: steps as number, power: power as number }
		: { mark: mark as string, steps: steps as number, power: power as number };
}

function pagePosition(value: unknown): PagePosition | undefined {
	if (!isObject(value) || Object.keys(value).length !== 1) return undefined;
	if ('offset' in value) return isCount(value.offset) ? { offset: value.offset } : undefined;
	if ('next' in value) return isText(value.next) ? { next: value.next } : undefined;
	if ('link' in value) return isText(value.link) ? { link: value.link } : undefined;
	return undefined;
}

/** The position a cursor names for this list, or why it cannot be used (nothing is sent then). */
export function decodeCursor(
	cursor: string,
	list: string,
): { position: ListPosition } | { refused: string } {
	const notOurs = {
		refused:
			'is not a cursor this operation gave; pass the nextCursor of the previous batch, or leave it empty to start',
	};
	if (cursor.length > MAX_CURSOR_LENGTH || !cursor.startsWith(PREFIX)) return notOurs;
	let value: unknown;
	try {
		value = JSON.parse(Buffer.from(cursor.slice(PREFIX.length), 'base64url').toString('utf8'));
	} catch {
		return notOurs;
	}
	if (
		!isObject(value) ||
		!hasOnly(value, [
			'list',
			'at',
			'skip',
			'sent',
			'announced',
			'seen',
			'loop',
			'lastPage',
			'pageLoop',
		])
	)
		return notOurs;
	const at = pagePosition(value.at);
	const loop = loopCheck(value.loop);
	const pageLoop = loopCheck(value.pageLoop);
	const { skip, sent, announced, seen, lastPage } = value;
	const valid =
		typeof value.list === 'string' &&
		at !== undefined &&
		isCount(skip) &&
		(skip === 0 || !('offset' in at)) &&
		isCount(sent) &&
		(announced === undefined || isCount(announced)) &&
		Array.isArray(seen) &&
		seen.length <= SEEN_KEPT &&
		seen.every((entry) => typeof entry === 'string' && DIGEST.test(entry)) &&
		loop !== undefined &&
		pageLoop !== undefined &&
		(lastPage === undefined || (typeof lastPage === 'string' && DIGEST.test(lastPage)));
	if (!valid) return notOurs;
	if (value.list !== list) {
		return {
			refused:
				'was given for another list (a different host URL, path, Query Parameters or Connection ID); leave it empty to start this list',
		};
	}
	return {
		position: {
			list,
			at,
			skip: skip as number,
			sent: sent as number,
			...(announced === undefined ? {} : { announced: announced as number }),
			seen: seen as string[],
			loop: loop as LoopCheck,
			...(lastPage === undefined ? {} : { lastPage: lastPage as string }),
			pageLoop: pageLoop as LoopCheck,
		},
	};
}
