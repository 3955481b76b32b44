import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { formatSeconds } from './errors';
import type { PreparedRequest } from './attempt';
import { sendWithRetries } from './retry';
import type { ServiceContext, ServiceRun } from './run';

/**
 * A model whose client gave up on a slow create asks again: as a tool, the same create (tenant, URL,
 * body) within REPEAT_WINDOW_MS is not sent again; the model gets the first one's answer, or where it
 * stands. In memory only, keyed by a hash (a body may hold a password).
 */

const REPEAT_WINDOW_MS = 120_000;
/** The most settled creates remembered; one in flight is never forgotten (bounded by the requests in flight). */
const MAX_CREATES = 1000;
/** A longer answer is not kept (a created record is a few hundred characters). */
const MAX_ANSWER_CHARS = 10_000;

interface SentCreate {
	readonly at: number;
	state: 'inFlight' | 'answered' | 'uncertain';
	/** The answer as JSON text, when it is short enough to keep. */
	answer?: string;
}

/** In sending order: a settled entry is moved to the end. */
const sentCreates = new Map<string, SentCreate>();

const expired = (sent: SentCreate, now: number) =>
	sent.state !== 'inFlight' && now - sent.at >= REPEAT_WINDOW_MS;

function keyOf({ tenant, method, url, options }: PreparedRequest): string {
	const parts = [tenant, method, url, JSON.stringify(options.qs ?? null), options.body ?? ''];
	return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** Remembers a create about to be sent, dropping expired entries and, over the bound, the oldest settled. */
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

/** Sends a tool run's create once per window; one that failed without reaching the service is forgotten. */
export async function sendCreateOnce(
	ctx: ServiceContext,
	prepared: PreparedRequest,
	run: ServiceRun,
	noun: string,
): Promise<IDataObject> {
	const key = keyOf(prepared);
	const now = Date.now();
	const before = sentCreates.get(key);
	if (before !== undefined && !expired(before, now)) {
		// A repeat gets the first one's answer (kept only once answered), or where the first one stands.
		if (before.answer !== undefined) return JSON.parse(before.answer) as IDataObject;
		const where = {
			inFlight: 'has not been answered yet',
			uncertain: 'has an unknown outcome: it may have been processed',
			answered: 'was answered (its answer is too long to keep)',
		}[before.state];
		const ago = formatSeconds(Math.max(0, now - before.at));
		const message = `Not sent again: the same create of a ${noun} (same arguments, connection and operation) was sent ${ago} ago and ${where}`;
		const error = new NodeOperationError(ctx.getNode(), message, { itemIndex: prepared.itemIndex });
		error.context.nextStep = `${before.state === 'inFlight' ? 'Wait for it, then look' : 'Look'} the ${noun} up (Get or Get Many) before creating it again; the same create is not sent again within ${formatSeconds(REPEAT_WINDOW_MS)} of the first.`;
		throw error;
	}
	const sent = remember(key, now);
	const sending = sendWithRetries(ctx, prepared, run);
	const settled = () => sentCreates.get(key) === sent && sentCreates.delete(key);
	// Settled before the caller sees the outcome (reactions run in order), so its next call sees it too.
	void sending.then(
		(record) => {
			const answer = JSON.stringify(record);
			sent.state = 'answered';
			if (answer.length <= MAX_ANSWER_CHARS) sent.answer = answer;
			if (settled()) sentCreates.set(key, sent);
		},
		(error: unknown) => {
			const uncertain = (error as { context?: IDataObject }).context?.mayHaveBeenProcessed === true;
			if (uncertain) sent.state = 'uncertain';
			if (settled() && uncertain) sentCreates.set(key, sent);
		},
	);
	return await sending;
}
