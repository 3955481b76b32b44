/**
 * When an attempt may start: the pace all runs of one tenant share (the service limits per tenant), and
 * the backoff. Max Requests Per Second promises what the service sees: a request counts from its start
 * until a second after its answer; a new one starts only while fewer than the cap are counted.
 */

/** A request of the tenant, from its start until its answer came back (epoch ms). */
export type PacedRequest = { readonly start: number; end?: number };
/** A 429's pause of the tenant, held by the request that sleeps through it. */
export type Pause = { readonly until: number };

/** `recent`: requests in flight or answered within the last second; `nextStartAt` keeps the pace even. */
type TenantPace = { pauses: Pause[]; nextStartAt: number; recent: PacedRequest[]; pruneAt: number };

const WINDOW_MS = 1000;

/** In memory only, never output; a tenant whose times have all passed is dropped. */
const tenantPaces = new Map<string, TenantPace>();

/** Which tenant a request counts against: the n8n credential, the Connection ID and the origin. */
export function tenantKey(credential: string, connectionId: string | undefined, origin: string) {
	return JSON.stringify([credential, connectionId ?? '', origin]);
}

const done = (request: PacedRequest, now: number) =>
	request.end !== undefined && request.end <= now - WINDOW_MS;

function paceOf(tenant: string, now: number): TenantPace {
	let pace = tenantPaces.get(tenant);
	if (pace === undefined) {
		for (const [key, idle] of tenantPaces)
			if (
				Math.max(pauseEnd(idle, now), idle.nextStartAt) <= now &&
				idle.recent.every((request) => done(request, now))
			)
				tenantPaces.delete(key);
		pace = { pauses: [], nextStartAt: 0, recent: [], pruneAt: 0 };
		tenantPaces.set(tenant, pace);
	}
	return pace;
}

/** When the last pause held ends (0 with none). */
function pauseEnd(pace: TenantPace, now: number): number {
	pace.pauses = pace.pauses.filter((pause) => pause.until > now);
	return pace.pauses.reduce((end, pause) => Math.max(end, pause.until), 0);
}

export function pausedUntil(tenant: string, now = Date.now()): number {
	return pauseEnd(paceOf(tenant, now), now);
}

/**
 * A 429 pauses every run of the tenant for `waitMs`, held by the request that sleeps through it: it
 * lifts the pause when its run stops first, so a pause never outlives its run.
 */
export function pauseTenant(tenant: string, waitMs: number, now = Date.now()): Pause {
	const pause = { until: now + Math.max(0, waitMs) };
	paceOf(tenant, now).pauses.push(pause);
	return pause;
}

/** The request holding `pause` stopped waiting: its run ended. */
export function liftPause(tenant: string, pause: Pause): void {
	const pace = tenantPaces.get(tenant);
	if (pace) pace.pauses = pace.pauses.filter((held) => held !== pause);
}

/** Reserves the tenant's next start slot (slots space requests evenly): how long to wait for it. */
export function reserveSlot(tenant: string, cap: number, now = Date.now()): number {
	if (cap <= 0) return 0;
	const pace = paceOf(tenant, now);
	const start = Math.max(now, pace.nextStartAt);
	pace.nextStartAt = start + 1000 / cap;
	return start - now;
}

/**
 * Starts a request if fewer than `cap` of the tenant's are counted in the last second, else says how
 * long to wait. With no cap (0) it always starts, and still counts for runs that have one.
 */
export function startOrWait(
	tenant: string,
	cap: number,
	now = Date.now(),
): { started: PacedRequest } | { waitMs: number } {
	const pace = paceOf(tenant, now);
	const limit = Math.floor(cap);
	// An entry answered long ago can sit behind one still in flight: all are checked. Without a cap
	// nothing is decided, so the list is pruned only once it has doubled: O(1) per request, where
	// pruning every time cost a tenth of the transport's CPU per create at 300 requests a second.
	if (limit >= 1 || pace.recent.length >= pace.pruneAt) {
		pace.recent = pace.recent.filter((request) => !done(request, now));
		pace.pruneAt = 2 * pace.recent.length + 64;
	}
	const { recent } = pace;
	if (limit >= 1 && recent.length >= limit) {
		// When enough leave the window; one in flight leaves it no sooner than a second from now.
		const leaving = recent.map((request) => (request.end ?? now) + WINDOW_MS).sort((a, b) => a - b);
		return { waitMs: Math.max(1, leaving[recent.length - limit] - now) };
	}
	const started: PacedRequest = { start: now };
	recent.push(started);
	return { started };
}

export function finished(request: PacedRequest, now = Date.now()): void {
	request.end ??= now;
}

const MAX_SINGLE_BACKOFF_MS = 30_000;
/** A 409 (data not ready) takes tens of seconds: without a Retry-After it waits this many Initial Retry Delays. */
const NOT_READY_DELAY_FACTOR = 30;

/** Exponential backoff with full jitter, so that many workflows do not retry in lockstep. */
export function backoffMs(
	initialDelayMs: number,
	attempt: number,
	status?: number,
	random = Math.random(),
) {
	const ceiling = Math.min(MAX_SINGLE_BACKOFF_MS, initialDelayMs * 2 ** (attempt - 1));
	const jittered = Math.round(ceiling / 2 + (random * ceiling) / 2);
	return status === 409 ? Math.max(jittered, initialDelayMs * NOT_READY_DELAY_FACTOR) : jittered;
}
