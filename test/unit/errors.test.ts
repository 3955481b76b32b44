/**
 * nodes/IntegrationService/transport/errors.ts (and serviceWords.ts): what a failed attempt means, in whose words, with
 * every secret taken out (the redaction itself, secrets.ts: redaction.test.ts).
 */
import type { IHttpRequestMethods } from 'n8n-workflow';

import {
	formatSeconds,
	isIdempotent,
	parseRetryAfter,
	statusFailure,
	thrownFailure,
	timeoutFailure,
} from '../../nodes/IntegrationService/transport/errors';
import { htmlText, looksLikeHtml, shorten } from '../../nodes/IntegrationService/transport/errors';
import { secretForms } from '../../nodes/IntegrationService/transport/secrets';

const R = '[redacted]';
const NO_FORMS: readonly string[] = [];

/** An error as Node's HTTP stack throws it: a message and a code. */
function codeError(code: string, message = `connect ${code} 127.0.0.1:1`): Error {
	return Object.assign(new Error(message), { code });
}

describe('isIdempotent', () => {
	it.each(['GET', 'PUT', 'HEAD'] as IHttpRequestMethods[])('%s may be repeated', (method) => {
		expect(isIdempotent(method)).toBe(true);
	});
	// DELETE: a repeat of a processed one answers 404 and hides that the first one deleted (issue 30).
	it.each(['POST', 'PATCH', 'DELETE', 'OPTIONS'] as IHttpRequestMethods[])(
		'%s may not',
		(method) => {
			expect(isIdempotent(method)).toBe(false);
		},
	);
});

