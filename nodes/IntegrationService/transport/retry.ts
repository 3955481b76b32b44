import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { serviceToken, sessionTokenOf } from '../../../credentials/serviceToken';

import type { ServiceHost } from '../../shared/service';
import { headerValueProblem } from '../../shared/service';
import type { ServiceContext } from './attempt';
import { cancelSignal, sendAttempt } from './attempt';
import type { AttemptFailure } from './errors';
import { formatSeconds, nextStep, withoutHost } from './errors';
import type { PacedRequest } from './pace';
import {
	attemptTimeoutMs,
	backoffMs,
	finished,
	gaveUpWaiting,
	liftPause,
	neededAfterWait,
	pausedUntil,
	pauseTenant,
	reserveSlot,
	startOrWait,
	waitVerdict,
} from './pace';
import type { ServiceRun } from './run';
import { redact, withSecrets } from './secrets';

/**
 * The retry loop of one request, one plain async loop around the attempt: wait (its backoff or
 * Retry-After, the tenant's 429 pause), start when the tenant's pace lets it, attempt, and decide
 * again; give up on Max Attempts, the Max Total Retry Wait, the item's deadline or a failure that must
 * not be repeated, with the error the request ends with.
 */

/** A request as every attempt sends it (request.ts `prepared`). */
export interface PreparedRequest {
	itemIndex: number;
	method: IHttpRequestMethods;
	host: ServiceHost;
	url: string;
	options: IHttpRequestOptions;
	tenant: string;
	/** The credential's secrets (and the request's write-only values) in every form. */
	forms: readonly string[];
	/** The run's credential: each attempt signs its own token with it. */
	credentials: IDataObject;
}

// The run's clock and stop

/** The time left before the item's deadline (Infinity without one). */
export function timeLeft(run: ServiceRun, now = Date.now()): number {
	return run.deadline === undefined ? Infinity : run.deadline.at - now;
}

/** The reason the run must not send anything more, if any. */
export function stoppedReason(ctx: ServiceContext, run: ServiceRun): string | undefined {
	if (cancelSignal(ctx)?.aborted) return 'the execution was stopped';
	const { signal } = run.state.stop;
	return signal.aborted ? (signal.reason as Error).message : undefined;
}

/** Waits `ms`, or less if the run stops or the execution is cancelled; says whether the full wait passed. */
async function waitFor(ctx: ServiceContext, run: ServiceRun, ms: number): Promise<boolean> {
	const cancel = cancelSignal(ctx);
	const stop = run.state.stop.signal;
	try {
		await sleep(ms, cancel ? AbortSignal.any([stop, cancel]) : stop);
		return true;
	} catch {
		return false;
	}
}

// The loop

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

