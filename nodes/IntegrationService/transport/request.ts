import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

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
import { sendAttempt } from './attempt';
import type { AttemptFailure } from './errors';
import { formatSeconds } from './errors';
import type { PacedRequest } from './pace';
import { finished, pausedUntil, pauseTenant, reserveSlot, startOrWait, tenantKey } from './pace';
import { redact, secretForms, withSecret } from './secrets';
import type { ServiceRun } from './run';
import { newRun, runCredentials, stoppedReason, timeLeft, waitFor } from './run';

// paging.ts reads the run through here.
export type { ServiceRun } from './run';
export { runCredentials } from './run';

/**
 * Which tenant a request counts against (pace.ts): the n8n credential, the Connection ID sent and the
 * origin it goes to.
 */
function tenantOf(ctx: ServiceContext, origin: string, connectionId: string | undefined): string {
	const credential = ctx.getNode().credentials?.[CREDENTIAL_TYPE];
	return tenantKey(credential?.id ?? credential?.name ?? '', connectionId, origin);
}

/**
 * Waits until the tenant's pace lets the next request of the run start, and starts it: 'stopped' when
 * the run stopped first, 'overdue' when the item's deadline would pass first (nothing is started then).
 */
async function startWhenPaced(
	ctx: ServiceContext,
	run: ServiceRun,
	tenant: string,
): Promise<PacedRequest | 'stopped' | 'overdue'> {
	const cap = run.settings.maxRequestsPerSecond;
	const wait = async (ms: number) =>
		ms >= timeLeft(run) ? 'overdue' : (await waitFor(ctx, run, ms)) ? undefined : 'stopped';
	const slot = await wait(reserveSlot(tenant, cap));
	if (slot !== undefined) return slot;
	for (;;) {
		if (stoppedReason(ctx, run) !== undefined) return 'stopped';
		if (timeLeft(run) <= 0) return 'overdue';
		const start = startOrWait(tenant, cap);
		if ('started' in start) return start.started;
		const waited = await wait(start.waitMs);
		if (waited !== undefined) return waited;
	}
}

declare const readFromItem: unique symbol;

/**
 * Which connection (X-Service-Credential-Id) a request uses: the item's Connection ID, or the
 * credential's default when it is empty. Branded so that no object literal passes for one: the node's
 * `connectionOf` (actions/parameters.ts) reads it from the item, CREDENTIAL_DEFAULT is the default's.
 */
export type Connection = { readonly credentialId?: string } & { readonly [readFromItem]: true };

/** The credential's Default Credential ID: for requests with no Connection ID to read (the trigger's). */
export const CREDENTIAL_DEFAULT = {} as Connection;

interface RequestParts {
	method: IHttpRequestMethods;
	/** Path segments after /api; each is sent as exactly one segment, whatever it contains. */
	path: readonly PathSegment[];
	qs?: IDataObject;
	body?: IDataObject;
	/** A URL the service gave (a list's nextLink, an event's uri), absolute or relative to `relativeTo`; only ever called on the host's origin. */
	link?: { url: string; relativeTo: string; what: string };
}

/**
 * A request to the CRM, LOS or calendar host cannot be written without its `connection`: forgetting
 * it fails the build instead of silently using the credential's default (decisions.md). Universal
 * requests never send one.
 */
export type ServiceRequest = RequestParts &
	(
		| { host: Exclude<ServiceHost, 'universal'>; connection: Connection }
		| { host: 'universal'; connection?: Connection }
	);

/** The Connection ID the request names; '' for the credential's default. */
export function connectionIdOf(request: ServiceRequest): string {
	return request.connection?.credentialId ?? '';
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
	const override = connectionIdOf(request).trim();
	const value = override !== '' ? connectionIdOf(request) : String(credentials.credentialId ?? '');
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

/** What every attempt of a request sends: the checked URL, headers and options, and its tenant. */
async function prepared(
	ctx: ServiceContext,
	itemIndex: number,
	request: ServiceRequest,
	run: ServiceRun,
) {
	const credentials = await runCredentials(ctx, run, itemIndex);
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
		throw new NodeOperationError(ctx.getNode(), redact(refused ?? '', forms), { itemIndex });
	}
	const connectionId = 'value' in credentialId ? credentialId.value : undefined;
	const headers: IDataObject = { Accept: 'application/json' };
	if (connectionId !== undefined) headers['X-Service-Credential-Id'] = connectionId;
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
	};
	if (request.body !== undefined) {
		headers['Content-Type'] = 'application/json';
		options.body = JSON.stringify(request.body);
	}
	const tenant = tenantOf(ctx, originOf(target.url), connectionId);
	return { credentials, forms, url: target.url, headers, options, tenant };
}