describe('statusFailure', () => {
	const MEANINGS: Record<number, string> = {
		400: 'The service rejected the request as invalid',
		401: 'The access token is invalid or expired',
		403: 'The credential is not allowed to do this',
		404: 'Not found',
		409: 'The connected system’s data is not ready yet',
		429: 'Rate limited by the service',
		500: 'The service had an internal error',
		503: 'The service had an internal error',
	};
	/** [status, method, retryable, mayHaveBeenProcessed] (decisions.md). */
	const RULES: Array<[number, IHttpRequestMethods, boolean, boolean]> = [];
	for (const method of ['GET', 'PUT', 'POST'] as IHttpRequestMethods[]) {
		for (const status of [400, 401, 403, 404]) RULES.push([status, method, false, false]);
		// 429 and 409 on every method: the request was not processed.
		for (const status of [409, 429]) RULES.push([status, method, true, false]);
		// A server fault may come after the work was done: repeated only where harmless.
		for (const status of [500, 503])
			RULES.push([status, method, method !== 'POST', method === 'POST']);
	}

	it.each(RULES)(
		'HTTP %i on %s: retryable %s, may have been processed %s',
		(status, method, retryable, mayHaveBeenProcessed) => {
			expect(statusFailure(status, '', undefined, method, NO_FORMS)).toEqual({
				status,
				message: `${MEANINGS[status]} (HTTP ${status})`,
				retryable,
				mayHaveBeenProcessed,
				retryAfterMs: undefined,
			});
		},
	);

	it('treats DELETE and PATCH like POST for server faults', () => {
		expect(statusFailure(502, '', undefined, 'DELETE', NO_FORMS)).toMatchObject({
			retryable: false,
			mayHaveBeenProcessed: true,
		});
		expect(statusFailure(429, '', undefined, 'DELETE', NO_FORMS)).toMatchObject({
			retryable: true,
			mayHaveBeenProcessed: false,
		});
		expect(statusFailure(502, '', undefined, 'PATCH', NO_FORMS)).toMatchObject({
			retryable: false,
			mayHaveBeenProcessed: true,
		});
		expect(statusFailure(429, '', undefined, 'PATCH', NO_FORMS)).toMatchObject({
			retryable: true,
			mayHaveBeenProcessed: false,
		});
	});

	it('has a general meaning for other statuses', () => {
		expect(statusFailure(418, '', undefined, 'GET', NO_FORMS).message).toBe(
			'The service answered with an error (HTTP 418)',
		);
		expect(statusFailure(415, '', undefined, 'POST', NO_FORMS).message).toBe(
			'The service did not accept the request’s content type (HTTP 415)',
		);
		expect(statusFailure(599, '', undefined, 'GET', NO_FORMS).message).toBe(
			'The service had an internal error (HTTP 599)',
		);
	});

	it.each([
		['{"error": "name is required"}', 'name is required'],
		['{"message": "stage is unknown"}', 'stage is unknown'],
		['{"error": {"message": "nested words", "code": 7}}', 'nested words'],
		['{"error": "first", "message": "second"}', 'first'],
		['{"error": {"code": 7}, "message": "outer words"}', 'outer words'],
		// The published CRM endpoints' errors (crm-endpoints.md).
		['{"errorMessage": "note not found"}', 'note not found'],
		['{"errorMessage": 5}', '{"errorMessage": 5}'],
		['{"error": 5}', '{"error": 5}'],
		['[1, 2]', '[1, 2]'],
		['plain   text\nover lines', 'plain text over lines'],
		['  ', ''],
	])('takes the service’s words from %j', (body, words) => {
		const failure = statusFailure(400, body, undefined, 'GET', NO_FORMS);
		expect(failure.message).toBe(
			`The service rejected the request as invalid (HTTP 400)${words ? `: ${words}` : ''}`,
		);
	});

	it('tells an HTML error page by its title and text', () => {
		const page =
			'<html><head><title>502 Bad Gateway</title><style>h1{color:red}</style></head><body><h1>502 Bad Gateway</h1><hr><p>nginx</p></body></html>';
		expect(statusFailure(502, page, undefined, 'GET', NO_FORMS).message).toBe(
			'The service had an internal error (HTTP 502): an HTML page titled "502 Bad Gateway": nginx',
		);
	});

	it('reads Retry-After', () => {
		expect(statusFailure(429, '', '7', 'POST', NO_FORMS).retryAfterMs).toBe(7000);
		expect(statusFailure(503, '', 'soon', 'GET', NO_FORMS).retryAfterMs).toBeUndefined();
	});

	it('takes secrets out of the service’s words and shortens them', () => {
		const forms = secretForms({ accessToken: 'token-123456' });
		expect(
			statusFailure(404, '{"errorMessage":"no note for token-123456"}', undefined, 'GET', forms)
				.message,
		).toBe(`Not found (HTTP 404): no note for ${R}`);
		expect(
			statusFailure(401, '{"error": "token token-123456 expired"}', undefined, 'GET', forms)
				.message,
		).toBe(`The access token is invalid or expired (HTTP 401): token ${R} expired`);
		const long = statusFailure(
			400,
			JSON.stringify({ message: 'x'.repeat(1000) }),
			undefined,
			'GET',
			NO_FORMS,
		).message;
		expect(long).toBe(
			`The service rejected the request as invalid (HTTP 400): ${'x'.repeat(300)}…`,
		);
	});
});

