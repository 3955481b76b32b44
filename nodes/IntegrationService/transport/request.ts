import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { serviceToken, sessionTokenOf } from '../../../credentials/serviceToken';
import type { PathSegment, ServiceHost } from '../../shared/service';
import {
	CREDENTIAL_TYPE,
	endpointUrl,
	headerValueProblem,
	hostBaseUrl,
	hostOrigin,
	HOSTS_WITH_CREDENTIAL_ID,
	sameOriginUrl,
} from '../../shared/service';
import type { ServiceContext } from './attempt';
import { tenantKey } from './pace';
import type { PreparedRequest } from './retry';
import { sendCreateOnce } from './repeats';
import { sendWithRetries } from './retry';
import { redact, secretForms, withWriteOnly } from './secrets';
import type { ServiceRun } from './run';
import { newRun, runCredentials } from './run';

/**
 * One request to the service, made ready before anything is sent: its host and URL (a link only on
 * the host's origin), its headers (the token, the Connection ID), its body and its tenant; retry.ts
 * then sends it.
 */

// paging.ts reads the run through here.
export type { ServiceRun } from './run';
export { runCredentials } from './run';

/**
 * Which tenant a request counts against (pace.ts): the n8n credential, the Connection ID sent and the
 * origin it goes to.
 */
function tenantOf(
	ctx: ServiceContext,
	run: ServiceRun,
	origin: string,
	connectionId: string | undefined,
): string {
	if (run.state.credentialKey === undefined) {
		const credential = ctx.getNode().credentials?.[CREDENTIAL_TYPE];
		run.state.credentialKey = credential?.id ?? credential?.name ?? '';
	}
	return tenantKey(run.state.credentialKey, connectionId, origin);
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
	/**
	 * Values of the body that must never leave the node (the catalogue's write-only fields, e.g. a
	 * user's password): taken out of this request's answer and errors like the credential's secrets.
	 */
	writeOnly?: readonly string[];
	/**
	 * A create of a new record: the noun of what it makes. As a tool, the same create again within two
	 * minutes is not sent (repeats.ts).
	 */
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

/** The URL to call and its origin (the host's: a link is only followed there), or why it must not be called (before anything is sent). */
function targetUrl(
	credentials: IDataObject,
	request: ServiceRequest,
): { url: string; origin: string } | { refused: string } {
	const host = hostBaseUrl(credentials, request.host);
	if ('refused' in host) return host;
	const origin = hostOrigin(host.base);
	const target = request.link
		? sameOriginUrl(request.link.url, request.link.relativeTo, host.base)
		: endpointUrl(host.base, request.path);
	if ('url' in target) return { url: target.url, origin };
	if (!request.link) return target;
	return {
		refused: `The service pointed to ${request.link.what} on another origin (${target.refused}); it is not followed with your token`,
	};
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

/** In Access Token mode the token is the same for every attempt of a run: checked and copied once. */
const accessTokenSigned = new WeakMap<IDataObject, { token: string; credentials: IDataObject }>();

/** The token an attempt sends and the credential that sends it (a fresh JWT in Client ID and Secret mode). */
function signed(
	ctx: ServiceContext,
	itemIndex: number,
	credentials: IDataObject,
): { token: string; credentials: IDataObject } {
	const fresh = credentials.authentication === 'clientCredentials';
	const known = fresh ? undefined : accessTokenSigned.get(credentials);
	if (known) return known;
	const token = tokenFor(ctx, itemIndex, credentials);
	const sessionToken = sessionTokenOf(credentials as ICredentialDataDecryptedObject, token);
	const result = { token, credentials: { ...credentials, sessionToken } };
	if (!fresh) accessTokenSigned.set(credentials, result);
	return result;
}

/** What every attempt of a request sends: the checked URL, headers and options, and its tenant. */
async function prepared(
	ctx: ServiceContext,
	itemIndex: number,
	request: ServiceRequest,
	run: ServiceRun,
): Promise<PreparedRequest> {
	const credentials = await runCredentials(ctx, run, itemIndex);
	const forms = withWriteOnly(secretForms(credentials), request.writeOnly ?? []);
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
	const tenant = tenantOf(ctx, run, target.origin, connectionId);
	const sign = () => signed(ctx, itemIndex, credentials);
	const { method, host } = request;
	return { itemIndex, method, host, url: target.url, headers, options, tenant, forms, sign };
}

/**
 * The one function every request goes through: host selection, header rules, path encoding, then
 * (retry.ts) pacing, retries with backoff, deadlines (the attempt's and the item's), size bounds and
 * error shaping.
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