/**
 * The one function every request goes through: host selection, header rules, path encoding,
 * pacing, retries with backoff, deadlines (the attempt's and the item's), size bounds and error shaping.
 */
export async function serviceRequest(
	this: ServiceContext,
	itemIndex: number,
	request: ServiceRequest,
	run: ServiceRun = newRun(),
): Promise<IDataObject> {
	const { credentials, forms, url, headers, options, tenant } = await prepared(
		this,
		itemIndex,
		request,
		run,
	);
	const { maxAttempts, maxTotalWaitMs, timeoutMs } = run.settings;
	let waitedMs = 0;
	let attempts = 0;
	let failure: AttemptFailure | undefined;
	/** Why nothing was sent: the item's deadline passed before the first attempt. */
	let overdue: string | undefined;
	const pastDeadline = (): false => {
		const why = `${run.deadline?.bound ?? 'the deadline'} has passed`;
		if (failure) failure.gaveUp ??= `gave up: ${why}`;
		else overdue = why;
		return false;
	};
	/** Waits before the next attempt, within this request's budget and the item's deadline; false when it must not go on. */
	const waitBeforeAttempt = async (wanted: number): Promise<boolean> => {
		const wait = Math.max(wanted, pausedUntil(tenant) - Date.now());
		const left = timeLeft(run);
		if (left <= 0) return pastDeadline();
		if (wait <= 0) return true;
		if (waitedMs + wait > maxTotalWaitMs || wait >= left) {
			failure ??= {
				status: 429,
				message: 'Rate limited by the service (HTTP 429): the run is paused',
				retryable: false,
			};
			// A wait that would outlast the caller is a give-up now, not a sleep first.
			failure.gaveUp =
				waitedMs + wait > maxTotalWaitMs
					? `gave up: waiting ${formatSeconds(wait)} more would exceed the Max Total Retry Wait of ${formatSeconds(maxTotalWaitMs)}`
					: `gave up: ${failure.retryAfterMs === wait ? `the service asked to wait ${formatSeconds(wait)}, which` : `waiting ${formatSeconds(wait)} more`} would pass ${run.deadline?.bound}`;
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
		if (paced === 'overdue') pastDeadline();
		if (paced === 'overdue' || paced === 'stopped') break;
		attempts++;
		sentForms = withSecret(sentForms, token);
		// The attempt's Timeout, clipped to what is left of the item's time.
		const attemptMs = Math.min(timeoutMs, Math.max(1, Math.floor(timeLeft(run))));
		const outcome = await sendAttempt(this, {
			method: request.method,
			url,
			// The client's own timeout is only a backstop for a silent socket: the attempt's deadline ends it.
			options: { ...options, headers: { ...headers }, timeout: attemptMs + 1000 },
			credentials: {
				...credentials,
				sessionToken: sessionTokenOf(credentials as ICredentialDataDecryptedObject, token),
			},
			secretForms: sentForms,
			timeoutMs: attemptMs,
			maxResponseBytes: run.settings.maxResponseBytes,
			stoppedReason: () => stoppedReason(this, run),
		}).finally(() => finished(paced));
		if ('json' in outcome) return outcome.json;
		failure = outcome.failure;
		// Cut off by the item's deadline, or retryable with no time left: no further attempt starts.
		if (timeLeft(run) <= 0 && (failure.retryable || attemptMs < timeoutMs)) pastDeadline();
		if (failure.gaveUp !== undefined || !failure.retryable || attempts >= maxAttempts) break;
		nextWait = failure.retryAfterMs ?? backoffMs(run, attempts, failure.status);
		// A rate limit slows every run of the tenant down, not just this request; but a give-up must not
		// outlive its run, so never for longer than this request would itself still wait.
		if (failure.status === 429)
			pauseTenant(tenant, nextWait, Math.min(maxTotalWaitMs - waitedMs, timeLeft(run)));
	}
	throw failedRequest(
		this,
		itemIndex,
		request,
		url,
		attempts,
		sentForms,
		failure,
		stoppedReason(this, run) ?? overdue,
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
