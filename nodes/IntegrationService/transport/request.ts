import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { serviceToken, sessionTokenOf } from '../../../credentials/serviceToken';
import type { PathSegment, ServiceHost } from '../../shared/service';
import {
	CREDENTIAL_TYPE,
	endpointUrl,
	headerValueProblem,
	hostBaseUrl,
	HOSTS_WITH_CREDENTIAL_ID,
	originOf,
	sameOriginUrl,
} from '../../shared/service';
import type { ServiceContext } from './attempt';
import { cancelSignal, sendAttempt } from './attempt';
import type { AttemptFailure } from './errors';
import { formatSeconds } from './errors';
import type { PacedRequest } from './pace';
import { finished, pausedUntil, pauseTenant, reserveSlot, startOrWait, tenantKey } from './pace';
import { redact, secretForms, withSecret } from './secrets';

/** How hard to try: the node reads it from its Request Options once per run. */
export interface RequestSettings {
	maxAttempts: number;
	maxTotalWaitMs: number;
	initialDelayMs: number;
	timeoutMs: number;
	/** Largest answer read, counted after decompression. */
	maxResponseBytes: number;
	/** The most requests of the tenant the service receives in any second, from every run in this process together (pace.ts); 0 means no cap. */
	maxRequestsPerSecond: number;
}

/** The settings of a run with no Request Options set; the node's options show them as defaults. */
export const DEFAULT_SETTINGS: Readonly<RequestSettings> = {
	maxAttempts: 5,
	maxTotalWaitMs: 60_000,
	initialDelayMs: 1000,
	timeoutMs: 30_000,
	maxResponseBytes: 16 * 1024 * 1024,
	maxRequestsPerSecond: 50,
};

/** Why a run stopped early; requests not yet sent are then never sent. */
class RunStopped extends Error {}

/** What every request of one node run shares: its settings, and state that changes while it runs. */
export interface ServiceRun {
	readonly settings: Readonly<RequestSettings>;
	readonly state: {
		/** The credential, loaded once per run: in the n8n app each load is a query, a decryption and expressions. */
		credentials?: Promise<IDataObject>;
		/** Aborted when the run stops: waits end at once and no further request starts. */
		readonly stop: AbortController;
	};
}

export function newRun(settings: Readonly<RequestSettings> = DEFAULT_SETTINGS): ServiceRun {
	return { settings, state: { stop: new AbortController() } };
}

/** Ends the run: every wait ends now, and nothing more is sent. */
export function stopRun(run: ServiceRun, reason: string): void {
	if (!run.state.stop.signal.aborted) run.state.stop.abort(new RunStopped(reason));
}

/** The reason the run must not send anything more, if any. */
function stoppedReason(ctx: ServiceContext, run: ServiceRun): string | undefined {
	if (cancelSignal(ctx)?.aborted) return 'the execution was stopped';
	const { signal } = run.state.stop;
	return signal.aborted ? (signal.reason as Error).message : undefined;
}

/**
 * A new signal that fires when the run stops or n8n cancels the execution. AbortSignal.any adds no
 * listener to its sources, so any number of waits may be pending at once without a leak warning.
 */
function runSignal(ctx: ServiceContext, run: ServiceRun): AbortSignal {
	return AbortSignal.any(
		[run.state.stop.signal, cancelSignal(ctx)].filter((s): s is AbortSignal => s !== undefined),
	);
}

/** Waits `ms`, or less if the run stops or the execution is cancelled; says whether the full wait passed. */
async function waitFor(ctx: ServiceContext, run: ServiceRun, ms: number): Promise<boolean> {
	if (ms <= 0) return stoppedReason(ctx, run) === undefined;
	try {
		await sleep(ms, runSignal(ctx, run));
		return true;
	} catch {
		return false;
	}
}

/**
 * Which tenant a request counts against (pace.ts): the n8n credential, the Connection ID sent and the
 * origin it goes to.
 */
function tenantOf(ctx: ServiceContext, origin: string, connectionId: string | undefined): string {
	const credential = ctx.getNode().credentials?.[CREDENTIAL_TYPE];
	return tenantKey(credential?.id ?? credential?.name ?? '', connectionId, origin);
}

/**
 * Waits until the tenant's pace lets the next request of the run start, and starts it; undefined when
 * the run stopped first.
 */
async function startWhenPaced(
	ctx: ServiceContext,
	run: ServiceRun,
	tenant: string,
): Promise<PacedRequest | undefined> {
	const cap = run.settings.maxRequestsPerSecond;
	if (!(await waitFor(ctx, run, reserveSlot(tenant, cap)))) return undefined;
	for (;;) {
		if (stoppedReason(ctx, run) !== undefined) return undefined;
		const start = startOrWait(tenant, cap);
		if ('started' in start) return start.started;
		if (!(await waitFor(ctx, run, start.waitMs))) return undefined;
	}
}

