import type { ICredentialDataDecryptedObject, IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { serviceToken, sessionTokenOf } from '../../../credentials/serviceToken';

import { HOST_FIELDS } from '../../shared/service';
import type { PreparedRequest } from './attempt';
import { cancelSignal, sendAttempt, stoppedReason } from './attempt';
import type { AttemptFailure } from './errors';
import { formatSeconds, nextStep } from './errors';
import * as pace from './pace';
import type { ServiceContext, ServiceRun } from './run';
import { redact, withSecrets } from './secrets';

const timeLeft = (run: ServiceRun) =>
	run.deadline === undefined ? Infinity : run.deadline.at - Date.now();

/** Waits `ms`, less if the run stops or the execution is cancelled; whether the full wait passed. */
function waitFor(ctx: ServiceContext, run: ServiceRun, ms: number): Promise<boolean> {
	const cancel = cancelSignal(ctx);
	const stop = run.state.stop.signal;
	const signal = cancel ? AbortSignal.any([stop, cancel]) : stop;
	return sleep(ms, signal).then(
		() => true,
		() => false,
	);
}

const ATTEMPT_AFTER_WAIT_MS = 10_000;

/**
 * The item's time an attempt must still have after a wait (else a create held by the tenant's pause
 * is sent with 0.2 s left, cut off, and "may have been processed" by our own doing): none without a
 * deadline, at most a quarter of the item's time.
 */
export function neededAfterWait(run: ServiceRun): number {
	const { timeoutMs, maxItemMs } = run.settings;
	if (run.deadline === undefined) return 0;
	return Math.min(timeoutMs, ATTEMPT_AFTER_WAIT_MS, Math.floor(maxItemMs / 4));
}

/** Why the request gives up rather than wait: past the Max Total Retry Wait, or into the time an attempt needs. */
export function refusedWait(
	run: ServiceRun,
	wait: number,
	left: number,
	waitedMs: number,
	retryAfterMs?: number,
): string | undefined {
	const { maxTotalWaitMs } = run.settings;
	if (waitedMs + wait > maxTotalWaitMs)
		return `gave up: waiting ${formatSeconds(wait)} more would exceed the Max Total Retry Wait of ${formatSeconds(maxTotalWaitMs)}`;
	const need = neededAfterWait(run);
	if (wait < left && left - wait >= need) return undefined;
	const asked =
		retryAfterMs === wait
			? `the service asked to wait ${formatSeconds(wait)}, which`
			: `waiting ${formatSeconds(wait)} more`;
	const past = `gave up: ${asked} would pass ${run.deadline?.bound}`;
	if (wait >= left) return past;
	return `${past}, less the ${formatSeconds(need)} a request is given after a wait; not sent`;
}

/** `overdue`: why nothing was sent; `sentForms`: the secrets' forms with every token sent. */
interface Tries {
	attempts: number;
	waitedMs: number;
	failure?: AttemptFailure;
	overdue?: string;
	sentForms: readonly string[];
}

/** The item's deadline passed or is too near: the last failure says so, or why nothing was sent. */
function pastDeadline(tries: Tries, run: ServiceRun): false {
	const bound = run.deadline?.bound ?? 'the deadline';
	const why =
		timeLeft(run) > 0
			? `waiting for the pace of the tenant's requests would pass ${bound}, less the ${formatSeconds(neededAfterWait(run))} a request is given after a wait`
			: `${bound} has passed`;
	if (tries.failure) tries.failure.gaveUp ??= `gave up: ${why}`;
	else tries.overdue = why;
	return false;
}

/** Waits out `wanted` or the tenant's pause before an attempt; false when the request gives up. */
async function waitBefore(
	ctx: ServiceContext,
	run: ServiceRun,
	tenant: string,
	tries: Tries,
	wanted: number,
	limited: boolean,
): Promise<boolean> {
	const wait = Math.max(wanted, pace.pausedUntil(tenant) - Date.now());
	const left = timeLeft(run);
	if (left <= 0) return pastDeadline(tries, run);
	if (wait <= 0) return true;
	const refused = refusedWait(run, wait, left, tries.waitedMs, tries.failure?.retryAfterMs);
	if (refused !== undefined) {
		const message = 'Rate limited by the service (HTTP 429): the run is paused';
		(tries.failure ??= { status: 429, message, retryable: false }).gaveUp = refused;
		return false;
	}
	tries.waitedMs += wait;
	// A 429's wait pauses the whole tenant, only while this request sleeps through it.
	const pause = limited && wanted > 0 ? pace.pauseTenant(tenant, wanted) : undefined;
	const waited = await waitFor(ctx, run, wait);
	if (pause && !waited) pace.liftPause(tenant, pause);
	return waited;
}

/** Starts the request once the tenant's pace lets it: its slot, then the cap in any second. */
async function startPaced(ctx: ServiceContext, run: ServiceRun, tenant: string) {
	const cap = run.settings.maxRequestsPerSecond;
	for (let waitMs = pace.reserveSlot(tenant, cap); ; ) {
		if (waitMs > 0) {
			if (timeLeft(run) - waitMs < Math.max(1, neededAfterWait(run))) return 'overdue';
			if (!(await waitFor(ctx, run, waitMs))) return 'stopped';
		}
		if (stoppedReason(ctx, run) !== undefined) return 'stopped';
		if (timeLeft(run) <= 0) return 'overdue';
		const start = pace.startOrWait(tenant, cap);
		if ('started' in start) return start.started;
		waitMs = start.waitMs;
	}
}

/** The token an attempt sends (a fresh JWT in Client ID and Secret mode), and its credential. */
function signed(ctx: ServiceContext, prepared: PreparedRequest) {
	const credentials = prepared.credentials as ICredentialDataDecryptedObject;
	const { itemIndex } = prepared;
	let token: string;
	try {
		token = serviceToken(credentials);
	} catch (error) {
		throw new NodeOperationError(ctx.getNode(), (error as Error).message, { itemIndex });
	}
	return {
		token,
		credentials: { ...credentials, sessionToken: sessionTokenOf(credentials, token) },
	};
}

/**
 * One request's loop around the attempt: wait, start when the tenant's pace lets it, attempt, decide;
 * give up on Max Attempts, the Max Total Retry Wait, the deadline or a failure not to repeat.
 */
export async function sendWithRetries(
	ctx: ServiceContext,
	prepared: PreparedRequest,
	run: ServiceRun,
): Promise<IDataObject> {
	const { maxAttempts, timeoutMs, initialDelayMs } = run.settings;
	const { tenant } = prepared;
	const tries: Tries = { attempts: 0, waitedMs: 0, sentForms: prepared.forms };
	let wanted = 0;
	let limited = false;
	while (tries.attempts < maxAttempts) {
		if (!(await waitBefore(ctx, run, tenant, tries, wanted, limited))) break;
		// A fresh token for every attempt (a signed one lives 15 minutes), made before the start is counted.
		const { token, credentials } = signed(ctx, prepared);
		const paced = await startPaced(ctx, run, tenant);
		if (paced === 'overdue') pastDeadline(tries, run);
		if (paced === 'overdue' || paced === 'stopped') break;
		tries.attempts++;
		tries.sentForms = withSecrets(tries.sentForms, [token]);
		// The Timeout, clipped to the item's time left (at least 1 ms).
		const attemptMs = Math.min(timeoutMs, Math.max(1, Math.floor(timeLeft(run))));
		const attempt = { ...prepared, credentials, forms: tries.sentForms, timeoutMs: attemptMs };
		let outcome;
		try {
			outcome = await sendAttempt(ctx, run, attempt);
		} finally {
			pace.finished(paced);
		}
		if ('json' in outcome) return outcome.json;
		const failure = (tries.failure = outcome.failure);
		// Cut off by the item's deadline, or retryable with no time left: no further attempt starts.
		if (timeLeft(run) <= 0 && (failure.retryable || attemptMs < timeoutMs))
			pastDeadline(tries, run);
		if (failure.gaveUp !== undefined || !failure.retryable) break;
		wanted = failure.retryAfterMs ?? pace.backoffMs(initialDelayMs, tries.attempts, failure.status);
		limited = failure.status === 429;
	}
	throw failedRequest(ctx, prepared, tries, stoppedReason(ctx, run) ?? tries.overdue);
}

/** What happened, how often it was tried, and whether it may have been processed. */
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
	const { method, host, url, itemIndex } = prepared;
	const where = `${method} ${host} ${url.replace(/[?#].*$/, '')}`;
	const description = redact([final.description, where].filter(Boolean).join(' '), forms);
	const httpCode = final.status ? String(final.status) : undefined;
	const error = new NodeApiError(
		ctx.getNode(),
		{ message, description, httpCode: httpCode ?? null } as JsonObject,
		{ message, description, httpCode, itemIndex },
	);
	// NodeApiError swaps a message that names a network error code for a generic one: keep ours.
	error.message = message;
	// Whether the service may hold it (repeats.ts keeps such a create from a model's repeat).
	error.context.mayHaveBeenProcessed =
		final.mayHaveBeenProcessed === true || final.processed === true;
	error.context.nextStep = nextStep(final, method);
	// A model's message: the host's origin (maybe a private address) is "the CRM host".
	const name = `the ${HOST_FIELDS[host].label.replace(/ Host URL$/, '')} host`;
	const { origin, host: authority } = new URL(url);
	error.context.toolMessage = message.split(origin).join(name).split(authority).join(name);
	return error;
}
