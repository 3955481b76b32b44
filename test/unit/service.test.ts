/** nodes/shared/service.ts: host URLs, endpoint paths, links the service gives, header values. */
import fc from 'fast-check';

import {
	endpointUrl,
	hasControlCharacter,
	headerValueProblem,
	hostBaseUrl,
	hostOfUrl,
	hostUrlProblem,
	originOf,
	sameListUrl,
	sameOriginUrl,
} from '../../nodes/shared/service';
import { credentials } from './fakes';

const PROPERTY = { seed: 19, numRuns: 200 };
const BASE = 'https://crm.test';

describe('hostUrlProblem', () => {
	it.each([
		'https://crm.test',
		'http://localhost:8080',
		'  https://crm.test/base/  ',
		'https://crm.test/',
	])('accepts %j', (url) => {
		expect(hostUrlProblem(url)).toBeUndefined();
	});

	it.each([
		'',
		'crm.test',
		'not a url',
		'ftp://crm.test',
		'file:///etc/passwd',
		'javascript:alert(1)',
	])('refuses %j as not http(s)', (url) => {
		expect(hostUrlProblem(url)).toBe('must be an http:// or https:// URL');
	});

	it.each(['https://user:secret@crm.test', 'https://user@crm.test', 'https://:secret@crm.test'])(
		'refuses user info in %j',
		(url) => {
			expect(hostUrlProblem(url)).toBe(
				'must not contain a user name or password (user:password@); the token authenticates every request',
			);
		},
	);

	it.each(['https://crm.test/?a=1', 'https://crm.test#top', 'https://crm.test/api?x'])(
		'refuses a query or fragment in %j',
		(url) => {
			expect(hostUrlProblem(url)).toBe('must not contain a query (?) or fragment (#)');
		},
	);
});

describe('hostBaseUrl', () => {
	it('trims the URL and drops trailing slashes', () => {
		expect(hostBaseUrl({ crmUrl: '  https://crm.test/prefix//  ' }, 'crm')).toEqual({
			base: 'https://crm.test/prefix',
		});
		expect(hostBaseUrl(credentials(), 'los')).toEqual({ base: 'https://los.test' });
		expect(hostBaseUrl(credentials(), 'universal')).toEqual({ base: 'https://u.test' });
		expect(hostBaseUrl(credentials(), 'calendar')).toEqual({ base: 'https://cal.test' });
	});

	it('names the field by its label and never echoes the URL', () => {
		expect(hostBaseUrl({}, 'crm')).toEqual({
			refused: "The credential's CRM Host URL must be an http:// or https:// URL",
		});
		expect(hostBaseUrl({ calendarUrl: 42 }, 'calendar')).toEqual({
			refused: "The credential's Calendar Host URL must be an http:// or https:// URL",
		});
		const refused = hostBaseUrl({ losUrl: 'https://admin:hunter2@los.test' }, 'los');
		expect(refused).toEqual({
			refused:
				"The credential's LOS Host URL must not contain a user name or password (user:password@); the token authenticates every request",
		});
		expect(JSON.stringify(refused)).not.toContain('hunter2');
		expect(hostBaseUrl({ universalUrl: 'https://u.test?x=1' }, 'universal')).toEqual({
			refused: "The credential's Universal Host URL must not contain a query (?) or fragment (#)",
		});
	});
});

