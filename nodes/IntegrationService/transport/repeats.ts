import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ServiceContext } from './attempt';
import { formatSeconds } from './errors';
import type { PreparedRequest } from './retry';
import { sendWithRetries } from './retry';
import type { ServiceRun } from './run';

/**
 * A create a model repeats (decisions.md, "The node as an AI tool"): a model whose client gave up on a
 * create held by the service asks again, and a second record is made. As a tool, a create whose
 * tenant (n8n credential, Connection ID, host), URL and body match one this process sent within
 * REPEAT_WINDOW_MS is not sent again: the model gets the first one's answer, or is told it is still in
 * flight or may have been processed. Held in memory only, keyed by a hash (a body may hold a password),
 * never output; bounded in entries and in the answer kept.
 */

export const REPEAT_WINDOW_MS = 120_000;
/**
 * The most settled creates remembered; the oldest settled one is forgotten first. A create in flight is
 * never forgotten (else its repeat is sent while the first is held): those are bounded by the requests
 * in flight, which the run's Concurrency and the process bound (each ends with its request's Timeout
 * and Max Time per Item), so the map holds at most that many more.
 */
const MAX_CREATES = 1000;
/** A longer answer is not kept (a created record is a few hundred characters): the repeat is told to look it up. */
const MAX_ANSWER_CHARS = 10_000;

interface SentCreate {
	/** When it was sent (epoch ms). */
	readonly at: number;
	state: 'inFlight' | 'answered' | 'uncertain';
	/** The answer as JSON text, when it came and is short enough to keep. */
	answer?: string;
}

/** In sending order: an entry sent again after it expired is deleted first, so it moves to the end. */
const sentCreates = new Map<string, SentCreate>();

/** An entry ends two minutes after it was sent, but not while its create is still in flight. */
const expired = (sent: SentCreate, now: number) =>
	sent.state !== 'inFlight' && now - sent.at >= REPEAT_WINDOW_MS;

/** What identifies a create: where it goes, for which tenant, with what; hashed, never kept in clear. */
function keyOf(prepared: PreparedRequest): string {
	const { tenant, method, url, options } = prepared;
	const parts = [tenant, method, url, JSON.stringify(options.qs ?? null), options.body ?? ''];
	return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/**
 * Remembers a create about to be sent; expired entries at the front are dropped, and over the bound the
 * oldest settled ones, passing over those in flight.
 */
function remember(key: string, now: number): SentCreate {
	sentCreates.delete(key);
	for (const [oldKey, old] of sentCreates) {
		if (!expired(old, now) && sentCreates.size < MAX_CREATES) break;
		if (old.state !== 'inFlight') sentCreates.delete(oldKey);
	}
	const sent: SentCreate = { at: now, state: 'inFlight' };
	sentCreates.set(key, sent);
	return sent;
}

/** What a repeat gets: the first one's answer, or an error saying where the first one stands. */
function repeatOf(
	ctx: ServiceContext,
	prepared: PreparedRequest,
	sent: SentCreate,
	noun: string,
	now: number,
): IDataObject {
	if (sent.state === 'answered' && sent.answer !== undefined)
		return JSON.parse(sent.answer) as IDataObject;
	const ago = formatSeconds(Math.max(0, now - sent.at));
	const where = {
		inFlight: 'has not been answered yet',
		uncertain: 'has an unknown outcome: it may have been processed',
		answered: 'was answered (its answer is too long to keep)',
	}[sent.state];
	const message = `Not sent again: the same create of a ${noun} (same arguments, connection and operation) was sent ${ago} ago and ${where}`;
	const error = new NodeOperationError(ctx.getNode(), message, {
		itemIndex: prepared.itemIndex,
	});
	error.context.nextStep = `${sent.state === 'inFlight' ? 'Wait for it, then look' : 'Look'} the ${noun} up (Get or Get Many) before creating it again; the same create is not sent again within ${formatSeconds(REPEAT_WINDOW_MS)} of the first.`;
	throw error;
}

/**
 * Sends a create of a tool run once per REPEAT_WINDOW_MS: a repeat gets the first one's answer or is
 * told where it stands. A create that failed without reaching the service (or was refused) is
 * forgotten, so the same call may be sent again.
 */
export async function sendCreateOnce(
	ctx: ServiceContext,
	prepared: PreparedRequest,
	run: ServiceRun,
	noun: string,
): Promise<IDataObject> {
	const key = keyOf(prepared);
	const now = Date.now();
	const before = sentCreates.get(key);
	if (before !== undefined && !expired(before, now))
		return repeatOf(ctx, prepared, before, noun, now);
	const sent = remember(key, now);
	const sending = sendWithRetries(ctx, prepared, run);
	// A settled create moves to the end: over the bound, the one settled longest ago goes first.
	const settled = () => sentCreates.get(key) === sent && sentCreates.delete(key);
	// Settled first (reactions run in order), so the caller's next call already sees the outcome.
	void sending.then(
		(record) => {
			const answer = JSON.stringify(record);
			sent.state = 'answered';
			if (answer.length <= MAX_ANSWER_CHARS) sent.answer = answer;
			if (settled()) sentCreates.set(key, sent);
		},
		(error: unknown) => {
			const context = (error as { context?: IDataObject }).context;
			const uncertain = context?.mayHaveBeenProcessed === true;
			if (uncertain) sent.state = 'uncertain';
			if (settled() && uncertain) sentCreates.set(key, sent);
		},
	);
	return await sending;
}
