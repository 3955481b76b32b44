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
import { cancelSignal, sendAttempt } from './attempt';
import type { AttemptFailure } from './errors';
import { formatSeconds, nextStep, withoutHost } from './errors';
import * as pace from './pace';
import type { ServiceContext, ServiceRun } from './run';
import { redact, withSecrets } from './secrets';

/**
 * One request's loop around the attempt: wait, start when the tenant's pace lets it, attempt, decide;
 * give up on Max Attempts, the Max Total Retry Wait, the deadline or a failure not to repeat.
 */

/** A request as every attempt sends it (request.ts): `forms` of its secrets, `credentials` to sign with. */
export interface PreparedRequest {
	itemIndex: number;
	method: IHttpRequestMethods;
	host: ServiceHost;
	url: string;
	options: IHttpRequestOptions;
	tenant: string;
	forms: readonly string[];
	credentials: IDataObject;
}

const timeLeft = (run: ServiceRun) =>
	run.deadline === undefined ? Infinity : run.deadline.at - Date.now();

function stoppedReason(ctx: ServiceContext, run: ServiceRun): string | undefined {
	if (cancelSignal(ctx)?.aborted) return 'the execution was stopped';
	const { signal } = run.state.stop;
	return signal.aborted ? (signal.reason as Error).message : undefined;
}

/** Waits `ms`, less if the run stops or the execution is cancelled; whether the full wait passed. */
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
			? `waiting for the pace of the tenant's requests would pass ${bound}, less the ${formatSeconds(pace.neededAfterWait(run))} a request is given after a wait`
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
	const budget = run.settings.maxTotalWaitMs;
	const paused = pace.pausedUntil(tenant) - Date.now();
	const need = pace.neededAfterWait(run);
	const verdict = pace.waitVerdict(wanted, paused, timeLeft(run), tries.waitedMs, budget, need);
	if ('start' in verdict) return true;
	if ('overdue' in verdict) return pastDeadline(tries, run);
	if ('giveUp' in verdict) {
		const message = 'Rate limited by the service (HTTP 429): the run is paused';
		const failure = (tries.failure ??= { status: 429, message, retryable: false });
		const { retryAfterMs } = failure;
		failure.gaveUp = pace.gaveUpWaiting(verdict, budget, retryAfterMs, run.deadline?.bound);
		return false;
	}
	tries.waitedMs += verdict.sleep;
	// A 429's wait pauses the whole tenant, only while this request sleeps through it.
	const pause = limited && wanted > 0 ? pace.pauseTenant(tenant, wanted) : undefined;
	const waited = await waitFor(ctx, run, verdict.sleep);
	if (pause && !waited) pace.liftPause(tenant, pause);
	return waited;
}

/** Starts the request once the tenant's pace lets it: its slot, then the cap in any second. */
async function startPaced(ctx: ServiceContext, run: ServiceRun, tenant: string) {
	const cap = run.settings.maxRequestsPerSecond;
	for (let waitMs = pace.reserveSlot(tenant, cap); ; ) {
		if (waitMs > 0) {
			if (timeLeft(run) - waitMs < Math.max(1, pace.neededAfterWait(run))) return 'overdue';
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
	const problem = headerValueProblem(token);
	if (problem !== undefined) {
		const message = `The Integration Service credential's token ${problem}; paste it again`;
		throw new NodeOperationError(ctx.getNode(), message, { itemIndex });
	}
	return {
		token,
		credentials: { ...credentials, sessionToken: sessionTokenOf(credentials, token) },
	};
}

/** A prepared request's record, or the error it ended with. */
export async function sendWithRetries(
	ctx: ServiceContext,
	prepared: PreparedRequest,
	run: ServiceRun,
): Promise<IDataObject> {
	const { maxAttempts, timeoutMs, initialDelayMs, maxResponseBytes } = run.settings;
	const { tenant, method, options } = prepared;
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
		const attemptMs = pace.attemptTimeoutMs(timeoutMs, timeLeft(run));
		let outcome;
		try {
			outcome = await sendAttempt(ctx, {
				method,
				options,
				credentials,
				secretForms: tries.sentForms,
				timeoutMs: attemptMs,
				maxResponseBytes,
				stoppedReason: () => stoppedReason(ctx, run),
			});
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
	error.context.toolMessage = withoutHost(message, url, host);
	return error;
}
