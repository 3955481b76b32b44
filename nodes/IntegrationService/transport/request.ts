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

/** A node run, and one request of it made ready before anything is sent; retry.ts sends it. */

export function newRun(
	settings: Readonly<RequestSettings> = DEFAULT_SETTINGS,
	asTool = false,
): ServiceRun {
	return { settings, asTool, state: { stop: new AbortController() } };
}

class RunStopped extends Error {}

/** Ends the run: every wait ends now, and nothing more is sent. */
export function stopRun(run: ServiceRun, reason: string): void {
	if (!run.state.stop.signal.aborted) run.state.stop.abort(new RunStopped(reason));
}

/**
 * The run as one item's operation sees it, with its deadline from now: a caller that waits for the
 * answer (an MCP client, a webhook sender) must not be outlived by its requests.
 */
export function startItem(run: ServiceRun, bound?: string, now = Date.now()): ServiceRun {
	const { maxItemMs } = run.settings;
	if (maxItemMs <= 0) return run;
	const named = bound ?? `the Max Time per Item of ${formatSeconds(maxItemMs)}`;
	return { ...run, deadline: { at: now + maxItemMs, bound: named } };
}

/** The run's credential, loaded on first use; a failed load is not kept, so the next item tries again. */
export function runCredentials(ctx: ServiceContext, run: ServiceRun, itemIndex: number) {
	if (!run.state.credentials) {
		const loading = (ctx as IExecuteFunctions).getCredentials(CREDENTIAL_TYPE, itemIndex);
		run.state.credentials = loading;
		loading.catch(() => {
			if (run.state.credentials === loading) run.state.credentials = undefined;
		});
	}
	return run.state.credentials;
}

/** The credential's secrets in every form, made once per loaded credential. */
export function runForms(run: ServiceRun, credentials: IDataObject): readonly string[] {
	if (run.state.forms?.of !== credentials)
		run.state.forms = { of: credentials, forms: secretForms(credentials) };
	return run.state.forms.forms;
}

/**
 * Takes the credential's secrets out of an error leaving the node, an input error included (a secret
 * pasted into a field comes back in the message). Without a credential, bearer tokens and JWTs go.
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
		// The failed load is its own error elsewhere.
	}
	redactError(error, forms);
}

declare const readFromItem: unique symbol;

/**
 * Which connection (X-Service-Credential-Id) a request uses: the item's Connection ID, or the
 * credential's default when empty. Branded so that no object literal passes for one: the node's
 * `connectionOf` reads it from the item, CREDENTIAL_DEFAULT is the default's.
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
	/** Values of the body that must never leave the node (a user's password): redacted like secrets. */
	writeOnly?: readonly string[];
	/** A create: the noun of what it makes. As a tool, the same create within two minutes is not sent again. */
	creates?: string;
	/** A URL the service gave (a nextLink, an event's uri), absolute or relative; only called on the host's origin. */
	link?: { url: string; relativeTo: string; what: string };
}

/** A request to the CRM, LOS or calendar host cannot be written without its `connection`. */
export type ServiceRequest = RequestParts &
	(
		| { host: Exclude<ServiceHost, 'universal'>; connection: Connection }
		| { host: 'universal'; connection?: Connection }
	);

/** The Connection ID the request names; '' for the credential's default. */
export function connectionIdOf(request: ServiceRequest): string {
	return request.connection?.credentialId ?? '';
}

/** The URL to call, or why it must not be called. */
function targetUrl(credentials: IDataObject, request: ServiceRequest) {
	const host = hostBaseUrl(credentials, request.host);
	if ('refused' in host) return host;
	const { link } = request;
	const target = link
		? sameOriginUrl(link.url, link.relativeTo, host.base)
		: endpointUrl(host.base, request.path);
	if ('url' in target) return { url: target.url, origin: new URL(host.base).origin };
	if (!link) return target;
	return {
		refused: `The service pointed to ${link.what} on another origin (${target.refused}); it is not followed with your token`,
	};
}

/** X-Service-Credential-Id for hosts that take it, or why it cannot be sent. */
function connectionHeader(credentials: IDataObject, request: ServiceRequest) {
	if (!HOSTS_WITH_CREDENTIAL_ID.has(request.host)) return undefined;
	const override = connectionIdOf(request);
	const own = override.trim() !== '';
	const value = own ? override : String(credentials.credentialId ?? '');
	// Checked before trimming: the HTTP client would alter it and send another ID.
	const problem = headerValueProblem(value);
	if (problem !== undefined)
		return {
			refused: `${own ? 'Connection ID' : "The credential's Default Credential ID"}: ${problem}`,
		};
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
		// Read by attempt.ts as a stream: bounded in size and time.
		encoding: 'stream',
		json: false,
	};
	if (request.body !== undefined) {
		headers['Content-Type'] = 'application/json';
		options.body = JSON.stringify(request.body);
	}
	if (run.state.credentialKey === undefined) {
		const credential = ctx.getNode().credentials?.[CREDENTIAL_TYPE];
		run.state.credentialKey = credential?.id ?? credential?.name ?? '';
	}
	const tenant = tenantKey(run.state.credentialKey, connectionId, target.origin);
	const { method, host } = request;
	return { itemIndex, method, host, url: target.url, options, tenant, forms, credentials };
}

/** The one function every request goes through: made ready here, then paced, retried and bounded (retry.ts). */
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