/** The credential for this run, loaded on first use and then reused for every item and page. */
export async function runCredentials(
	ctx: ServiceContext,
	run: ServiceRun,
	itemIndex: number,
): Promise<IDataObject> {
	if (!run.state.credentials) {
		const loading = (ctx as IExecuteFunctions).getCredentials(
			CREDENTIAL_TYPE,
			itemIndex,
		) as Promise<IDataObject>;
		run.state.credentials = loading;
		// A failed load (e.g. a credential expression) is not kept: the next item tries again.
		loading.catch(() => {
			if (run.state.credentials === loading) run.state.credentials = undefined;
		});
	}
	return await run.state.credentials;
}

export interface ServiceRequest {
	method: IHttpRequestMethods;
	host: ServiceHost;
	/** Path segments after /api; each is sent as exactly one segment, whatever it contains. */
	path: readonly PathSegment[];
	qs?: IDataObject;
	body?: IDataObject;
	/** A URL the service gave (a list's nextLink, an event's uri), absolute or relative to `relativeTo`; only ever called on the host's origin. */
	link?: { url: string; relativeTo: string; what: string };
	/** Per-item value of X-Service-Credential-Id; the credential's default when empty. */
	credentialId?: string;
}

const MAX_SINGLE_BACKOFF_MS = 30_000;
/**
 * A 409 means the connected system's data is not ready yet, which takes tens of seconds (decisions.md:
 * retry after 30 to 60 s): without a Retry-After it waits at least this many Initial Retry Delays.
 */
const NOT_READY_DELAY_FACTOR = 30;

/** Exponential backoff with full jitter, so that many workflows do not retry in lockstep. */
function backoffMs(run: ServiceRun, attempt: number, status?: number): number {
	const ceiling = Math.min(MAX_SINGLE_BACKOFF_MS, run.settings.initialDelayMs * 2 ** (attempt - 1));
	const jittered = Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
	return status === 409
		? Math.max(jittered, run.settings.initialDelayMs * NOT_READY_DELAY_FACTOR)
		: jittered;
}

/** The URL to call, or why it must not be called (before anything is sent). */
function targetUrl(
	credentials: IDataObject,
	request: ServiceRequest,
): { url: string } | { refused: string } {
	const host = hostBaseUrl(credentials, request.host);
	if ('refused' in host) return host;
	if (!request.link) return endpointUrl(host.base, request.path);
	const target = sameOriginUrl(request.link.url, request.link.relativeTo, host.base);
	if ('refused' in target) {
		return {
			refused: `The service pointed to ${request.link.what} on another origin (${target.refused}); it is not followed with your token`,
		};
	}
	return target;
}

/** The bearer token to send, or an error naming what the credential lacks (nothing is sent then). */
function tokenFor(ctx: ServiceContext, itemIndex: number, credentials: IDataObject): string {
	let token: string;
	try {
		token = serviceToken(credentials as ICredentialDataDecryptedObject);
	} catch (error) {
		throw new NodeOperationError(ctx.getNode(), (error as Error).message, { itemIndex });
	}
	const problem = headerValueProblem(token);
	if (problem !== undefined) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The Integration Service credential's token ${problem}; paste it again`,
			{ itemIndex },
		);
	}
	return token;
}

/** X-Service-Credential-Id for hosts that take it: the item's override, else the credential's default. */
function credentialIdHeader(
	credentials: IDataObject,
	request: ServiceRequest,
): { value?: string } | { refused: string } {
	if (!HOSTS_WITH_CREDENTIAL_ID.has(request.host)) return {};
	const override = (request.credentialId ?? '').trim();
	const value =
		override !== '' ? (request.credentialId ?? '') : String(credentials.credentialId ?? '');
	// Checked before trimming: the HTTP client would silently strip or alter it and send another ID.
	const problem = headerValueProblem(value);
	if (problem !== undefined) {
		const field = override !== '' ? 'Connection ID' : "The credential's Default Credential ID";
		return { refused: `${field}: ${problem}` };
	}
	if (value.trim() === '') {
		return {
			refused:
				'Connection ID: empty; set a Default Credential ID in the credential or a Connection ID on the node',
		};
	}
	return { value: value.trim() };
}

/**
 * The one function every request goes through: host selection, header rules, path encoding,
 * pacing, retries with backoff, deadlines, size bounds and error shaping.
 */
