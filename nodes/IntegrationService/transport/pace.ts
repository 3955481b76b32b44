import { formatSeconds } from './errors';
import type { ServiceRun } from './run';

/**
 * When the next attempt of a request may start: its own waits (backoff, Retry-After, the Max Total
 * Retry Wait, the item's deadline) as small pure decisions, and the tenant's pace.
 *
 * The pace every run of one tenant in this n8n process shares: the service limits requests per
 * tenant, so concurrent executions keep one budget and one 429 pause between them. Held in memory
 * only (a module-level map), never output.
 *
 * Max Requests Per Second is a promise about what the service sees: at most that many of the
 * tenant's requests reach it within any one second. A request reaches the service somewhere between
 * the moment it starts and the moment its answer comes back, and a busy process can hold a started
 * request for a while before it is written. So a request counts against the second from its start
 * until one second after its answer: a new one starts only while fewer than the cap are in flight or
 * answered within the last second. Then no window of one second can hold more than the cap of
 * arrivals, however the machine or the service delays them.
 */

/** One request of the tenant, from its start until its answer (`end`, epoch ms) came back. */
export interface PacedRequest {
	readonly start: number;
	end?: number;
}

/** A 429's pause of the tenant until `until` (epoch ms), held by the request that sleeps through it. */
export interface Pause {
	readonly until: number;
}

interface TenantPace {
	/** The 429 pauses now held: every request of the tenant waits until the last of them ends. */
	pauses: Pause[];
	/** The earliest time the next paced request may start (epoch ms): keeps the pace even. */
	nextStartAt: number;
	/** Requests in flight or answered within the last second, oldest start first. */
	recent: PacedRequest[];
}

const WINDOW_MS = 1000;

const tenantPaces = new Map<string, TenantPace>();

/** Which tenant a request counts against: the n8n credential, the Connection ID sent and the origin it goes to. */
export function tenantKey(
	credential: string,
	connectionId: string | undefined,
	origin: string,
): string {
	return JSON.stringify([credential, connectionId ?? '', origin]);
}

/** Whether a request no longer counts against any second from `now` on. */
const done = (request: PacedRequest, now: number) =>
	request.end !== undefined && request.end <= now - WINDOW_MS;

/**
 * The tenant's pace. Read and changed synchronously, so runs never act on a stale copy. An entry whose
 * times have all passed is the same as none, so such entries are dropped and the map holds only
 * tenants in use.
 */
function paceOf(tenant: string, now: number): TenantPace {
	let pace = tenantPaces.get(tenant);
	if (pace === undefined) {
		for (const [key, idle] of tenantPaces) {
			if (
				Math.max(pauseEnd(idle, now), idle.nextStartAt) <= now &&
				idle.recent.every((request) => done(request, now))
			) {
				tenantPaces.delete(key);
			}
		}
		pace = { pauses: [], nextStartAt: 0, recent: [] };
		tenantPaces.set(tenant, pace);
	}
	return pace;
}

/** When the last pause held ends (0 with none); ended pauses are dropped. */
function pauseEnd(pace: TenantPace, now: number): number {
	if (pace.pauses.length === 0) return 0;
	pace.pauses = pace.pauses.filter((pause) => pause.until > now);
	return pace.pauses.reduce((end, pause) => Math.max(end, pause.until), 0);
}

/** Until when a 429 paused the tenant (epoch ms; in the past when it is not paused). */
export function pausedUntil(tenant: string, now = Date.now()): number {
	return pauseEnd(paceOf(tenant, now), now);
}

/**
 * A 429 slows every run of the tenant down, not just the request that got it: for `waitMs` from now.
 * Only a request that sleeps through that wait itself records it, and it lifts the pause when its run
 * stops first (liftPause): a wait its run may not take is a give-up recorded nowhere, so a pause never
 * outlives the run that holds it (decisions.md, "A give-up must not outlive its run").
 */
export function pauseTenant(tenant: string, waitMs: number, now = Date.now()): Pause {
	const pause = { until: now + Math.max(0, waitMs) };
	paceOf(tenant, now).pauses.push(pause);
	return pause;
}

/** The request holding `pause` stopped waiting (its run ended): the tenant is no longer held by it. */
export function liftPause(tenant: string, pause: Pause): void {
	const pace = tenantPaces.get(tenant);
	if (pace) pace.pauses = pace.pauses.filter((held) => held !== pause);
}

/**
 * Reserves the next start slot of the tenant for a run with this cap and returns how long to wait for
 * it. Slots space requests evenly; a run with no cap (0) takes no slot.
 */
export function reserveSlot(tenant: string, cap: number, now = Date.now()): number {
	if (cap <= 0) return 0;
	const pace = paceOf(tenant, now);
	const start = Math.max(now, pace.nextStartAt);
	pace.nextStartAt = start + 1000 / cap;
	return start - now;
}

/**
 * Starts a request now if fewer than `cap` of the tenant's requests are in flight or were answered
 * within the last second, else says how long to wait before asking again. A run with no cap (0)
 * always starts, and still counts for the runs that have one. The caller ends what it started with
 * `finished`.
 */
export function startOrWait(
	tenant: string,
	cap: number,
	now = Date.now(),
): { started: PacedRequest } | { waitMs: number } {
	const pace = paceOf(tenant, now);
	let recent = pace.recent;
	while (recent.length > 0 && done(recent[0], now)) recent.shift();
	const limit = Math.floor(cap);
	if (limit >= 1 && recent.length >= limit) {
		// Entries answered long ago can sit behind one still in flight: drop them before counting.
		recent = pace.recent = recent.filter((request) => !done(request, now));
		if (recent.length >= limit) {
			// The earliest moment enough answered requests leave the window; a request still in flight
			// leaves it no sooner than a second from now.
			const leaving = recent
				.map((request) => (request.end === undefined ? now + WINDOW_MS : request.end + WINDOW_MS))
				.sort((a, b) => a - b);
			return { waitMs: Math.max(1, leaving[recent.length - limit] - now) };
		}
	}
	const started: PacedRequest = { start: now };
	recent.push(started);
	return { started };
}

/** The answer (or the failure) of a started request came back. */
export function finished(request: PacedRequest, now = Date.now()): void {
	request.end ??= now;
}

// A request's own waits

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
 * that leaves less starts nothing. Else a create held 45 s by the tenant's pause is sent with 0.2 s
 * left, cut off, and reported "may have been processed": an uncertain write the node made itself.
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
 * longer. A wait that would pass the Max Total Retry Wait or the item's deadline is a give-up now.
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