describe('thrownFailure', () => {
	it.each(['POST', 'GET'] as IHttpRequestMethods[])(
		'a refused connection is retryable even for %s (nothing was sent)',
		(method) => {
			expect(thrownFailure(codeError('ECONNREFUSED'), method, 30_000)).toEqual({
				message: 'Could not reach the service: the connection was refused',
				description: 'Network error code ECONNREFUSED.',
				retryable: true,
			});
		},
	);

	it('an unresolved host name is retryable even for POST', () => {
		expect(thrownFailure(codeError('ENOTFOUND'), 'POST', 30_000)).toEqual({
			message: 'Could not reach the service: the host name could not be resolved',
			description: 'Network error code ENOTFOUND.',
			retryable: true,
		});
		expect(thrownFailure(codeError('EAI_AGAIN'), 'POST', 30_000)).toMatchObject({
			retryable: true,
		});
	});

	it('a reset connection: POST is not repeated and may have been processed; GET is repeated', () => {
		expect(thrownFailure(codeError('ECONNRESET'), 'POST', 30_000)).toEqual({
			message: 'Could not reach the service: the connection was closed before an answer came',
			description: 'Network error code ECONNRESET.',
			retryable: false,
			mayHaveBeenProcessed: true,
		});
		expect(thrownFailure(codeError('ECONNRESET'), 'GET', 30_000)).toEqual({
			message: 'Could not reach the service: the connection was closed before an answer came',
			description: 'Network error code ECONNRESET.',
			retryable: true,
			mayHaveBeenProcessed: false,
		});
		expect(thrownFailure(codeError('EPIPE'), 'PUT', 30_000)).toMatchObject({
			retryable: true,
			mayHaveBeenProcessed: false,
		});
	});

	it.each(['HPE_HEADER_OVERFLOW', 'HPE_INVALID_CONSTANT', 'HPE_INVALID_HEADER_TOKEN'])(
		'%s is a network failure: not valid HTTP',
		(code) => {
			expect(thrownFailure(codeError(code, 'Parse Error'), 'POST', 30_000)).toEqual({
				message: "Could not read the service's answer: it is not valid HTTP",
				description: `Network error code ${code}.`,
				retryable: false,
				mayHaveBeenProcessed: true,
			});
			expect(thrownFailure(codeError(code, 'Parse Error'), 'GET', 30_000)).toMatchObject({
				retryable: true,
				mayHaveBeenProcessed: false,
			});
		},
	);

	it.each(['ETIMEDOUT', 'ECONNABORTED', 'ESOCKETTIMEDOUT'])('%s is a timeout', (code) => {
		expect(thrownFailure(codeError(code), 'GET', 30_000)).toEqual({
			message: 'The service did not answer within 30 s (timeout)',
			description: `Network error code ${code}.`,
			retryable: true,
			mayHaveBeenProcessed: false,
		});
		expect(thrownFailure(codeError(code), 'POST', 1500)).toEqual({
			message: 'The service did not answer within 1.5 s (timeout)',
			description: `Network error code ${code}.`,
			retryable: false,
			mayHaveBeenProcessed: true,
		});
	});

	it('finds the code in the cause chain', () => {
		const wrapped = new Error('fetch failed', {
			cause: new Error('inner', { cause: codeError('ECONNREFUSED') }),
		});
		expect(thrownFailure(wrapped, 'POST', 30_000)).toEqual({
			message: 'Could not reach the service: the connection was refused',
			description: 'Network error code ECONNREFUSED.',
			retryable: true,
		});
		// An unknown code on the outer error does not hide a known one inside.
		const outer = Object.assign(new Error('request failed'), {
			code: 'ERR_SOMETHING',
			cause: { code: 'ECONNRESET' },
		});
		expect(thrownFailure(outer, 'POST', 30_000)).toMatchObject({
			description: 'Network error code ECONNRESET.',
			retryable: false,
		});
	});

	it('knows the HTTP client’s words when there is no code', () => {
		expect(thrownFailure(new Error('socket hang up'), 'GET', 30_000)).toMatchObject({
			description: 'Network error code ECONNRESET.',
			retryable: true,
		});
		expect(thrownFailure(new Error('timeout of 5000ms exceeded'), 'GET', 5000)).toEqual({
			message: 'The service did not answer within 5 s (timeout)',
			description: 'Network error code ECONNABORTED.',
			retryable: true,
			mayHaveBeenProcessed: false,
		});
	});

	it('anything else is not retried: repeating cannot help', () => {
		expect(
			thrownFailure(
				new Error(
					'The Integration Service credential has no Client ID; fill it in the credential.',
				),
				'GET',
				1000,
			),
		).toEqual({
			message: 'The Integration Service credential has no Client ID; fill it in the credential.',
			retryable: false,
		});
		expect(thrownFailure('boom', 'GET', 1000)).toEqual({ message: 'boom', retryable: false });
		expect(thrownFailure(codeError('EWHATEVER', 'odd'), 'GET', 1000)).toEqual({
			message: 'odd',
			retryable: false,
		});
	});
});