export async function serviceRequest(
	this: ServiceContext,
	itemIndex: number,
	request: ServiceRequest,
	run: ServiceRun = newRun(),
): Promise<IDataObject> {
	const credentials = await runCredentials(this, run, itemIndex);
	const forms = secretForms(credentials);
	const target = targetUrl(credentials, request);
	const credentialId = credentialIdHeader(credentials, request);
	const refused =
		'refused' in target
			? target.refused
			: 'refused' in credentialId
				? credentialId.refused
				: undefined;
	if (refused !== undefined || !('url' in target)) {
		throw new NodeOperationError(this.getNode(), redact(refused ?? '', forms), { itemIndex });
	}
	const connectionId = 'value' in credentialId ? credentialId.value : undefined;
	const headers: IDataObject = { Accept: 'application/json' };
	if (connectionId !== undefined) headers['X-Service-Credential-Id'] = connectionId;
	const tenant = tenantOf(this, originOf(target.url), connectionId);
	const options: IHttpRequestOptions = {
		method: request.method,
		url: target.url,
		qs: request.link ? undefined : request.qs,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		// The body is read here, as a stream: bounded in size and time, and parsed as JSON by us.
		encoding: 'stream',
		json: false,
		// Only a backstop for a silent socket: the attempt's deadline (sendAttempt) is what ends it.
		timeout: run.settings.timeoutMs + 1000,
	};
	if (request.body !== undefined) {
		headers['Content-Type'] = 'application/json';
		options.body = JSON.stringify(request.body);
	}

	const { maxAttempts, maxTotalWaitMs } = run.settings;
	let waitedMs = 0;
	let attempts = 0;
	let failure: AttemptFailure | undefined;
	/** Waits before the next attempt, within this request's budget; false when it must not go on. */
	const waitBeforeAttempt = async (wanted: number): Promise<boolean> => {
		const wait = Math.max(wanted, pausedUntil(tenant) - Date.now());
		if (wait <= 0) return true;
		if (waitedMs + wait > maxTotalWaitMs) {
			failure ??= {
				status: 429,
				message: 'Rate limited by the service (HTTP 429): the run is paused',
				retryable: false,
			};
			failure.gaveUp = `gave up: waiting ${formatSeconds(wait)} more would exceed the Max Total Retry Wait of ${formatSeconds(maxTotalWaitMs)}`;
			return false;
		}
		waitedMs += wait;
		return await waitFor(this, run, wait);
	};

	let nextWait = 0;
	// Every token this request sent is redacted from its errors, with the credential's secrets.
	let sentForms = forms;
	while (attempts < maxAttempts && (await waitBeforeAttempt(nextWait))) {
		// A fresh token for every attempt (a signed one is valid for 15 minutes; a run may be longer),
		// made before the start is counted, so that nothing between the two can throw.
		const token = tokenFor(this, itemIndex, credentials);
		const paced = await startWhenPaced(this, run, tenant);
		if (paced === undefined) break;
		attempts++;
		sentForms = withSecret(sentForms, token);
		const outcome = await sendAttempt(this, {
			method: request.method,
			url: target.url,
			options: { ...options, headers: { ...headers } },
			credentials: {
				...credentials,
				sessionToken: sessionTokenOf(credentials as ICredentialDataDecryptedObject, token),
			},
			secretForms: sentForms,
			timeoutMs: run.settings.timeoutMs,
			maxResponseBytes: run.settings.maxResponseBytes,
			stoppedReason: () => stoppedReason(this, run),
		}).finally(() => finished(paced));
		if ('json' in outcome) return outcome.json;
		failure = outcome.failure;
		if (!failure.retryable || attempts >= maxAttempts) break;
		nextWait = failure.retryAfterMs ?? backoffMs(run, attempts, failure.status);
		// A rate limit slows every run of the tenant down, not just this request.
		if (failure.status === 429) pauseTenant(tenant, Date.now() + nextWait);
	}
	throw failedRequest(
		this,
		itemIndex,
		request,
		target.url,
		attempts,
		sentForms,
		failure,
		stoppedReason(this, run),
	);
}

/** The error a failed request ends with: what happened, how often it was tried, and whether it may have been processed. */
function failedRequest(
	ctx: ServiceContext,
	itemIndex: number,
	request: ServiceRequest,
	url: string,
	attempts: number,
	forms: readonly string[],
	failure: AttemptFailure | undefined,
	stopped: string | undefined,
): NodeApiError {
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
	const where = `${request.method} ${request.host} ${url.replace(/[?#].*$/, '')}`;
	const description = redact([final.description, where].filter(Boolean).join(' '), forms);
	const httpCode = final.status ? String(final.status) : undefined;
	const error = new NodeApiError(
		ctx.getNode(),
		{ message, description, httpCode: httpCode ?? null } as JsonObject,
		{ message, description, httpCode, itemIndex },
	);
	// NodeApiError swaps a message that mentions a network error code for a generic one: keep ours.
	error.message = message;
	return error;
}
