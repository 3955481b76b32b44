import type { IHttpRequestMethods } from 'n8n-workflow';

import { redact } from './secrets';

/**
 * What a failed attempt means, in the service's words. `mayHaveBeenProcessed`: a write that is not
 * repeated and says so; `processed`: a 2xx write whose answer could not be read (its message says
 * so); `gaveUp`: why retrying stopped early.
 */
export interface AttemptFailure {
	status?: number;
	message: string;
	description?: string;
	retryable: boolean;
	retryAfterMs?: number;
	mayHaveBeenProcessed?: boolean;
	gaveUp?: string;
	processed?: boolean;
}

/** A wait too long to hold in ms (an endless Retry-After) is told as "over" the most there is. */
export function formatSeconds(ms: number): string {
	if (ms > Number.MAX_SAFE_INTEGER) return `over ${Math.floor(Number.MAX_SAFE_INTEGER / 1000)} s`;
	return ms % 1000 === 0 || ms >= 10_000
		? `${Math.ceil(ms / 1000)} s`
		: `${(ms / 1000).toFixed(1)} s`;
}

export const isRead = (method: IHttpRequestMethods) => method === 'GET' || method === 'HEAD';

/** 5xx and network errors are retried only where a repeat is harmless: not DELETE (a repeat answers 404). */
export const isIdempotent = (method: IHttpRequestMethods) => isRead(method) || method === 'PUT';

/** The request may or may not have been processed: repeated only where harmless. */
export function uncertainFailure(
	method: IHttpRequestMethods,
	message: string,
	extra: Partial<AttemptFailure> = {},
): AttemptFailure {
	const retryable = isIdempotent(method);
	return { message, retryable, mayHaveBeenProcessed: !retryable, ...extra };
}

const MAX_ERROR_TEXT = 300;

/** Secrets go before the text is cut: a cut never leaves part of one. */
export function shorten(text: string, secretForms: readonly string[]): string {
	const plain = redact(text, secretForms).replace(/\s+/g, ' ').trim();
	return plain.length > MAX_ERROR_TEXT ? `${plain.slice(0, MAX_ERROR_TEXT)}…` : plain;
}

const HTML_START = /^\s*<(!doctype|html|head|body|\?xml|[a-z][a-z0-9]*[\s>])/i;
export function looksLikeHtml(text: string, contentType = ''): boolean {
	return /html/i.test(contentType) || HTML_START.test(text);
}

/** A gateway's error page as one line: its title, then its visible text. */
export function htmlText(html: string): string {
	const strip = (part: string) =>
		part
			.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
			.replace(/<[^>]*>/g, ' ')
			.replace(/\s+/g, ' ')
			.trim();
	const title = strip(/<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? '');
	const body = /<body[^>]*>([\s\S]*?)(<\/body>|$)/i.exec(html)?.[1];
	let text = strip(body ?? html.replace(/<head[\s\S]*?<\/head>/i, ''));
	if (title !== '' && text.startsWith(title)) text = text.slice(title.length).trim();
	return `an HTML page${title ? ` titled "${title}"` : ''}${text ? `: ${text}` : ''}`;
}

/** A connector's 422 `{"errors": [{"path": "title", "message": "is required"}]}` as `title: is required; …`. */
function fieldErrorsText(errors: unknown): string | undefined {
	if (!Array.isArray(errors)) return undefined;
	const parts = errors.flatMap((entry: unknown) => {
		if (entry === null || typeof entry !== 'object') return [];
		const { path, message } = entry as Record<string, unknown>;
		// A path given as a list of keys is joined with dots.
		const keys = Array.isArray(path) ? path : [path];
		const plain = keys.every((key) => typeof key === 'string' || typeof key === 'number');
		const where = plain ? keys.join('.') : '';
		if (typeof message !== 'string') return where === '' ? [] : [`${where}: refused`];
		return [where === '' ? message : `${where}: ${message}`];
	});
	return parts.length > 0 ? parts.join('; ') : undefined;
}

/** The service's words: `{error}` (or `{error: {message}}`), `{message}`, `{errorMessage}`, a 422's `{errors}`, else the text. */
export function serviceErrorText(body: string, secretForms: readonly string[]): string {
	const text = body.trim();
	if (text === '') return '';
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		// Not JSON: the text, without HTML tags.
	}
	if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
		const { error, message, errorMessage, errors } = parsed as Record<string, unknown>;
		const nested =
			error && typeof error === 'object' ? (error as { message?: unknown }).message : undefined;
		const words = [error, nested, message, errorMessage].find((part) => typeof part === 'string');
		const said = typeof words === 'string' ? words : fieldErrorsText(errors);
		if (said !== undefined) return shorten(said, secretForms);
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
	422: 'The service refused the values sent',
	429: 'Rate limited by the service',
};