/** The item's deadline passed, or is too near for an attempt: the last failure says so, or why nothing was sent. */
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
 * Waits out `wanted` (or the tenant's pause) before an attempt; false when the request gives up.
 * A 429's wait pauses every run of the tenant, but only while this request sleeps through it: a wait
 * it may not take is a give-up recorded nowhere, and a wait its run stops is lifted.
 */
async function waitBefore(
	ctx: ServiceContext,
	run: ServiceRun,
	prepared: PreparedRequest,
	tries: Tries,
	wanted: number,
	limited: boolean,
): Promise<boolean> {
	const { maxTotalWaitMs } = run.settings;
	const pausedFor = pausedUntil(prepared.tenant) - Date.now();
	const left = timeLeft(run);
	const verdict = waitVerdict(
		wanted,
		pausedFor,
		left,
		tries.waitedMs,
		maxTotalWaitMs,
		neededAfterWait(run),
	);
	if ('start' in verdict) return true;
	if ('overdue' in verdict) {
		pastDeadline(tries, run);
		return false;
	}
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
	const pause = limited && wanted > 0 ? pauseTenant(prepared.tenant, wanted) : undefined;
	const waited = await waitFor(ctx, run, verdict.sleep);
	if (pause && !waited) liftPause(prepared.tenant, pause);
	return waited;
}

/**
 * Starts the request once the tenant's pace lets it (its start slot, then the cap of requests in any
 * second): 'stopped' when the run stopped first, 'overdue' when the item's deadline would pass first.
 */
async function startPaced(
	ctx: ServiceContext,
	run: ServiceRun,
	tenant: string,
): Promise<PacedRequest | 'stopped' | 'overdue'> {
	const cap = run.settings.maxRequestsPerSecond;
	for (let waitMs = reserveSlot(tenant, cap); ; ) {
		if (waitMs > 0) {
			if (timeLeft(run) - waitMs < Math.max(1, neededAfterWait(run))) return 'overdue';
			if (!(await waitFor(ctx, run, waitMs))) return 'stopped';
		}
		if (stoppedReason(ctx, run) !== undefined) return 'stopped';
		if (timeLeft(run) <= 0) return 'overdue';
		const start = startOrWait(tenant, cap);
		if ('started' in start) return start.started;
		waitMs = start.waitMs;
	}
}

/** The token an attempt sends (a fresh JWT in Client ID and Secret mode) and the credential that sends it. */
function signed(ctx: ServiceContext, prepared: PreparedRequest) {
	const credentials = prepared.credentials as ICredentialDataDecryptedObject;
	let token: string;
	let problem: string | undefined;
	try {
		token = serviceToken(credentials);
		problem = headerValueProblem(token);
	} catch (error) {
		throw new NodeOperationError(ctx.getNode(), (error as Error).message, {
			itemIndex: prepared.itemIndex,
		});
	}
	if (problem !== undefined)
		throw new NodeOperationError(
			ctx.getNode(),
			`The Integration Service credential's token ${problem}; paste it again`,
			{ itemIndex: prepared.itemIndex },
		);
	return {
		token,
		credentials: { ...credentials, sessionToken: sessionTokenOf(credentials, token) },
	};
}

/** Sends a prepared request with retries, backoff, pace and deadlines; its record, or the error it ended with. */
export async function sendWithRetries(
	ctx: ServiceContext,
	prepared: PreparedRequest,
	run: ServiceRun,
): Promise<IDataObject> {
	const { maxAttempts, timeoutMs, initialDelayMs, maxResponseBytes } = run.settings;
	const tries: Tries = { attempts: 0, waitedMs: 0, sentForms: prepared.forms };
	let wanted = 0;
	let limited = false;
	while (tries.attempts < maxAttempts) {
		if (!(await waitBefore(ctx, run, prepared, tries, wanted, limited))) break;
		// A fresh token for every attempt (a signed one is valid for 15 minutes; a run may be longer),
		// made before the start is counted, so that nothing between the two can throw.
		const { token, credentials } = signed(ctx, prepared);
		const paced = await startPaced(ctx, run, prepared.tenant);
		if (paced === 'overdue') pastDeadline(tries, run);
		if (paced === 'overdue' || paced === 'stopped') break;
		tries.attempts++;
		tries.sentForms = withSecrets(tries.sentForms, [token]);
		const attemptMs = attemptTimeoutMs(timeoutMs, timeLeft(run));
		let outcome;
		try {
			outcome = await sendAttempt(ctx, {
				method: prepared.method,
				options: prepared.options,
				credentials,
				secretForms: tries.sentForms,
				timeoutMs: attemptMs,
				maxResponseBytes,
				stoppedReason: () => stoppedReason(ctx, run),
			});
		} finally {
			finished(paced);
		}
		if ('json' in outcome) return outcome.json;
		const failure = (tries.failure = outcome.failure);
		// Cut off by the item's deadline, or retryable with no time left: no further attempt starts.
		if (timeLeft(run) <= 0 && (failure.retryable || attemptMs < timeoutMs))
			pastDeadline(tries, run);
		if (failure.gaveUp !== undefined || !failure.retryable) break;
		wanted = failure.retryAfterMs ?? backoffMs(initialDelayMs, tries.attempts, failure.status);
		limited = failure.status === 429;
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
