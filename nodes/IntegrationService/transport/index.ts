import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { assertHeaderSafe } from '../helpers/validation';

export const CREDENTIAL_TYPE = 'integrationServiceApi';

/** The four hosts of the service; every endpoint lives on exactly one of them. */
export type ServiceHost = 'crm' | 'universal' | 'los' | 'calendar';

const HOST_FIELDS: Record<ServiceHost, { field: string; label: string }> = {
	crm: { field: 'crmUrl', label: 'CRM Host URL' },
	universal: { field: 'universalUrl', label: 'Universal Host URL' },
	los: { field: 'losUrl', label: 'LOS Host URL' },
	calendar: { field: 'calendarUrl', label: 'Calendar Host URL' },
};

/** decisions.md: X-Service-Credential-Id goes to every host except universal, which manages credentials itself. */
const HOSTS_WITH_CREDENTIAL_ID: ReadonlySet<ServiceHost> = new Set(['crm', 'los', 'calendar']);

export interface ServiceRequest {
	method: IHttpRequestMethods;
	host: ServiceHost;
	/** Path segments after /api; each is sent as exactly one segment, whatever it contains. */
	path: readonly PathSegment[];
	qs?: IDataObject;
	body?: IDataObject;
	/** An absolute URL to call instead of host + path (a list's nextLink); it must share the host's origin. */
	absoluteUrl?: string;
	/** Per-item value of X-Service-Credential-Id; the credential's default when empty. */
	credentialId?: string;
}

/** A fixed path part, or an ID the user typed (its field's label names it in errors). */
export type PathSegment = string | { id: string; field: string };

/** How hard to try: read once per node run from the Request Options. */
export interface RequestSettings {
	maxAttempts: number;
	maxTotalWaitMs: number;
	initialDelayMs: number;
	timeoutMs: number;
}

export const DEFAULT_SETTINGS: Readonly<RequestSettings> = {
	maxAttempts: 5,
	maxTotalWaitMs: 60_000,
	initialDelayMs: 1_000,
	timeoutMs: 30_000,
};

/** What every request of one node run shares: its settings, and state that changes while it runs. */
export interface ServiceRun {
	readonly settings: Readonly<RequestSettings>;
	readonly state: {
		/** A 429 anywhere pauses every request of the run until this time (epoch ms). */
		pausedUntil: number;
	};
}

export function newRun(settings: Readonly<RequestSettings> = DEFAULT_SETTINGS): ServiceRun {
	return { settings, state: { pausedUntil: 0 } };
}

const MAX_SINGLE_BACKOFF_MS = 30_000;
/**
 * A 409 means the connected system's data is not ready yet, which takes tens of seconds (decisions.md:
 * retry after 30 to 60 s): without a Retry-After it waits at least this many Initial Retry Delays.
 */
const NOT_READY_DELAY_FACTOR = 30;
const MAX_ERROR_TEXT = 300;

/** A response with a status code, from the service or from our own reading of it. */
interface RawResponse {
	statusCode: number;
	headers: Record<string, string | string[] | undefined>;
	body: string;
}

/** What went wrong on one attempt, and whether another attempt may help. */
interface AttemptFailure {
	status?: number;
	message: string;
	description?: string;
	retryable: boolean;
	retryAfterMs?: number;
	/** A Create that failed this way may have been processed: it is not repeated, and the message says so. */
	mayHaveBeenProcessed?: boolean;
	/** Why retrying stopped before Max Attempts. */
	gaveUp?: string;
}

function formatSeconds(ms: number): string {
	return ms % 1000 === 0 || ms >= 10_000 ? `${Math.ceil(ms / 1000)} s` : `${(ms / 1000).toFixed(1)} s`;
}

function trimSlashes(url: string): string {
	return url.replace(/\/+$/, '');
}

/** Reads and checks a host URL from the credential; decisions.md: trailing slashes are ignored, http(s) only. */
function hostBaseUrl(
	ctx: IExecuteFunctions,
	credentials: IDataObject,
	host: ServiceHost,
	itemIndex: number,
): string {
	const { field, label } = HOST_FIELDS[host];
	const raw = typeof credentials[field] === 'string' ? (credentials[field] as string).trim() : '';
	let parsed: URL | undefined;
	try {
		parsed = new URL(raw);
	} catch {
		parsed = undefined;
	}
	if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The credential's ${label} must be an http:// or https:// URL`,
			{ itemIndex, description: 'Open the Integration Service API credential and correct the host URL.' },
		);
	}
	return trimSlashes(raw);
}