const MONTHS = 'Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec';
/** RFC 9110 HTTP-date: IMF-fixdate, and the obsolete RFC 850 and asctime forms. */
const HTTP_DATE = new RegExp(
	[
		`^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \\d{2} (${MONTHS}) \\d{4} \\d{2}:\\d{2}:\\d{2} GMT$`,
		`^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \\d{2}-(${MONTHS})-\\d{2} \\d{2}:\\d{2}:\\d{2} GMT$`,
		`^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (${MONTHS}) [ \\d]\\d \\d{2}:\\d{2}:\\d{2} \\d{4}$`,
	].join('|'),
);

/** Retry-After: delta-seconds or an HTTP-date, else ignored; too many seconds to hold is Infinity (a give-up). */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
	const trimmed = value?.trim() ?? '';
	if (/^\d+$/.test(trimmed)) {
		const ms = Number(trimmed) * 1000;
		return Number.isSafeInteger(ms) ? ms : Infinity;
	}
	if (!HTTP_DATE.test(trimmed)) return undefined;
	const date = Date.parse(/GMT$/.test(trimmed) ? trimmed : `${trimmed} GMT`);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function statusFailure(
	status: number,
	body: string,
	retryAfter: string | undefined,
	method: IHttpRequestMethods,
	secretForms: readonly string[],
): AttemptFailure {
	const text = serviceErrorText(body, secretForms);
	const meaning =
		STATUS_MEANINGS[status] ??
		(status >= 500 ? 'The service had an internal error' : 'The service answered with an error');
	return {
		status,
		message: `${meaning} (HTTP ${status})${text ? `: ${text}` : ''}`,
		retryable: status === 429 || status === 409 || (status >= 500 && isIdempotent(method)),
		// A server fault may come after the work was done.
		mayHaveBeenProcessed: status >= 500 && !isIdempotent(method),
		retryAfterMs: parseRetryAfter(retryAfter),
	};
}

const TIMEOUT_CODES = new Set(['ECONNABORTED', 'ETIMEDOUT', 'ESOCKETTIMEDOUT']);
/** Failures before the request could reach the service: even a create may be sent again. */
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

function findErrorCode(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
		const { code, cause } = current as { code?: unknown; cause?: unknown };
		if (
			typeof code === 'string' &&
			(code in NETWORK_MEANINGS || TIMEOUT_CODES.has(code) || code.startsWith('HPE_'))
		)
			return code;
		current = cause;
	}
	const text = error instanceof Error ? error.message : String(error);
	if (/socket hang up|aborted|premature close/i.test(text)) return 'ECONNRESET';
	if (/timeout of \d+ms exceeded/i.test(text)) return 'ECONNABORTED';
	return undefined;
}

/** A network code stays in the description: n8n rewrites messages that name one. */
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

export function thrownFailure(
	error: unknown,
	method: IHttpRequestMethods,
	timeoutMs: number,
): AttemptFailure {
	const code = findErrorCode(error);
	// Not a network failure (e.g. the credential refused to sign a token): repeating cannot help.
	if (!code)
		return { message: error instanceof Error ? error.message : String(error), retryable: false };
	const description = `Network error code ${code}.`;
	if (TIMEOUT_CODES.has(code)) return { ...timeoutFailure(method, timeoutMs), description };
	// Something answered what the request sent: it may have been processed.
	if (code.startsWith('HPE_'))
		return uncertainFailure(method, "Could not read the service's answer: it is not valid HTTP", {
			description,
		});
	const message = `Could not reach the service: ${NETWORK_MEANINGS[code]}`;
	if (NEVER_SENT_CODES.has(code)) return { message, description, retryable: true };
	return uncertainFailure(method, message, { description });
}

/** What a model calling the node as a tool should do after a failed request. */
export function nextStep(failure: AttemptFailure, method?: IHttpRequestMethods): string {
	const status = failure.status;
	if (failure.mayHaveBeenProcessed || failure.processed)
		return 'It may have been processed: look it up (Get or Get Many) before calling again, or it may be done twice.';
	if (status === 429)
		return 'The service is limiting the rate: wait a minute before calling again.';
	if (status === 401 || status === 403)
		return 'Not authorised: retrying will not help; the user must check the credential or the Connection ID.';
	if (status === 404)
		return 'Not found: check the ID (find the record first); the same ID will fail again.';
	if (status === 409)
		return 'It conflicts with the record as it is now: read it again, then decide.';
	if (status !== undefined && status >= 400 && status < 500)
		return 'The service refused the values sent: correct what the message names and call again.';
	// An update is retried on a 5xx or a cut-off: it may have been applied, and the same values again are harmless.
	if (failure.retryable && method === 'PUT')
		return 'The update may already have been applied; sending the same values again is safe (an update replaces, it does not add): call again later, or Get the record to see where it stands.';
	if (failure.retryable) return 'A passing failure: calling again later may work.';
	return 'Calling again unchanged will fail the same way.';
}
