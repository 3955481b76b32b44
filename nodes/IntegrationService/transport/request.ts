import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PathSegment, ServiceHost } from '../../shared/service';
import {
	CREDENTIAL_TYPE,
	endpointUrl,
	headerValueProblem,
	hostBaseUrl,
	HOSTS_WITH_CREDENTIAL_ID,
	sameOriginUrl,
} from '../../shared/service';
import type { ServiceContext } from './attempt';
import { formatSeconds } from './errors';
import { tenantKey } from './pace';
import { sendCreateOnce } from './repeats';
import type { PreparedRequest } from './retry';
import { sendWithRetries } from './retry';
import type { RequestSettings, ServiceRun } from './run';
import { DEFAULT_SETTINGS } from './run';
import { redact, redactError, secretForms, withSecrets } from './secrets';

/**
 * A node run (`newRun`, one item's deadline `startItem`, `stopRun`) and one request of it, made ready
 * before anything is sent: its host and URL (a link only on the host's origin), its headers (the
 * token, the Connection ID), its body and its tenant; retry.ts then sends it.
 */

// The run

export function newRun(
	settings: Readonly<RequestSettings> = DEFAULT_SETTINGS,
	asTool = false,
): ServiceRun {
	return { settings, asTool, state: { stop: new AbortController() } };
}

/** Why a run stopped early; requests not yet sent are then never sent. */
class RunStopped extends Error {}

/** Ends the run: every wait ends now, and nothing more is sent. */
export function stopRun(run: ServiceRun, reason: string): void {
	if (!run.state.stop.signal.aborted) run.state.stop.abort(new RunStopped(reason));
}

/**
 * The run as one item's operation sees it, its deadline counted from now: a caller that waits for the
 * answer (an MCP client, a webhook sender) must not be outlived by its requests. The settings, the
 * credential and the stop signal stay shared with the run.
 */
export function startItem(run: ServiceRun, bound?: string, now = Date.now()): ServiceRun {
	const { maxItemMs } = run.settings;
	if (maxItemMs <= 0) return run;
	const named = bound ?? `the Max Time per Item of ${formatSeconds(maxItemMs)}`;
	return { ...run, deadline: { at: now + maxItemMs, bound: named } };
}

/** The credential for this run, loaded on first use and then reused for every item and page (the same promise). */
export function runCredentials(
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
	return run.state.credentials;
}

/** The credential's secrets in every form, made once per loaded credential of the run. */
export function runForms(run: ServiceRun, credentials: IDataObject): readonly string[] {
	if (run.state.forms?.of !== credentials)
		run.state.forms = { of: credentials, forms: secretForms(credentials) };
	return run.state.forms.forms;
}

/**
 * Takes the run's credential secrets out of an error about to leave the node, an input error thrown
 * before anything was sent included (a secret pasted into a field comes back in the message that
 * names the bad value). A credential that cannot load leaves bearer tokens and JWTs to be taken out.
 */
export async function redactRunError(
	ctx: ServiceContext,
	run: ServiceRun,
	itemIndex: number,
	error: unknown,
): Promise<void> {
	let forms: readonly string[] = [];
	try {
		forms = runForms(run, await runCredentials(ctx, run, itemIndex));
	} catch {
		// The failure to load is its own error elsewhere; this error still loses every JWT and bearer token.
	}
	redactError(error, forms);
}

// One request

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
	/** Values of the body that must never leave the node (a user's password): redacted like the credential's secrets. */
	writeOnly?: readonly string[];
	/** A create of a new record: the noun of what it makes. As a tool, the same create again within two minutes is not sent (repeats.ts). */
	creates?: string;
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