/**
 * Encodes one path parameter so that it can never change which endpoint is called: "/" is escaped,
 * and "." / ".." (which URL parsers resolve even when escaped) are refused.
 */
function encodePathSegment(value: string): string | undefined {
	return value === '.' || value === '..' ? undefined : encodeURIComponent(value);
}

function headerValue(headers: RawResponse['headers'], name: string): string | undefined {
	const value = headers[name] ?? headers[name.toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
}

/** Retry-After is either delta-seconds or an HTTP date. */
function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	const trimmed = value.trim();
	if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
	const date = Date.parse(trimmed);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - now);
}

/** Replaces every secret of the credential, and any bearer token, by a placeholder. */
function redact(text: string, secrets: string[]): string {
	let result = text
		.replace(/Bearer\s+[A-Za-z0-9._~+/=-]+/gi, 'Bearer [redacted]')
		// A JWT anywhere (a signed token echoed back by the service) is a credential too.
		.replace(/\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, '[redacted]');
	for (const secret of secrets) {
		if (secret.length >= 4) result = result.split(secret).join('[redacted]');
	}
	return result;
}

function secretsOf(credentials: IDataObject): string[] {
	return ['accessToken', 'clientSecret']
		.map((field) => credentials[field])
		.filter((value): value is string => typeof value === 'string' && value !== '');
}

/** The service's own words for an error: {"error": "..."} or {"message": "..."}, else the body's text, shortened. */
function serviceErrorText(body: string): string {
	const text = body.trim();
	if (text === '') return '';
	try {
		const parsed = JSON.parse(text) as unknown;
		if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
			const { error, message } = parsed as IDataObject;
			if (typeof error === 'string') return error;
			if (error && typeof error === 'object' && typeof (error as IDataObject).message === 'string') {
				return (error as IDataObject).message as string;
			}
			if (typeof message === 'string') return message;
		}
	} catch {
		// Not JSON: fall through to the shortened text, without HTML tags.
	}
	return shorten(looksLikeHtml(text) ? htmlText(text) : text);
}

function shorten(text: string): string {
	const plain = text.replace(/\s+/g, ' ').trim();
	return plain.length > MAX_ERROR_TEXT ? `${plain.slice(0, MAX_ERROR_TEXT)}…` : plain;
}

function looksLikeHtml(text: string, contentType = ''): boolean {
	return /html/i.test(contentType) || /^\s*<(!doctype|html|head|body|\?xml|[a-z][a-z0-9]*[\s>])/i.test(text);
}

/** An HTML page (a proxy's or gateway's error page) as one line: its title, then its visible text. */
function htmlText(html: string): string {
	const strip = (part: string) =>
		part
			.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
			.replace(/<[^>]*>/g, ' ')
			.replace(/\s+/g, ' ')
			.trim();
	const title = strip(/<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? '');
	let text = strip(/<body[^>]*>([\s\S]*?)(<\/body>|$)/i.exec(html)?.[1] ?? html.replace(/<head[\s\S]*?<\/head>/i, ''));
	if (title !== '' && text.startsWith(title)) text = text.slice(title.length).trim();
	return `an HTML page${title ? ` titled "${title}"` : ''}${text ? `: ${text}` : ''}`;
}

const STATUS_MEANINGS: Record<number, string> = {
	400: 'The service rejected the request as invalid',
	401: 'The access token is invalid or expired',
	403: 'The credential is not allowed to do this',
	404: 'Not found',
	409: 'The connected system’s data is not ready yet',
	415: 'The service did not accept the request’s content type',
	429: 'Rate limited by the service',
};

function statusMeaning(status: number): string {
	if (STATUS_MEANINGS[status]) return STATUS_MEANINGS[status];
	if (status >= 500) return 'The service had an internal error';
	return 'The service answered with an error';
}

/** decisions.md: 429 and 409 on every method; 5xx and network errors only where a repeat is harmless. */
function isIdempotent(method: IHttpRequestMethods): boolean {
	return method === 'GET' || method === 'PUT' || method === 'DELETE' || method === 'HEAD';
}

function classifyStatus(response: RawResponse, method: IHttpRequestMethods): AttemptFailure {
	const status = response.statusCode;
	const text = serviceErrorText(response.body);
	const retryable = status === 429 || status === 409 || (status >= 500 && isIdempotent(method));
	return {
		status,
		message: `${statusMeaning(status)} (HTTP ${status})${text ? `: ${text}` : ''}`,
		retryable,
		// A server fault may come after the work was done: a Create is not repeated.
		mayHaveBeenProcessed: status >= 500 && !isIdempotent(method),
		retryAfterMs: parseRetryAfter(headerValue(response.headers, 'retry-after')),
	};
}