describe('endpointUrl', () => {
	it('joins fixed parts under /api', () => {
		expect(endpointUrl(BASE, ['people'])).toEqual({ url: 'https://crm.test/api/people' });
		expect(endpointUrl('https://crm.test/v2', ['credentials', 'abc', 'links'])).toEqual({
			url: 'https://crm.test/v2/api/credentials/abc/links',
		});
	});

	it('encodes every ID as exactly one segment', () => {
		expect(endpointUrl(BASE, ['people', { id: 'a/b?c#d e', field: 'Person ID' }])).toEqual({
			url: 'https://crm.test/api/people/a%2Fb%3Fc%23d%20e',
		});
		// An escaped dot-segment is not a dot-segment once encoded again.
		expect(endpointUrl(BASE, ['people', { id: '%2e%2e', field: 'Person ID' }])).toEqual({
			url: 'https://crm.test/api/people/%252e%252e',
		});
		expect(endpointUrl(BASE, ['people', { id: '...', field: 'Person ID' }])).toEqual({
			url: 'https://crm.test/api/people/...',
		});
	});

	it.each(['.', '..'])('refuses %j with the field label', (id) => {
		expect(endpointUrl(BASE, ['people', { id, field: 'Person ID' }])).toEqual({
			refused: `Person ID: "${id}" is not a valid ID`,
		});
		expect(endpointUrl(BASE, ['people', id])).toEqual({ refused: `ID: "${id}" is not a valid ID` });
	});

	it.each(['\ud800', 'a\udfffb'])(
		'refuses an ID with a lone surrogate (%j), which has no UTF-8 form',
		(id) => {
			expect(endpointUrl(BASE, ['people', { id, field: 'Person ID' }])).toEqual({
				refused: `Person ID: "${id}" is not a valid ID`,
			});
		},
	);

	it.each(['', '   ', '\t'])('refuses the blank ID %j as required', (id) => {
		expect(endpointUrl(BASE, ['borrowers', { id, field: 'Borrower ID' }])).toEqual({
			refused: 'Borrower ID: is required but empty',
		});
	});

	it('refuses at the first bad segment', () => {
		expect(
			endpointUrl(BASE, [
				{ id: 'ok', field: 'First' },
				{ id: '..', field: 'Second' },
				{ id: '', field: 'Third' },
			]),
		).toEqual({ refused: 'Second: ".." is not a valid ID' });
	});

	it('property: an ID is refused or is exactly the last path segment', () => {
		const ids = fc.oneof(
			fc.string(),
			fc.fullUnicodeString(),
			fc.constantFrom(
				'.',
				'..',
				' ',
				'/',
				'../admin',
				'%2e%2e',
				'?x=1',
				'#f',
				'\\..\\',
				'a/../../b',
			),
		);
		fc.assert(
			fc.property(ids, (id) => {
				const result = endpointUrl(BASE, ['people', { id, field: 'X' }]);
				if ('refused' in result) {
					expect(result.refused.startsWith('X: ')).toBe(true);
					return;
				}
				const parsed = new URL(result.url);
				expect(parsed.origin).toBe(BASE);
				expect(parsed.search).toBe('');
				expect(parsed.hash).toBe('');
				const parts = parsed.pathname.split('/');
				expect(parts).toHaveLength(4);
				expect(parts.slice(0, 3)).toEqual(['', 'api', 'people']);
				expect(decodeURIComponent(parts[3])).toBe(id);
			}),
			PROPERTY,
		);
	});
});

describe('sameOriginUrl', () => {
	const page = 'https://crm.test/api/people?offset=0';

	it('resolves relative links against the URL they came from', () => {
		expect(sameOriginUrl('/api/people?offset=2', page, BASE)).toEqual({
			url: 'https://crm.test/api/people?offset=2',
		});
		expect(sameOriginUrl('people?cursor=x', page, BASE)).toEqual({
			url: 'https://crm.test/api/people?cursor=x',
		});
		expect(sameOriginUrl('?offset=4', page, BASE)).toEqual({
			url: 'https://crm.test/api/people?offset=4',
		});
	});

	it('accepts an absolute link on the base origin, whatever the base path', () => {
		expect(
			sameOriginUrl('https://crm.test/api/people?page=3', page, 'https://crm.test/prefix'),
		).toEqual({
			url: 'https://crm.test/api/people?page=3',
		});
		expect(sameOriginUrl('HTTPS://CRM.TEST:443/api/x', page, BASE)).toEqual({
			url: 'https://crm.test/api/x',
		});
	});

	it.each([
		['https://evil.test/api/people', 'https://evil.test'],
		['//evil.test/api/people', 'https://evil.test'],
		['http://crm.test/api/people', 'http://crm.test'],
		['https://crm.test:8443/api/people', 'https://crm.test:8443'],
		['https://crm.test.evil.test/api', 'https://crm.test.evil.test'],
		['https://crm.test@evil.test/api', 'https://evil.test'],
	])('refuses %j on another origin, naming only the origin', (link, origin) => {
		expect(sameOriginUrl(link, page, BASE)).toEqual({ refused: origin });
	});

	it('refuses a link with user info on the same origin, without echoing it', () => {
		const result = sameOriginUrl('https://user:pass@crm.test/api/people', page, BASE);
		expect(result).toEqual({ refused: 'https://crm.test' });
		expect(sameOriginUrl('https://user@crm.test/api/people', page, BASE)).toEqual({
			refused: 'https://crm.test',
		});
	});

	it('refuses links without an origin and invalid links', () => {
		expect(sameOriginUrl('javascript:alert(1)', page, BASE)).toEqual({
			refused: 'a URL without an origin',
		});
		expect(sameOriginUrl('data:text/plain,hi', page, BASE)).toEqual({
			refused: 'a URL without an origin',
		});
		expect(sameOriginUrl('http://[::1', page, BASE)).toEqual({ refused: 'an invalid URL' });
		expect(sameOriginUrl('/api/people', 'not a url', BASE)).toEqual({ refused: 'an invalid URL' });
	});

	it('property: never accepts a URL whose origin differs from the base, nor one with user info', () => {
		const host = fc.constantFrom(
			'crm.test',
			'evil.test',
			'CRM.test',
			'crm.test.evil.test',
			'crm.test:443',
			'crm.test:8443',
			'127.0.0.1',
		);
		const links = fc.oneof(
			fc.webUrl({ withQueryParameters: true, withFragments: true }),
			fc.string(),
			fc
				.tuple(
					fc.constantFrom(
						'https://',
						'http://',
						'//',
						'https:',
						'https://user:pw@',
						'/',
						'\\\\',
						'',
					),
					host,
					fc.webPath(),
				)
				.map(([scheme, h, path]) => `${scheme}${h}${path}`),
		);
		const bases = fc.constantFrom(
			'https://crm.test',
			'https://crm.test/prefix',
			'http://127.0.0.1:8080',
		);
		let accepted = 0;
		fc.assert(
			fc.property(links, bases, (link, base) => {
				const result = sameOriginUrl(link, `${base}/api/people`, base);
				if ('refused' in result) return;
				accepted++;
				const parsed = new URL(result.url);
				expect(parsed.origin).toBe(new URL(base).origin);
				expect(parsed.username).toBe('');
				expect(parsed.password).toBe('');
			}),
			PROPERTY,
		);
		// Not vacuous: relative links and same-origin links were generated and accepted.
		expect(accepted).toBeGreaterThan(20);
	});
});