describe('timeoutFailure', () => {
	it('says what did not come, within how long, and whether it may be repeated', () => {
		expect(timeoutFailure('GET', 30_000)).toEqual({
			message: 'The service did not answer within 30 s (timeout)',
			description: 'The Timeout is a deadline for the whole answer, headers and body.',
			retryable: true,
			mayHaveBeenProcessed: false,
		});
		expect(timeoutFailure('POST', 500, true)).toEqual({
			message: 'The service sent its headers but not the whole body within 500 ms (timeout)',
			description: 'The Timeout is a deadline for the whole answer, headers and body.',
			retryable: false,
			mayHaveBeenProcessed: true,
		});
		expect(timeoutFailure('PUT', 2500).message).toBe(
			'The service did not answer within 2.5 s (timeout)',
		);
	});
});

describe('formatSeconds', () => {
	it.each([
		[0, '0 s'],
		[1000, '1 s'],
		[1500, '1.5 s'],
		[2500, '2.5 s'],
		[60_000, '60 s'],
		[12_345, '13 s'],
		[10_000, '10 s'],
	])('%i ms is %s', (ms, text) => {
		expect(formatSeconds(ms)).toBe(text);
	});
});

describe('parseRetryAfter', () => {
	const now = Date.UTC(2015, 9, 21, 7, 28, 0); // Wed, 21 Oct 2015 07:28:00 GMT

	it.each([
		['120', 120_000],
		[' 5 ', 5000],
		['0', 0],
		['9999999999', 9_999_999_999_000],
		['12345678901', 12_345_678_901_000],
		['00000000000030', 30_000],
		['9007199254740', 9_007_199_254_740_000],
	])('delta seconds %j', (value, ms) => {
		expect(parseRetryAfter(value, now)).toBe(ms);
	});

	it.each([
		['9007199254741', '9007199254741'],
		['20 digits', '99999999999999999999'],
		['400 digits', '9'.repeat(400)],
	])(
		'delta seconds %s, more than a number of ms holds exactly, is longer than any wait',
		(_name, value) => {
			expect(parseRetryAfter(value, now)).toBe(Infinity);
			expect(formatSeconds(Infinity)).toBe('over 9007199254740 s');
		},
	);

	it.each([
		['Wed, 21 Oct 2015 07:28:30 GMT', 30_000],
		['Wednesday, 21-Oct-15 07:28:30 GMT', 30_000],
		['Wed Oct 21 07:29:00 2015', 60_000],
		['Wed Oct  1 07:28:00 2015', 0],
	])('HTTP-date %j', (value, ms) => {
		expect(parseRetryAfter(value, now)).toBe(ms);
	});

	it('a date in the past gives 0', () => {
		expect(parseRetryAfter('Wed, 21 Oct 2015 07:27:00 GMT', now)).toBe(0);
		expect(parseRetryAfter('Tue, 20 Oct 2015 07:28:00 GMT', now)).toBe(0);
	});

	it.each([
		undefined,
		'',
		'soon',
		'-5',
		'1.5',
		'5s',
		'2015-10-21T07:28:30Z',
		'Wed, 21 Oct 2015 07:28:30 PST',
		'21 Oct 2015 07:28:30 GMT',
		'Wed, 21 Foo 2015 07:28:30 GMT',
	])('ignores %j', (value) => {
		expect(parseRetryAfter(value, now)).toBeUndefined();
	});
});

