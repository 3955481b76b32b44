import { formatSeconds } from './errors';
import type { ServiceRun } from './run';

/**
 * The waits of the retry loop (retry.ts), as small pure decisions: the backoff, whether to sleep,
 * start or give up before an attempt, and how long an attempt may take.
 */

const MAX_SINGLE_BACKOFF_MS = 30_000;
/**
 * A 409 means the connected system's data is not ready yet, which takes tens of seconds (decisions.md:
 * retry after 30 to 60 s): without a Retry-After it waits at least this many Initial Retry Delays.
 */
const NOT_READY_DELAY_FACTOR = 30;

/** Exponential backoff with full jitter, so that many workflows do not retry in lockstep. */
export function backoffMs(
	initialDelayMs: number,
	attempt: number,
	status?: number,
	random = Math.random(),
): number {
	const ceiling = Math.min(MAX_SINGLE_BACKOFF_MS, initialDelayMs * 2 ** (attempt - 1));
	const jittered = Math.round(ceiling / 2 + (random * ceiling) / 2);
	return status === 409 ? Math.max(jittered, initialDelayMs * NOT_READY_DELAY_FACTOR) : jittered;
}

/** What to do before the next attempt: start it, sleep first, or give up (and why). */
export type WaitVerdict =
	| { start: true }
	| { sleep: number }
	| { overdue: true }
	| { giveUp: 'budget' | 'deadline'; wait: number; need?: number };

/**
 * What an attempt must still have of the item's time after a wait (its Timeout, at most this): a wait
 * for a pause or the pace that leaves less starts nothing. Else a create held 45 s by the tenant's
 * pause is sent with 0.2 s left, cut off, and reported "may have been processed": an uncertain write
 * the node made itself.
 */
const ATTEMPT_AFTER_WAIT_MS = 10_000;

/** The time an attempt needs after a wait: none without a deadline, at most a quarter of the item's time. */
export function neededAfterWait(run: ServiceRun): number {
	const { timeoutMs, maxItemMs } = run.settings;
	return run.deadline === undefined
		? 0
		: Math.min(timeoutMs, ATTEMPT_AFTER_WAIT_MS, Math.floor(maxItemMs / 4));
}

/**
 * The wait before an attempt: the one wanted (backoff, Retry-After) or the tenant's pause, whichever is
 * longer. A wait that would pass the Max Total Retry Wait or the item's deadline is a give-up now, not a
 * sleep first.
 */
export function waitVerdict(
	wanted: number,
	pausedForMs: number,
	left: number,
	waitedMs: number,
	maxTotalWaitMs: number,
	needMs = 0,
): WaitVerdict {
	const wait = Math.max(wanted, pausedForMs);
	if (left <= 0) return { overdue: true };
	if (wait <= 0) return { start: true };
	if (waitedMs + wait > maxTotalWaitMs) return { giveUp: 'budget', wait };
	if (wait >= left) return { giveUp: 'deadline', wait };
	if (left - wait < needMs) return { giveUp: 'deadline', wait, need: needMs };
	return { sleep: wait };
}

/** Why retrying stopped on a wait the request may not take. */
export function gaveUpWaiting(
	verdict: { giveUp: 'budget' | 'deadline'; wait: number; need?: number },
	maxTotalWaitMs: number,
	retryAfterMs: number | undefined,
	bound: string | undefined,
): string {
	const { wait, need } = verdict;
	if (verdict.giveUp === 'budget')
		return `gave up: waiting ${formatSeconds(wait)} more would exceed the Max Total Retry Wait of ${formatSeconds(maxTotalWaitMs)}`;
	const asked =
		retryAfterMs === wait
			? `the service asked to wait ${formatSeconds(wait)}, which`
			: `waiting ${formatSeconds(wait)} more`;
	if (need !== undefined)
		return `gave up: ${asked} would pass ${bound}, less the ${formatSeconds(need)} a request is given after a wait; not sent`;
	return `gave up: ${asked} would pass ${bound}`;
}

/** The attempt's Timeout, clipped to what is left of the item's time. */
export function attemptTimeoutMs(timeoutMs: number, left: number): number {
	return Math.min(timeoutMs, Math.max(1, Math.floor(left)));
}