const TIMEOUT_CODES = new Set(['ECONNABORTED', 'ETIMEDOUT', 'ESOCKETTIMEDOUT']);
const NETWORK_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'EPIPE',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
	...TIMEOUT_CODES,
]);

const NETWORK_MEANINGS: Record<string, string> = {
	ECONNRESET: 'the connection was closed before an answer came',
	EPIPE: 'the connection was closed while the request was being sent',
	ECONNREFUSED: 'the connection was refused',
	ENOTFOUND: 'the host name could not be resolved',
	EAI_AGAIN: 'the host name could not be resolved (DNS error)',
	EHOSTUNREACH: 'the host is unreachable',
	ENETUNREACH: 'the network is unreachable',
	ERR_SOCKET_CONNECTION_TIMEOUT: 'the connection could not be opened in time',
};

function findErrorCode(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
		const { code } = current as { code?: unknown };
		if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
		current = (current as { cause?: unknown }).cause;
	}
	const text = error instanceof Error ? error.message : String(error);
	if (/socket hang up/i.test(text)) return 'ECONNRESET';
	if (/timeout of \d+ms exceeded/i.test(text)) return 'ECONNABORTED';
	return undefined;
}

function classifyThrown(
	error: unknown,
	method: IHttpRequestMethods,
	timeoutMs: number,
): AttemptFailure {
	const code = findErrorCode(error);
	if (code && TIMEOUT_CODES.has(code)) {
		const seconds = timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`;
		return {
			message: `The service did not answer within ${seconds} (timeout)`,
			description: `Network error code ${code}.`,
			// A request that timed out may have been processed: only repeat it where that is harmless.
			retryable: isIdempotent(method),
			mayHaveBeenProcessed: !isIdempotent(method),
		};
	}
	if (code) {
		// The code goes in the description only: n8n replaces a message that names a network error code
		// by its own generic text (which would invite repeating a Create).
		return {
			message: `Could not reach the service: ${NETWORK_MEANINGS[code] ?? 'a network error occurred'}`,
			description: `Network error code ${code}.`,
			// A refused connection never reached the service, so even a Create may be sent again;
			// any other network failure may have reached it, so only idempotent requests are repeated.
			retryable: isIdempotent(method) || code === 'ECONNREFUSED',
			mayHaveBeenProcessed: !isIdempotent(method) && code !== 'ECONNREFUSED',
		};
	}
	// Not a network failure (for example the credential refused to sign a token): repeating cannot help.
	const text = error instanceof Error ? error.message : String(error);
	return { message: text, retryable: false };
}

/** Exponential backoff with full jitter, so that many workflows do not retry in lockstep. */
function backoffMs(policy: RequestSettings, attempt: number): number {
	const ceiling = Math.min(MAX_SINGLE_BACKOFF_MS, policy.initialDelayMs * 2 ** (attempt - 1));
	return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

function isAbsoluteSameOrigin(url: string, base: string): boolean {
	try {
		return new URL(url).origin === new URL(base).origin;
	} catch {
		return false;
	}
}

/** The URL to call, or the reason it must not be called. */
function buildUrl(base: string, request: ServiceRequest): { url: string } | { refused: string } {
	if (request.absoluteUrl !== undefined) {
		if (!isAbsoluteSameOrigin(request.absoluteUrl, base)) {
			return {
				refused: `The service pointed to a next page on another origin (${safeOrigin(request.absoluteUrl)}); it is not followed with your token`,
			};
		}
		return { url: request.absoluteUrl };
	}
	const values = request.path.map((segment) => (typeof segment === 'string' ? segment : segment.id));
	const segments = values.map(encodePathSegment);
	const bad = segments.indexOf(undefined);
	if (bad !== -1) {
		const segment = request.path[bad];
		const field = typeof segment === 'string' ? 'ID' : segment.field;
		return { refused: `${field}: "${values[bad]}" cannot be used as an ID` };
	}
	return { url: `${base}/api/${segments.join('/')}` };
}

function safeOrigin(url: string): string {
	try {
		return new URL(url).origin;
	} catch {
		return 'an invalid URL';
	}
}

function parseJsonBody(response: RawResponse): { json: IDataObject } | { malformed: string } {
	const text = response.body;
	if (text.trim() === '') return { json: {} };
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		parsed = undefined;
	}
	if (parsed !== null && typeof parsed === 'object') return { json: parsed as IDataObject };
	const contentType = headerValue(response.headers, 'content-type') ?? '';
	const what = looksLikeHtml(text, contentType)
		? `${shorten(htmlText(text))}, not JSON`
		: `${parsed === undefined ? 'a body that is not valid JSON (truncated or garbled)' : 'a JSON value that is not an object'}: ${shorten(text)}`;
	return { malformed: `The service answered HTTP ${response.statusCode} with ${what}` };
}

/**
 * The one function every request goes through: host selection, header rules, path encoding,
 * JSON, retries with backoff, timeouts and error shaping.
 */
export async function serviceRequest(
	this: IExecuteFunctions,
	itemIndex: number,
	request: ServiceRequest,
	run: ServiceRun = newRun(),
): Promise<IDataObject> {
	const policy = run.settings;
	const credentials = (await this.getCredentials(CREDENTIAL_TYPE, itemIndex)) as IDataObject;
	const secrets = secretsOf(credentials);
	const base = hostBaseUrl(this, credentials, request.host, itemIndex);

	const target = buildUrl(base, request);
	if ('refused' in target) {
		throw new NodeOperationError(this.getNode(), target.refused, { itemIndex });
	}
	const { url } = target;

	const headers: IDataObject = { Accept: 'application/json' };
	if (HOSTS_WITH_CREDENTIAL_ID.has(request.host)) {
		// Checked before trimming: a line break at either end is an input error, not something to tidy away.
		assertHeaderSafe(this, itemIndex, 'Credential ID', request.credentialId ?? '');
		const override = (request.credentialId ?? '').trim();
		const credentialId = override !== '' ? override : String(credentials.credentialId ?? '').trim();
		if (credentialId === '') {
			throw new NodeOperationError(
				this.getNode(),
				`Credential ID: empty on item ${itemIndex}; set a Default Credential ID in the credential or a Credential ID on the node`,
				{ itemIndex },
			);
		}
		assertHeaderSafe(this, itemIndex, 'Credential ID', credentialId);
		headers['X-Service-Credential-Id'] = credentialId;
	}

	const options: IHttpRequestOptions = {
		method: request.method,
		url,
		headers,
		qs: request.absoluteUrl === undefined ? request.qs : undefined,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// Read the body as text and parse it here, so a truncated body or an HTML page becomes a clear error.
		encoding: 'text',
		json: false,
		timeout: policy.timeoutMs,
	};
	if (request.body !== undefined) {
		headers['Content-Type'] = 'application/json';
		options.body = JSON.stringify(request.body);
	}

	let waitedMs = 0;
	let failure: AttemptFailure | undefined;
	let attempts = 0;
	while (attempts < policy.maxAttempts) {
		const pause = run.state.pausedUntil - Date.now();
		if (pause > 0) {
			waitedMs += pause;
			await sleep(pause);
		}
		attempts++;
		let response: RawResponse | undefined;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_TYPE,
				{ ...options, headers: { ...headers } },
				// The credential was loaded above; handing it over spares n8n loading and decrypting it again.
				{ credentialsDecrypted: { id: '', name: '', type: CREDENTIAL_TYPE, data: credentials as ICredentialDataDecryptedObject } },
			)) as RawResponse;
			response.body = typeof response.body === 'string' ? response.body : String(response.body ?? '');
		} catch (error) {
			failure = classifyThrown(error, request.method, policy.timeoutMs);
		}

		if (response) {
			if (response.statusCode >= 200 && response.statusCode < 300) {
				const parsed = parseJsonBody(response);
				if ('json' in parsed) return parsed.json;
				// A garbled answer to a GET or PUT is worth one more try; a POST was processed, so never.
				failure = {
					message: parsed.malformed,
					status: response.statusCode,
					retryable: isIdempotent(request.method),
					mayHaveBeenProcessed: !isIdempotent(request.method),
				};
			} else {
				failure = classifyStatus(response, request.method);
			}
		}

		if (!failure?.retryable || attempts >= policy.maxAttempts) break;
		const delay =
			failure.retryAfterMs ??
			(failure.status === 409
				? Math.max(backoffMs(policy, attempts), policy.initialDelayMs * NOT_READY_DELAY_FACTOR)
				: backoffMs(policy, attempts));
		if (waitedMs + delay > policy.maxTotalWaitMs) {
			failure.gaveUp = `gave up: waiting ${formatSeconds(delay)} more would exceed the Max Total Retry Wait of ${formatSeconds(policy.maxTotalWaitMs)}`;
			break;
		}
		if (failure.status === 429) {
			// Slow the whole run down, not just this request.
			run.state.pausedUntil = Math.max(run.state.pausedUntil, Date.now() + delay);
			continue;
		}
		waitedMs += delay;
		await sleep(delay);
	}

	const final = failure ?? { message: 'The request was not sent', retryable: false };
	const notes = [
		attempts > 1 ? `after ${attempts} attempts` : '',
		final.gaveUp ?? '',
		final.mayHaveBeenProcessed
			? 'not sent twice: the service may already have processed it; check before running it again'
			: '',
	].filter(Boolean);
	const message = redact(`${final.message}${notes.length ? ` (${notes.join('; ')})` : ''}`, secrets);
	const description = redact(
		[final.description, `${request.method} ${request.host} ${url.replace(/\?.*$/, '')}`]
			.filter(Boolean)
			.join(' '),
		secrets,
	);
	const error = new NodeApiError(
		this.getNode(),
		{ message, description, httpCode: final.status ? String(final.status) : null } as JsonObject,
		{ message, description, httpCode: final.status ? String(final.status) : undefined, itemIndex },
	);
	// NodeApiError swaps a message that mentions a network error code for a generic one: keep ours.
	error.message = message;
	throw error;
}

export interface PageRequest {
	/** The list request (host + path + extra query), without paging parameters. */
	request: ServiceRequest;
	/** How many records at most; undefined means all. */
	maxRecords?: number;
	pageSize: number;
	/** Key of the records array in each page (e.g. "people"). */
	recordsKey: string;
}

/**
 * Return All / Limit over a list (decisions.md): follow nextLink on the host's origin, else the
 * `next` cursor, else offset paging; stop on an empty page, no cursor left, or offset + count >= total.
 * A failed page is retried by serviceRequest on its own: the pages already read are kept.
 */
export async function serviceRequestPages(
	this: IExecuteFunctions,
	itemIndex: number,
	list: PageRequest,
	run: ServiceRun,
	onPage: (records: IDataObject[]) => void,
): Promise<number> {
	const seenCursors = new Set<string>();
	const baseQs = { ...(list.request.qs ?? {}) };
	let received = 0;
	let offset = Number(baseQs.offset ?? 0) || 0;
	let cursor: { next?: string; nextLink?: string } = {};

	for (;;) {
		const remaining = list.maxRecords === undefined ? list.pageSize : list.maxRecords - received;
		const limit = Math.min(list.pageSize, remaining);
		const pageRequest: ServiceRequest = { ...list.request };
		if (cursor.nextLink !== undefined) {
			pageRequest.absoluteUrl = cursor.nextLink;
		} else if (cursor.next !== undefined) {
			pageRequest.qs = { ...baseQs, limit, next: cursor.next };
		} else {
			pageRequest.qs = { ...baseQs, limit, offset };
		}

		const page = await serviceRequest.call(this, itemIndex, pageRequest, run);
		const records = page[list.recordsKey];
		if (!Array.isArray(records)) {
			throw new NodeApiError(
				this.getNode(),
				{ message: `The service's answer has no "${list.recordsKey}" list` } as JsonObject,
				{ message: `The service's answer has no "${list.recordsKey}" list`, itemIndex },
			);
		}
		const take = list.maxRecords === undefined ? records : records.slice(0, list.maxRecords - received);
		received += take.length;
		onPage(take as IDataObject[]);

		if (records.length === 0) break;
		if (list.maxRecords !== undefined && received >= list.maxRecords) break;

		const meta = (page._metadata ?? {}) as IDataObject;
		const nextLink = typeof meta.nextLink === 'string' && meta.nextLink !== '' ? meta.nextLink : undefined;
		const next = typeof meta.next === 'string' && meta.next !== '' ? meta.next : undefined;
		const pageOffset = typeof meta.offset === 'number' ? meta.offset : offset;
		const total = typeof meta.total === 'number' ? meta.total : undefined;

		const seen = nextLink ?? next;
		if (seen !== undefined) {
			if (seenCursors.has(seen)) {
				const message = 'The service returned the same next-page cursor twice; paging stopped to avoid a loop';
				throw new NodeApiError(this.getNode(), { message } as JsonObject, { message, itemIndex });
			}
			seenCursors.add(seen);
			cursor = nextLink !== undefined ? { nextLink } : { next };
			continue;
		}
		// A service that paged by cursor and gives none now has no more pages.
		if (seenCursors.size > 0) break;
		// Offset paging: only with a total to stop at, or while pages come back full.
		offset = pageOffset + records.length;
		if (total !== undefined ? offset >= total : records.length < limit) break;
		cursor = {};
	}
	return received;
}
