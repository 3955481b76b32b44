import { createHash } from 'crypto';
import type { IDataObject, IHttpRequestMethods as Method } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PathSegment, ServiceHost } from '../../shared/service';
import * as service from '../../shared/service';
import { formatSeconds } from './errors';
import { tenantKey } from './pace';
import type { PreparedRequest } from './attempt';
import { sendWithRetries } from './retry';
import type { ServiceContext, ServiceRun } from './run';
import { newRun, runCredentials, runForms } from './run';
import { redact, withSecrets } from './secrets';

/** One request of a run made ready before anything is sent; retry.ts sends it. */
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
 * secrets (a password); `creates`: the noun a create makes (sendCreateOnce); `link`: a URL the service
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

/**
 * A model whose client gave up on a slow create asks again: as a tool, the same create (tenant, URL,
 * body) within REPEAT_WINDOW_MS is not sent again; the model gets the first one's answer, or where it
 * stands. In memory only, keyed by a hash (a body may hold a password).
 */

const REPEAT_WINDOW_MS = 120_000;
/** The most settled creates remembered; one in flight is never forgotten (bounded by the requests in flight). */
const MAX_CREATES = 1000;
/** A longer answer is not kept (a created record is a few hundred characters). */
const MAX_ANSWER_CHARS = 10_000;

interface SentCreate {
	readonly at: number;
	state: 'inFlight' | 'answered' | 'uncertain';
	/** The answer as JSON text, when it is short enough to keep. */
	answer?: string;
}

/** In sending order: a settled entry is moved to the end. */
const sentCreates = new Map<string, SentCreate>();

const expired = (sent: SentCreate, now: number) =>
	sent.state !== 'inFlight' && now - sent.at >= REPEAT_WINDOW_MS;

function keyOf({ tenant, method, url, options }: PreparedRequest): string {
	const parts = [tenant, method, url, JSON.stringify(options.qs ?? null), options.body ?? ''];
	return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** Remembers a create about to be sent, dropping expired entries and, over the bound, the oldest settled. */
function remember(key: string, now: number): SentCreate {
	sentCreates.delete(key);
	for (const [oldKey, old] of sentCreates) {
		if (!expired(old, now) && sentCreates.size < MAX_CREATES) break;
		if (old.state !== 'inFlight') sentCreates.delete(oldKey);
	}
	const sent: SentCreate = { at: now, state: 'inFlight' };
	sentCreates.set(key, sent);
	return sent;
}

/** Sends a tool run's create once per window; one that failed without reaching the service is forgotten. */
export async function sendCreateOnce(
	ctx: ServiceContext,
	prepared: PreparedRequest,
	run: ServiceRun,
	noun: string,
): Promise<IDataObject> {
	const key = keyOf(prepared);
	const now = Date.now();
	const before = sentCreates.get(key);
	if (before !== undefined && !expired(before, now)) {
		// A repeat gets the first one's answer (kept only once answered), or where the first one stands.
		if (before.answer !== undefined) return JSON.parse(before.answer) as IDataObject;
		const where = {
			inFlight: 'has not been answered yet',
			uncertain: 'has an unknown outcome: it may have been processed',
			answered: 'was answered (its answer is too long to keep)',
		}[before.state];
		const ago = formatSeconds(Math.max(0, now - before.at));
		const message = `Not sent again: the same create of a ${noun} (same arguments, connection and operation) was sent ${ago} ago and ${where}`;
		const error = new NodeOperationError(ctx.getNode(), message, { itemIndex: prepared.itemIndex });
		error.context.nextStep = `${before.state === 'inFlight' ? 'Wait for it, then look' : 'Look'} the ${noun} up (Get or Get Many) before creating it again; the same create is not sent again within ${formatSeconds(REPEAT_WINDOW_MS)} of the first.`;
		throw error;
	}
	const sent = remember(key, now);
	const sending = sendWithRetries(ctx, prepared, run);
	const settled = () => sentCreates.get(key) === sent && sentCreates.delete(key);
	// Settled before the caller sees the outcome (reactions run in order), so its next call sees it too.
	void sending.then(
		(record) => {
			const answer = JSON.stringify(record);
			sent.state = 'answered';
			if (answer.length <= MAX_ANSWER_CHARS) sent.answer = answer;
			if (settled()) sentCreates.set(key, sent);
		},
		(error: unknown) => {
			const uncertain = (error as { context?: IDataObject }).context?.mayHaveBeenProcessed === true;
			if (uncertain) sent.state = 'uncertain';
			if (settled() && uncertain) sentCreates.set(key, sent);
		},
	);
	return await sending;
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