describe('shorten', () => {
	it('collapses white space and keeps short text whole', () => {
		expect(shorten('  a   b\n\tc  ', NO_FORMS)).toBe('a b c');
		expect(shorten('y'.repeat(300), NO_FORMS)).toBe('y'.repeat(300));
	});

	it('cuts at 300 characters and marks the cut', () => {
		expect(shorten('y'.repeat(301), NO_FORMS)).toBe(`${'y'.repeat(300)}…`);
	});

	it('redacts before cutting, so no part of a secret is left at the cut', () => {
		const secret = 'sk_live_0123456789abcdef';
		const text = `${'a'.repeat(295)}${secret} and more`;
		const result = shorten(text, secretForms({ accessToken: secret }));
		expect(result).toBe(`${'a'.repeat(295)}[reda…`);
		expect(result).not.toContain('sk_l');
	});
});

describe('htmlText and looksLikeHtml', () => {
	it('gives the title, then the visible text without scripts and styles', () => {
		expect(
			htmlText(
				'<!DOCTYPE html><html><head><title>Service Unavailable</title><script>var x = "<b>hidden</b>";</script></head><body><h1>Service Unavailable</h1><p>Try   again <b>later</b>.</p><script>track()</script></body></html>',
			),
		).toBe('an HTML page titled "Service Unavailable": Try again later .');
		expect(htmlText('<p>Hello <b>world</b></p>')).toBe('an HTML page: Hello world');
		expect(htmlText('<html><head><title>Only a title</title></head></html>')).toBe(
			'an HTML page titled "Only a title"',
		);
		expect(htmlText('<html><body></body></html>')).toBe('an HTML page');
	});

	it.each([
		'<!DOCTYPE html><html>',
		'  <html lang="en">',
		'<?xml version="1.0"?>',
		'<div class="x">',
		'<body>',
		'<H1>Oops</H1>',
	])('%j looks like HTML', (text) => {
		expect(looksLikeHtml(text)).toBe(true);
	});

	it.each(['{"a": "<b>"}', 'a < b', '<3 love', 'plain', ''])('%j does not', (text) => {
		expect(looksLikeHtml(text)).toBe(false);
	});

	it('trusts an HTML content type', () => {
		expect(looksLikeHtml('plain words', 'text/html; charset=utf-8')).toBe(true);
		expect(looksLikeHtml('plain words', 'application/json')).toBe(false);
	});
});

describe("a connector's {errors: [{path, message}]}", () => {
	const forms = secretForms({ accessToken: 'tok-secret-123' });
	const message = (body: unknown) =>
		statusFailure(422, JSON.stringify(body), undefined, 'POST', forms).message;

	test('each path and message in order; a path as keys joined with dots; a message without a path', () => {
		expect(
			message({
				errors: [
					{ path: 'title', message: 'is required' },
					{ path: ['attendees', 0, 'email'], message: 'is not an email' },
					{ message: 'the calendar is read-only' },
				],
			}),
		).toBe(
			'The service refused the values sent (HTTP 422): title: is required; attendees.0.email: is not an email; the calendar is read-only',
		);
	});

	test('a path without a message is named; entries that are neither are skipped; a secret is taken out', () => {
		expect(message({ errors: [{ path: 'startsAt' }, 7, null, { path: { a: 1 } }] })).toBe(
			'The service refused the values sent (HTTP 422): startsAt: refused',
		);
		expect(message({ errors: [{ path: 'note', message: 'tok-secret-123 is not allowed' }] })).toBe(
			`The service refused the values sent (HTTP 422): note: ${R} is not allowed`,
		);
	});

	test('an {error} string still wins; an empty or odd errors list leaves the body as text', () => {
		expect(message({ error: 'bad', errors: [{ path: 'a', message: 'b' }] })).toBe(
			'The service refused the values sent (HTTP 422): bad',
		);
		expect(message({ errors: [] })).toBe(
			'The service refused the values sent (HTTP 422): {"errors":[]}',
		);
	});
});
