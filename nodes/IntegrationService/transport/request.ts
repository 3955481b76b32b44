import type { IDataObject, IExecuteFunctions, IHttpRequestMethods as Method } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PathSegment, ServiceHost } from '../../shared/service';
import * as service from '../../shared/service';
import { formatSeconds } from './errors';
import { tenantKey } from './pace';
import { sendCreateOnce } from './repeats';
import type { PreparedRequest } from './attempt';
import { sendWithRetries } from './retry';
import type { RequestSettings, ServiceContext, ServiceRun } from './run';
import { DEFAULT_SETTINGS } from './run';
import { redact, redactError, secretForms, withSecrets } from './secrets';

/** A node run, and one request of it made ready before anything is sent; retry.ts sends it. */
export function newRun(
	settings: Readonly<RequestSettings> = DEFAULT_SETTINGS,
	asTool = false,
): ServiceRun {
	return { settings, asTool, state: { stop: new AbortController() } };
}

/** Ends the run: every wait ends now, and nothing more is sent. */
export function stopRun(run: ServiceRun, reason: string): void {
	if (!run.state.stop.signal.aborted) run.state.stop.abort(new Error(reason));
}

/** The run for one item, with its deadline from now: a caller that waits is not outlived by its requests. */
export function startItem(run: ServiceRun, bound?: string, now = Date.now()): ServiceRun {
	const { maxItemMs } = run.settings;
	if (maxItemMs <= 0) return run;
	const named = bound ?? `the Max Time per Item of ${formatSeconds(maxItemMs)}`;
	return { ...run, deadline: { at: now + maxItemMs, bound: named } };
}

/** The run's credential, loaded on first use; a failed load is not kept, so the next item tries again. */
export function runCredentials(ctx: ServiceContext, run: ServiceRun, itemIndex: number) {
	if (!run.state.credentials) {
		const loading = (ctx as IExecuteFunctions).getCredentials(service.CREDENTIAL_TYPE, itemIndex);
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

/** Takes the credential's secrets out of an error leaving the node, an input error included. */
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
 * The item's Connection ID (X-Service-Credential-Id), or the credential's default when empty; branded
 * so that no object literal passes for one: only the node's `connectionOf` and CREDENTIAL_DEFAULT.
 */
export type Connection = { readonly credentialId?: string } & { readonly [readFromItem]: true };

/** The credential's Default Credential ID: for requests with no Connection ID to read (the trigger's). */
export const CREDENTIAL_DEFAULT = {} as Connection;

/**
 * `path`: segments after /api, each sent as one segment; `writeOnly`: body values redacted like
 * secrets (a password); `creates`: the noun a create makes (repeats.ts); `link`: a URL the service
 * gave, called only on the host's origin.
 */
interface RequestParts {
	method: Method;
	path: readonly PathSegment[];
	qs?: IDataObject;
	body?: IDataObject;
	writeOnly?: readonly string[];
	creates?: string;
	link?: { url: string; relativeTo: string; what: string };
}

/** A request to the CRM, LOS or calendar host cannot be written without its `connection`. */
export type ServiceRequest = RequestParts &
	(
		| { host: Exclude<ServiceHost, 'universal'>; connection: Connection }
		| { host: 'universal'; connection?: Connection }
	);

/** The Connection ID sent: the request's, else the credential's default. */
export function connectionIdOf(request: ServiceRequest, credentials: IDataObject): string {
	const own = request.connection?.credentialId ?? '';
	return own.trim() !== '' ? own : String(credentials.credentialId ?? '');
}

/** The URL to call, or why it must not be called. */
function targetUrl(credentials: IDataObject, request: ServiceRequest) {
	const host = service.hostBaseUrl(credentials, request.host);
	if ('refused' in host) return host;
	const { link } = request;
	const target = link
		? service.sameOriginUrl(link.url, link.relativeTo, host.base)
		: service.endpointUrl(host.base, request.path);
	if ('url' in target) return { url: target.url, origin: new URL(host.base).origin };
	if (!link) return target;
	return {
		refused: `The service pointed to ${link.what} on another origin (${target.refused}); it is not followed with your token`,
	};
}

/** X-Service-Credential-Id for hosts that take it (`value`), or why it cannot be sent. */
function connectionHeader(credentials: IDataObject, request: ServiceRequest) {
	if (!service.HOSTS_WITH_CREDENTIAL_ID.has(request.host)) return undefined;
	const value = connectionIdOf(request, credentials);
	// Checked before trimming: the HTTP client would alter it and send another ID.
	const problem = service.headerValueProblem(value);
	const own = request.connection?.credentialId?.trim();
	const field = own ? 'Connection ID' : "The credential's Default Credential ID";
	if (problem !== undefined) return { refused: `${field}: ${problem}` };
	if (value.trim() !== '') return { value: value.trim() };
	return {
		refused: `Connection ID: empty; set a Default Credential ID in the credential or a Connection ID on the node`,
	};
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
	const connectionId = connectionHeader(credentials, request);
	const refused = 'refused' in target ? target.refused : connectionId?.refused;
	if (refused !== undefined || 'refused' in target)
		throw new NodeOperationError(ctx.getNode(), redact(refused ?? '', forms), { itemIndex });
	const headers: IDataObject = { Accept: 'application/json' };
	if (connectionId) headers['X-Service-Credential-Id'] = connectionId.value;
	const options: PreparedRequest['options'] = {
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
		const credential = ctx.getNode().credentials?.[service.CREDENTIAL_TYPE];
		run.state.credentialKey = credential?.id ?? credential?.name ?? '';
	}
	const tenant = tenantKey(run.state.credentialKey, connectionId?.value, target.origin);
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
