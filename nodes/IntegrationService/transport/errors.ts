import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

/**
 * What a failed attempt means and how it is told: whether it may be retried or may have been
 * processed, the message in the service's words, and every secret taken out of it first.
 */

// Redaction: every form in which a secret may come back.

const PLACEHOLDER = '[redacted]';
/** Shorter values would blank out ordinary words; real tokens and secrets are far longer. */
const MIN_SECRET_LENGTH = 4;
/** A fragment of a longer base64 text is matched only from this length on, so short ones hide no words. */
const MIN_FRAGMENT_LENGTH = 8;

function htmlForms(secret: string): string[] {
	const named = secret
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&#39;');
	return [
		named,
		named.replace(/&#39;/g, '&#x27;').replace(/\//g, '&#x2F;'),
		named.replace(/&#39;/g, '&apos;'),
	];
}

function jsonForms(secret: string): string[] {
	const json = JSON.stringify(secret).slice(1, -1);
	const unicode = json.replace(
		/[<>&']/g,
		(char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
	);
	return [json, json.replace(/\//g, '\\/'), unicode];
}

function urlForms(secret: string): string[] {
	const component = encodeURIComponent(secret);
	return [
		component,
		component.replace(/%20/g, '+'),
		component.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
		encodeURI(secret),
	];
}

/**
 * The secret's bytes in base64 and base64url, whole (with and without padding) and as they stand
 * inside a longer encoded text: for each of the three byte alignments, the characters that only the
 * secret's bytes decide. An echo of a whole request or header, base64-encoded, is caught too.
 */
function base64Forms(secret: string): string[] {
	const bytes = Buffer.from(secret, 'utf8');
	const forms: string[] = [];
	for (const alphabet of ['base64', 'base64url'] as const) {
		const whole = bytes.toString(alphabet);
		forms.push(whole, whole.replace(/=+$/, ''));
		for (let offset = 0; offset < 3; offset++) {
			const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString(alphabet);
			const start = Math.ceil((8 * offset) / 6);
			const end = Math.floor((8 * (offset + bytes.length)) / 6);
			const fragment = encoded.slice(start, end);
			if (fragment.length >= MIN_FRAGMENT_LENGTH) forms.push(fragment);
		}
	}
	return forms;
}

function hexForms(secret: string): string[] {
	const hex = Buffer.from(secret, 'utf8').toString('hex');
	return [hex, hex.toUpperCase()];
}

/** Every form in which a secret may come back from a service, a proxy or an error page. */
function encodedForms(secret: string): string[] {
	return [
		secret,
		...urlForms(secret),
		...htmlForms(secret),
		...jsonForms(secret),
		...base64Forms(secret),
		...hexForms(secret),
	];
}

function formsOfValues(values: readonly string[]): string[] {
	const secrets = values
		.flatMap((value) => [value, value.trim()])
		.filter((value) => value.length >= MIN_SECRET_LENGTH);
	return [...new Set(secrets.flatMap(encodedForms))].filter(
		(form) => form.length >= MIN_SECRET_LENGTH,
	);
}

const longestFirst = (forms: string[]): string[] => forms.sort((a, b) => b.length - a.length);

/** Forms per loaded credential: a run loads it once and sends many requests with it. */
const formsOf = new WeakMap<IDataObject, readonly string[]>();

/** The secrets of a credential (raw and trimmed) in every encoded form, longest first. */
export function secretForms(credentials: IDataObject): readonly string[] {
	const known = formsOf.get(credentials);
	if (known) return known;
	const values = ['accessToken', 'clientSecret', 'signingSecret', 'sessionToken']
		.map((field) => credentials[field])
		.filter((value): value is string => typeof value === 'string');
	const sorted = longestFirst(formsOfValues(values));
	formsOf.set(credentials, sorted);
	return sorted;
}

/** The last secret added to each list of forms: requests of one second share their signed token. */
const lastAdded = new WeakMap<readonly string[], { secret: string; forms: readonly string[] }>();

/**
 * The forms with those of one more secret added: the token an attempt actually sent (in Client ID
 * and Secret mode a new one every second), which the loaded credential does not hold.
 */
export function withSecret(forms: readonly string[], secret: string): readonly string[] {
	if (secret.length < MIN_SECRET_LENGTH || forms.includes(secret)) return forms;
	const last = lastAdded.get(forms);
	if (last?.secret === secret) return last.forms;
	const added = longestFirst([...new Set([...forms, ...formsOfValues([secret])])]);
	lastAdded.set(forms, { secret, forms: added });
	return added;
}

/**
 * Replaces every secret form, any bearer token and any JWT by a placeholder. Runs on the whole text
 * before anything shortens it, so a cut can never leave part of a secret behind.
 */
export function redact(text: string, forms: readonly string[]): string {
	let result = text;
	for (const form of forms) result = result.split(form).join(PLACEHOLDER);
	return (
		result
			.replace(/(Bearer)(\s|%20|\+)+[A-Za-z0-9._~+/=%-]+/gi, `$1 ${PLACEHOLDER}`)
			// A JWT anywhere (a signed token echoed back) is a credential too, whatever its base64url parts hold.
			.replace(/eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, PLACEHOLDER)
	);
}

// Classification: what one attempt's failure means.

const MAX_ERROR_TEXT = 300;

/** What went wrong on one attempt, and whether another attempt may help. */
export interface AttemptFailure {
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

export function formatSeconds(ms: number): string {
	return ms % 1000 === 0 || ms >= 10_000
		? `${Math.ceil(ms / 1000)} s`
		: `${(ms / 1000).toFixed(1)} s`;
}

/** decisions.md: 429 and 409 on every method; 5xx and network errors only where a repeat is harmless. */
export function isIdempotent(method: IHttpRequestMethods): boolean {
	return method === 'GET' || method === 'PUT' || method === 'DELETE' || method === 'HEAD';
}

/** A failure after which the request may or may not have been processed: repeated only where harmless. */
export function uncertainFailure(
	method: IHttpRequestMethods,
	message: string,
	extra: Partial<AttemptFailure> = {},
): AttemptFailure {
	return {
		message,
		retryable: isIdempotent(method),
		mayHaveBeenProcessed: !isIdempotent(method),
		...extra,
	};
}

/** Secrets are taken out first, then the text is shortened: a cut never leaves part of a secret. */
export function shorten(text: string, secretForms: readonly string[]): string {
	const plain = redact(text, secretForms).replace(/\s+/g, ' ').trim();
	return plain.length > MAX_ERROR_TEXT ? `${plain.slice(0, MAX_ERROR_TEXT)}…` : plain;
}

export function looksLikeHtml(text: string, contentType = ''): boolean {
	return (
		/html/i.test(contentType) ||
		/^\s*<(!doctype|html|head|body|\?xml|[a-z][a-z0-9]*[\s>])/i.test(text)
	);
}

/** An HTML page (a proxy's or gateway's error page) as one line: its title, then its visible text. */
export function htmlText(html: string): string {
	const strip = (part: string) =>
		part
			.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
			.replace(/<[^>]*>/g, ' ')
			.replace(/\s+/g, ' ')
			.trim();
	const title = strip(/<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? '');
	let text = strip(
		/<body[^>]*>([\s\S]*?)(<\/body>|$)/i.exec(html)?.[1] ??
			html.replace(/<head[\s\S]*?<\/head>/i, ''),
	);
	if (title !== '' && text.startsWith(title)) text = text.slice(title.length).trim();
	return `an HTML page${title ? ` titled "${title}"` : ''}${text ? `: ${text}` : ''}`;
}

/** The service's own words for an error: {"error": "..."} or {"message": "..."}, else the body's text. */
function serviceErrorText(body: string, secretForms: readonly string[]): string {
	const text = body.trim();
	if (text === '') return '';
	try {
		const parsed = JSON.parse(text) as unknown;
		if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
			const { error, message } = parsed as { error?: unknown; message?: unknown };
			const nested =
				error && typeof error === 'object' ? (error as { message?: unknown }).message : undefined;
			const words = [error, nested, message].find((candidate) => typeof candidate === 'string');
			if (typeof words === 'string') return shorten(words, secretForms);
		}
	} catch {
		// Not JSON: the shortened text below, without HTML tags.
	}
	return shorten(looksLikeHtml(text) ? htmlText(text) : text, secretForms);
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

const MONTHS = 'Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec';
/** RFC 9110 HTTP-date: IMF-fixdate, and the obsolete RFC 850 and asctime forms. */
const HTTP_DATE = new RegExp(
	[
		`^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \\d{2} (${MONTHS}) \\d{4} \\d{2}:\\d{2}:\\d{2} GMT$`,
		`^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \\d{2}-(${MONTHS})-\\d{2} \\d{2}:\\d{2}:\\d{2} GMT$`,
		`^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (${MONTHS}) [ \\d]\\d \\d{2}:\\d{2}:\\d{2} \\d{4}$`,
	].join('|'),
);

/** Retry-After is delta-seconds (digits only) or an HTTP-date; anything else is ignored. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
	const trimmed = value?.trim() ?? '';
	if (/^\d{1,10}$/.test(trimmed)) return Number(trimmed) * 1000;
	if (!HTTP_DATE.test(trimmed)) return undefined;
	const date = Date.parse(/GMT$/.test(trimmed) ? trimmed : `${trimmed} GMT`);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** An answer with an error status, as a failure with the service's words. */
export function statusFailure(
	status: number,
	body: string,
	retryAfter: string | undefined,
	method: IHttpRequestMethods,
	secretForms: readonly string[],
): AttemptFailure {
	const text = serviceErrorText(body, secretForms);
	return {
		status,
		message: `${statusMeaning(status)} (HTTP ${status})${text ? `: ${text}` : ''}`,
		retryable: status === 429 || status === 409 || (status >= 500 && isIdempotent(method)),
		// A server fault may come after the work was done: a Create is not repeated.
		mayHaveBeenProcessed: status >= 500 && !isIdempotent(method),
		retryAfterMs: parseRetryAfter(retryAfter),
	};
}

const TIMEOUT_CODES = new Set(['ECONNABORTED', 'ETIMEDOUT', 'ESOCKETTIMEDOUT']);
/** Failures before the request could reach the service: even a Create may be sent again. */
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);
const NETWORK_MEANINGS: Record<string, string> = {
	ECONNRESET: 'the connection was closed before an answer came',
	EPIPE: 'the connection was closed while the request was being sent',
	ECONNREFUSED: 'the connection was refused',
	ENOTFOUND: 'the host name could not be resolved',
	EAI_AGAIN: 'the host name could not be resolved (DNS error)',
	EHOSTUNREACH: 'the host is unreachable',
	ENETUNREACH: 'the network is unreachable',
	ERR_SOCKET_CONNECTION_TIMEOUT: 'the connection could not be opened in time',
	ERR_BAD_RESPONSE: 'the answer was garbled',
	Z_DATA_ERROR: 'the compressed answer was garbled',
	Z_BUF_ERROR: 'the compressed answer was cut off',
};

/** Node's HTTP parser (llhttp) failed: header overflow, a status line that is not HTTP, a malformed header. */
function isParserCode(code: string): boolean {
	return code.startsWith('HPE_');
}

function findErrorCode(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
		const { code } = current as { code?: unknown };
		if (
			typeof code === 'string' &&
			(code in NETWORK_MEANINGS || TIMEOUT_CODES.has(code) || isParserCode(code))
		)
			return code;
		current = (current as { cause?: unknown }).cause;
	}
	const text = error instanceof Error ? error.message : String(error);
	if (/socket hang up|aborted|premature close/i.test(text)) return 'ECONNRESET';
	if (/timeout of \d+ms exceeded/i.test(text)) return 'ECONNABORTED';
	return undefined;
}

/** Deadline message; the code stays in the description (n8n rewrites messages that name one). */
export function timeoutFailure(
	method: IHttpRequestMethods,
	timeoutMs: number,
	headersCame = false,
): AttemptFailure {
	const seconds = timeoutMs >= 1000 ? formatSeconds(timeoutMs) : `${timeoutMs} ms`;
	const what = headersCame ? 'sent its headers but not the whole body' : 'did not answer';
	return uncertainFailure(method, `The service ${what} within ${seconds} (timeout)`, {
		description: 'The Timeout is a deadline for the whole answer, headers and body.',
	});
}

/** A thrown error of the request helper or of reading the body, classified. */
export function thrownFailure(
	error: unknown,
	method: IHttpRequestMethods,
	timeoutMs: number,
): AttemptFailure {
	const code = findErrorCode(error);
	if (code && TIMEOUT_CODES.has(code))
		return { ...timeoutFailure(method, timeoutMs), description: `Network error code ${code}.` };
	if (code && isParserCode(code)) {
		// The request went out and something answered: like a cut-off answer, it may have been processed.
		return uncertainFailure(method, "Could not read the service's answer: it is not valid HTTP", {
			description: `Network error code ${code}.`,
		});
	}
	if (code) {
		const message = `Could not reach the service: ${NETWORK_MEANINGS[code]}`;
		const description = `Network error code ${code}.`;
		if (NEVER_SENT_CODES.has(code)) return { message, description, retryable: true };
		return uncertainFailure(method, message, { description });
	}
	// Not a network failure (for example the credential refused to sign a token): repeating cannot help.
	return { message: error instanceof Error ? error.message : String(error), retryable: false };
}
