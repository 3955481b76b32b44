import type {
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { ServiceHost } from '../../shared/service';
import type { ServiceContext } from './attempt';
import { sendAttempt } from './attempt';
import type { Outcome } from './answer';
import type { AttemptFailure } from './errors';
import { formatSeconds, nextStep, withoutHost } from './errors';
import type { PacedRequest } from './pace';
import { finished, liftPause, pausedUntil, pauseTenant, reserveSlot, startOrWait } from './pace';
import type { ServiceRun } from './run';
import { stoppedReason, timeLeft, waitFor } from './run';
import { redact, withSecret } from './secrets';
import { attemptTimeoutMs, backoffMs, gaveUpWaiting, neededAfterWait, waitVerdict } from './waits';

export type { WaitVerdict } from './waits';
export { attemptTimeoutMs, backoffMs, gaveUpWaiting, neededAfterWait, waitVerdict } from './waits';

/**
 * The retry loop of one request: when the next attempt may start (its backoff, the tenant's pause and
 * pace, the request's Max Total Retry Wait, the item's deadline), when to give up, and the error it
 * ends with. The decisions are small pure functions; `sendWithRetries` only strings them together.
 */

/** A request as every attempt sends it (request.ts `prepared`). */
export interface PreparedRequest {
	itemIndex: number;
	method: IHttpRequestMethods;
	host: ServiceHost;
	url: string;
	headers: IDataObject;
	options: IHttpRequestOptions;
	tenant: string;
	/** The credential's secrets in every form. */
	forms: readonly string[];
	/** A fresh token for one attempt, and the credential that sends it; throws what the credential lacks. */
	sign(): { token: string; credentials: IDataObject };
}

/** What the loop knows between attempts. */
interface Tries {
	attempts: number;
	waitedMs: number;
	failure?: AttemptFailure;
	/** Why nothing was sent: the item's deadline passed before the first attempt. */
	overdue?: string;
	/** Every token this request sent, with the credential's secrets: redacted from its errors. */
	sentForms: readonly string[];
}

/**
 * The item's deadline passed, or is too near for an attempt after the pace's wait (neededAfterWait):
 * the last failure says so, or, with none, why nothing was sent.
 */
function pastDeadline(tries: Tries, run: ServiceRun): void {
	const bound = run.deadline?.bound ?? 'the deadline';
	const why =
		timeLeft(run) > 0
			? `waiting for the pace of the tenant's requests would pass ${bound}, less the ${formatSeconds(neededAfterWait(run))} a request is given after a wait`
			: `${bound} has passed`;
	if (tries.failure) tries.failure.gaveUp ??= `gave up: ${why}`;
	else tries.overdue = why;
}

/**
 * Whether the next attempt may start, within the request's budget and the item's deadline: true now,
 * false never, or a number of milliseconds to sleep first. Synchronous, so a first attempt costs no promise.
 */
function beforeAttempt(
	run: ServiceRun,
	prepared: PreparedRequest,
	tries: Tries,
	wanted: number,
): boolean | number {
	const { maxTotalWaitMs } = run.settings;
	const pausedFor = pausedUntil(prepared.tenant) - Date.now();
	const verdict = waitVerdict(
		wanted,
		pausedFor,
		timeLeft(run),
		tries.waitedMs,
		maxTotalWaitMs,
		neededAfterWait(run),
	);
	if ('overdue' in verdict) pastDeadline(tries, run);
	if ('overdue' in verdict) return false;
	if ('start' in verdict) return true;
	if ('giveUp' in verdict) {
		tries.failure ??= {
			status: 429,
			message: 'Rate limited by the service (HTTP 429): the run is paused',
			retryable: false,
		};
		const { retryAfterMs } = tries.failure;
		tries.failure.gaveUp = gaveUpWaiting(
			verdict,
			maxTotalWaitMs,
			retryAfterMs,
			run.deadline?.bound,
		);
		return false;
	}
	tries.waitedMs += verdict.sleep;
	return verdict.sleep;
}

type PaceStart = PacedRequest | 'stopped' | 'overdue';

/** Starts the request if the tenant's pace lets it now, else says how long to wait before asking again. */
function startIfPaced(
	ctx: ServiceContext,
	run: ServiceRun,
	tenant: string,
): PaceStart | { waitMs: number } {
	if (stoppedReason(ctx, run) !== undefined) return 'stopped';
	if (timeLeft(run) <= 0) return 'overdue';
	const start = startOrWait(tenant, run.settings.maxRequestsPerSecond);
	return 'started' in start ? start.started : start;
}

const mustWait = (start: PaceStart | { waitMs: number }): start is { waitMs: number } =>
	typeof start === 'object' && 'waitMs' in start;

/**
 * Waits until the tenant's pace lets the next request of the run start, and starts it: 'stopped' when
 * the run stopped first, 'overdue' when the item's deadline would pass first (nothing is started then).
 * Synchronous when nothing needs waiting, as for nearly every request: no promise then.
 */
function startWhenPaced(
	ctx: ServiceContext,
	run: ServiceRun,
	tenant: string,
): PaceStart | Promise<PaceStart> {
	const slotWait = reserveSlot(tenant, run.settings.maxRequestsPerSecond);
	if (slotWait > 0) return startAfter(ctx, run, tenant, slotWait);
	const start = startIfPaced(ctx, run, tenant);
	return mustWait(start) ? startAfter(ctx, run, tenant, start.waitMs) : start;
}

/** Waits `firstWaitMs`, then starts the request as soon as the pace lets it (startWhenPaced). */
async function startAfter(
	ctx: ServiceContext,
	run: ServiceRun,
	tenant: string,
	firstWaitMs: number,
): Promise<PaceStart> {
	for (let waitMs = firstWaitMs; ; ) {
		// A wait that would leave the attempt too little of the item's time starts nothing (neededAfterWait).
		if (timeLeft(run) - waitMs < Math.max(1, neededAfterWait(run))) return 'overdue';
		if (!(await waitFor(ctx, run, waitMs))) return 'stopped';
		const start = startIfPaced(ctx, run, tenant);
		if (!mustWait(start)) return start;
		waitMs = start.waitMs;
	}
}

/**
 * One attempt, paced: its answer's record, or the wait before the next attempt (undefined: no next)
 * and whether it is a 429's, which pauses the tenant too (waitOut).
 */
async function attemptOnce(
	ctx: ServiceContext,
	run: ServiceRun,
	prepared: PreparedRequest,
	tries: Tries,
): Promise<{ json: IDataObject } | { nextWait?: number; limited?: boolean }> {
	const { maxAttempts, timeoutMs } = run.settings;
	// A fresh token for every attempt (a signed one is valid for 15 minutes; a run may be longer),
	// made before the start is counted, so that nothing between the two can throw.
	const { token, credentials } = prepared.sign();
	const starting = startWhenPaced(ctx, run, prepared.tenant);
	const paced = starting instanceof Promise ? await starting : starting;
	if (paced === 'overdue') pastDeadline(tries, run);
	if (paced === 'overdue' || paced === 'stopped') return {};
	tries.attempts++;
	tries.sentForms = withSecret(tries.sentForms, token);
	const attemptMs = attemptTimeoutMs(timeoutMs, timeLeft(run));
	let outcome: Outcome;
	try {
		outcome = await sendAttempt(ctx, {
			method: prepared.method,
			url: prepared.url,
			// The client's own timeout is only a backstop for a silent socket: the attempt's deadline ends it.
			options: { ...prepared.options, headers: { ...prepared.headers }, timeout: attemptMs + 1000 },
			credentials,
			secretForms: tries.sentForms,
			timeoutMs: attemptMs,
			maxResponseBytes: run.settings.maxResponseBytes,
			stoppedReason: () => stoppedReason(ctx, run),
		});
	} finally {
		finished(paced);
	}
	if ('json' in outcome) return outcome;
	const failure = (tries.failure = outcome.failure);
	// Cut off by the item's deadline, or retryable with no time left: no further attempt starts.
	if (timeLeft(run) <= 0 && (failure.retryable || attemptMs < timeoutMs)) pastDeadline(tries, run);
	if (failure.gaveUp !== undefined || !failure.retryable || tries.attempts >= maxAttempts)
		return {};
	const nextWait =
		failure.retryAfterMs ?? backoffMs(run.settings.initialDelayMs, tries.attempts, failure.status);
	return { nextWait, limited: failure.status === 429 };
}

/**
 * Sleeps `ms` before the next attempt; says whether the whole wait passed. A 429's wait (`pauseMs`)
 * pauses every run of the tenant, but only while this request sleeps through it: a wait the run may not
 * take was a give-up (beforeAttempt) and is recorded nowhere, and a wait its run stops is lifted, so no
 * later execution is held by a run that gave up or ended.
 */
async function waitOut(
	ctx: ServiceContext,
	run: ServiceRun,
	tenant: string,
	ms: number,
	pauseMs: number,
): Promise<boolean> {
	const pause = pauseMs > 0 ? pauseTenant(tenant, pauseMs) : undefined;
	const waited = await waitFor(ctx, run, ms);
	if (pause && !waited) liftPause(tenant, pause);
	return waited;
}

/** Sends a prepared request with retries, backoff and deadlines; its record, or the error it ended with. */
export async function sendWithRetries(
	ctx: ServiceContext,
	prepared: PreparedRequest,
	run: ServiceRun,
): Promise<IDataObject> {
	const tries: Tries = { attempts: 0, waitedMs: 0, sentForms: prepared.forms };
	let nextWait: number | undefined = 0;
	let limited = false;
	while (nextWait !== undefined && tries.attempts < run.settings.maxAttempts) {
		const go = beforeAttempt(run, prepared, tries, nextWait);
		if (go === false) break;
		if (go !== true && !(await waitOut(ctx, run, prepared.tenant, go, limited ? nextWait : 0)))
			break;
		const result = await attemptOnce(ctx, run, prepared, tries);
		if ('json' in result) return result.json;
		({ nextWait, limited = false } = result);
	}
	throw failedRequest(ctx, prepared, tries, stoppedReason(ctx, run) ?? tries.overdue);
}

/** The error a failed request ends with: what happened, how often it was tried, and whether it may have been processed. */
function failedRequest(
	ctx: ServiceContext,
	prepared: PreparedRequest,
	tries: Tries,
	stopped: string | undefined,
): NodeApiError {
	const { failure, attempts, sentForms: forms } = tries;
	const final = failure ?? {
		message: `Not sent: ${stopped ?? 'the run stopped'}`,
		retryable: false,
	};
	const notes = [
		attempts > 1 ? `after ${attempts} attempts` : '',
		final.gaveUp ?? '',
		stopped && failure?.retryable ? `not retried: ${stopped}` : '',
		final.mayHaveBeenProcessed
			? 'not sent twice: the service may already have processed it; check before running it again'
			: '',
	].filter(Boolean);
	const message = redact(`${final.message}${notes.length ? ` (${notes.join('; ')})` : ''}`, forms);
	const { method, host } = prepared;
	const where = `${method} ${host} ${prepared.url.replace(/[?#].*$/, '')}`;
	const description = redact([final.description, where].filter(Boolean).join(' '), forms);
	const httpCode = final.status ? String(final.status) : undefined;
	const error = new NodeApiError(
		ctx.getNode(),
		{ message, description, httpCode: httpCode ?? null } as JsonObject,
		{ message, description, httpCode, itemIndex: prepared.itemIndex },
	);
	// NodeApiError swaps a message that mentions a network error code for a generic one: keep ours.
	error.message = message;
	// Whether the service may hold it after all (repeats.ts keeps such a create from a model's repeat).
	error.context.mayHaveBeenProcessed =
		final.mayHaveBeenProcessed === true || final.processed === true;
	error.context.nextStep = nextStep(final, method);
	error.context.toolMessage = withoutHost(message, prepared.url, host);
	return error;
}