/** The URL to call and its origin (the tenant's), or why it must not be called (before anything is sent). */
function targetUrl(
	credentials: IDataObject,
	request: ServiceRequest,
): { url: string; origin: string } | { refused: string } {
	const host = hostBaseUrl(credentials, request.host);
	if ('refused' in host) return host;
	const target = request.link
		? sameOriginUrl(request.link.url, request.link.relativeTo, host.base)
		: endpointUrl(host.base, request.path);
	if ('url' in target) return { url: target.url, origin: new URL(host.base).origin };
	if (!request.link) return target;
	return {
		refused: `The service pointed to ${request.link.what} on another origin (${target.refused}); it is not followed with your token`,
	};
}

/** X-Service-Credential-Id for hosts that take it (the item's override, else the credential's default), or why not. */
function connectionHeader(
	credentials: IDataObject,
	request: ServiceRequest,
): string | { refused: string } | undefined {
	if (!HOSTS_WITH_CREDENTIAL_ID.has(request.host)) return undefined;
	const override = request.connection?.credentialId ?? '';
	const value = override.trim() !== '' ? override : String(credentials.credentialId ?? '');
	// Checked before trimming: the HTTP client would silently strip or alter it and send another ID.
	const problem = headerValueProblem(value);
	if (problem !== undefined) {
		const field =
			override.trim() !== '' ? 'Connection ID' : "The credential's Default Credential ID";
		return { refused: `${field}: ${problem}` };
	}
	if (value.trim() === '')
		return {
			refused:
				'Connection ID: empty; set a Default Credential ID in the credential or a Connection ID on the node',
		};
	return value.trim();
}

/** What every attempt of a request sends: the checked URL, headers and options, and its tenant. */
async function prepared(
	ctx: ServiceContext,
	itemIndex: number,
	request: ServiceRequest,
	run: ServiceRun,
): Promise<PreparedRequest> {
	const credentials = await runCredentials(ctx, run, itemIndex);
	const forms = withSecrets(runForms(run, credentials), request.writeOnly ?? []);
	const target = targetUrl(credentials, request);
	const connection = connectionHeader(credentials, request);
	const refused =
		'refused' in target ? target : typeof connection === 'object' ? connection : undefined;
	if (refused !== undefined || !('url' in target))
		throw new NodeOperationError(ctx.getNode(), redact(refused?.refused ?? '', forms), {
			itemIndex,
		});
	const connectionId = typeof connection === 'string' ? connection : undefined;
	const headers: IDataObject = { Accept: 'application/json' };
	if (connectionId !== undefined) headers['X-Service-Credential-Id'] = connectionId;
	const options: IHttpRequestOptions = {
		method: request.method,
		url: target.url,
		headers,
		qs: request.link ? undefined : request.qs,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		// The body is read by attempt.ts, as a stream: bounded in size and time, and parsed as JSON.
		encoding: 'stream',
		json: false,
	};
	if (request.body !== undefined) {
		headers['Content-Type'] = 'application/json';
		options.body = JSON.stringify(request.body);
	}
	// The tenant a request counts against (pace.ts): the n8n credential, the Connection ID, the origin.
	if (run.state.credentialKey === undefined) {
		const credential = ctx.getNode().credentials?.[CREDENTIAL_TYPE];
		run.state.credentialKey = credential?.id ?? credential?.name ?? '';
	}
	const tenant = tenantKey(run.state.credentialKey, connectionId, target.origin);
	const { method, host } = request;
	return { itemIndex, method, host, url: target.url, options, tenant, forms, credentials };
}

/**
 * The one function every request goes through: host selection, header rules, path encoding, then
 * (retry.ts) pacing, retries with backoff, deadlines, size bounds and error shaping.
 */
export async function serviceRequest(
	this: ServiceContext,
	itemIndex: number,
	request: ServiceRequest,
	run: ServiceRun = newRun(),
): Promise<IDataObject> {
	const ready = await prepared(this, itemIndex, request, run);
	if (run.asTool === true && request.creates !== undefined)
		return await sendCreateOnce(this, ready, run, request.creates);
	return await sendWithRetries(this, ready, run);
}