describe('sameListUrl (a link that continues a list)', () => {
	const page = 'https://crm.test/api/people?offset=0';
	const LIST_PATH = '/api/people';

	it('accepts a page of the same list, relative or absolute, with any query', () => {
		expect(sameListUrl('/api/people?next=c2&limit=100', page, BASE, LIST_PATH)).toEqual({
			url: 'https://crm.test/api/people?next=c2&limit=100',
		});
		expect(sameListUrl('people?page=3', page, BASE, LIST_PATH)).toEqual({
			url: 'https://crm.test/api/people?page=3',
		});
		expect(sameListUrl('?offset=4', page, BASE, LIST_PATH)).toEqual({
			url: 'https://crm.test/api/people?offset=4',
		});
		// A segment encoded otherwise is the same segment.
		expect(
			sameListUrl('/api/loans/a%3Ab/documents?p=2', page, BASE, '/api/loans/a:b/documents'),
		).toEqual({ url: 'https://crm.test/api/loans/a%3Ab/documents?p=2' });
	});

	it('leaves another origin to sameOriginUrl', () => {
		expect(sameListUrl('https://evil.test/api/people', page, BASE, LIST_PATH)).toEqual({
			refused: 'https://evil.test',
		});
	});

	it.each([
		['/api/credentials', 'its path is not /api/people'],
		['/admin/wipe?confirm=yes', 'its path is not /api/people'],
		['/api/people/', 'its path is not /api/people'],
		['/api/people%2Fx', 'its path is not /api/people'],
		['/api/people/%2e%2e/%2e%2e/internal', 'it has a "." or ".." segment'],
		['/api/x/../people', 'it has a "." or ".." segment'],
		['/api/%2E/people', 'it has a "." or ".." segment'],
		['https://crm.test/api/.%2e/api/people', 'it has a "." or ".." segment'],
		['/api/x/%2e%2E/people', 'it has a "." or ".." segment'],
		['  ../people', 'it has a "." or ".." segment'],
		['/api/x\\..\\people', 'it has a "." or ".." segment'],
		['/api/x/.\n./people', 'it contains a control character'],
	])('refuses %j: not a page of the list', (link, why) => {
		expect(sameListUrl(link, page, BASE, LIST_PATH)).toEqual({ otherList: why });
	});

	it('a dot segment in the query is no dot segment of the path', () => {
		expect(sameListUrl('/api/people?x=/../..&y=%2e%2e', page, BASE, LIST_PATH)).toEqual({
			url: 'https://crm.test/api/people?x=/../..&y=%2e%2e',
		});
	});

	it('property: an accepted link names the list on its origin, and was written without dot segments', () => {
		const dot = fc.constantFrom('.', '..', '%2e', '%2E', '.%2e', '%2E.', '%2e%2E', '%2E%2E');
		const segment = fc.oneof(
			fc.constantFrom('api', 'people', 'x', '', 'people%2F', 'PEOPLE', '%70eople'),
			fc.string({ maxLength: 4 }),
			dot,
		);
		const path = fc.array(segment, { maxLength: 5 }).map((parts) => parts.join('/'));
		const prefix = fc.constantFrom('', '/', '/api/', 'https://crm.test/', '//crm.test/', '\\');
		const query = fc.constantFrom('', '?a=1', '?x=/../', '#..');
		let accepted = 0;
		fc.assert(
			fc.property(prefix, path, query, (p, rest, q) => {
				const link = `${p}${rest}${q}`;
				const result = sameListUrl(link, page, BASE, LIST_PATH);
				if (!('url' in result)) return;
				accepted++;
				const parsed = new URL(result.url);
				expect(parsed.origin).toBe(BASE);
				expect(decodeURIComponent(parsed.pathname)).toBe(LIST_PATH);
				const written = link.split(/[?#]/, 1)[0].split(/[/\\]/);
				expect(written.some((part) => ['.', '..'].includes(part.replace(/%2e/gi, '.')))).toBe(
					false,
				);
			}),
			{ ...PROPERTY, numRuns: 2000 },
		);
		expect(accepted).toBeGreaterThan(5);
	});
});

describe('originOf', () => {
	it('gives the origin only, never path, query or user info', () => {
		expect(originOf('https://crm.test/api/people?token=secret#x')).toBe('https://crm.test');
		expect(originOf('https://user:pass@crm.test:8080/x')).toBe('https://crm.test:8080');
		expect(originOf('http://crm.test:80/')).toBe('http://crm.test');
	});

	it('has neutral words for URLs without an origin and for invalid ones', () => {
		expect(originOf('data:text/plain,secret')).toBe('a URL without an origin');
		expect(originOf('/relative/path')).toBe('an invalid URL');
		expect(originOf('')).toBe('an invalid URL');
	});
});

describe('hostOfUrl', () => {
	const creds = credentials();

	it('finds the configured host by origin', () => {
		expect(hostOfUrl(creds, 'https://crm.test/api/people/1')).toBe('crm');
		expect(hostOfUrl(creds, 'https://u.test/api/credentials')).toBe('universal');
		expect(hostOfUrl(creds, 'https://los.test/api/borrowers?x=1')).toBe('los');
		expect(hostOfUrl(creds, 'https://cal.test/api/webhooks')).toBe('calendar');
	});

	it('finds none for another origin, user info, or an unusable host', () => {
		expect(hostOfUrl(creds, 'https://evil.test/api/people')).toBeUndefined();
		expect(hostOfUrl(creds, 'http://crm.test/api/people')).toBeUndefined();
		expect(hostOfUrl(creds, 'https://user:pw@crm.test/api/people')).toBeUndefined();
		expect(
			hostOfUrl(
				credentials({ calendarUrl: 'https://x:y@cal.test' }),
				'https://cal.test/api/webhooks',
			),
		).toBeUndefined();
		expect(hostOfUrl(credentials({ losUrl: '' }), 'https://los.test/api')).toBeUndefined();
	});
});

describe('hasControlCharacter', () => {
	it.each(['a\nb', 'a\rb', '\t', '\0', 'x\x1f', 'del\x7f'])('finds one in %j', (value) => {
		expect(hasControlCharacter(value)).toBe(true);
	});

	it.each(['', 'plain text', '~!@#', 'é', 'conn-東京', '\x80'])('finds none in %j', (value) => {
		expect(hasControlCharacter(value)).toBe(false);
	});
});

describe('headerValueProblem', () => {
	const CONTROL = 'contains a line break or another control character';
	const NOT_SENDABLE =
		'contains characters that cannot be sent in an HTTP header as written (only ASCII letters, digits, punctuation and spaces)';

	it('accepts visible ASCII and the space', () => {
		expect(headerValueProblem('')).toBeUndefined();
		expect(headerValueProblem('conn-123 abc')).toBeUndefined();
		expect(headerValueProblem(' !"#$%&\'()*+,-./09:;<=>?@AZ[\\]^_`az{|}~')).toBeUndefined();
	});

	it('refuses control characters before anything else', () => {
		expect(headerValueProblem('conn\r\nX-Injected: 1')).toBe(CONTROL);
		expect(headerValueProblem('a\tb')).toBe(CONTROL);
		expect(headerValueProblem('東京\n')).toBe(CONTROL);
		expect(headerValueProblem('\x7f')).toBe(CONTROL);
	});

	it.each([
		['conn-東京', 'conn-東京'],
		['conn-İd', 'conn-İd'],
		['café', 'café'],
		['U+0080', '\x80'],
		['a no-break space', '\u00a0'],
		['an emoji', '😀'],
	])('refuses %s, which would not go out as written', (_name, value) => {
		expect(headerValueProblem(value)).toBe(NOT_SENDABLE);
	});

	it('property: accepted exactly when every character is 0x20 to 0x7E', () => {
		fc.assert(
			fc.property(
				fc.oneof(fc.string(), fc.fullUnicodeString(), fc.string({ unit: 'binary-ascii' })),
				(value) => {
					const sendable = [...value].every(
						(char) => char.charCodeAt(0) >= 0x20 && char.charCodeAt(0) <= 0x7e,
					);
					expect(headerValueProblem(value) === undefined).toBe(sendable);
				},
			),
			PROPERTY,
		);
	});
});
