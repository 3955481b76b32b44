/**
 * Custom API Call: any endpoint of the four hosts through our transport. Against the
 * sandbox (loans, a paged list in each paging kind; notes) and a scripted server for every method and
 * host, asserting what went over the wire.
 */
import { runNode } from '../harness/engine';
import { expectInputError, operationRunner, useSandbox } from '../harness/fixtures';
import { credentialsFor, sendJson, useHostile } from '../hostile/server';
import { LOANS } from '../sandbox/routes';
import type { PagingStyle, Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), { people: 3 });
const send = operationRunner(() => sandbox, 'customApiCall', 'send');
const FAST = { initialRetryDelay: 10 };

const loanIds = (from: number, to: number) =>
	Array.from({ length: to - from + 1 }, (_v, i) => `loan-${from + i}`);

describe("GET: the service's paging", () => {
	test.each<PagingStyle>(['offset', 'next', 'nextLink'])(
		'Return All over %s paging: every loan once, simplified',
		async (style) => {
			sandbox.setPaging(style);
			const result = await send({
				parameters: { host: 'los', method: 'GET', path: 'loans', returnAll: true },
			});
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.json.id)).toEqual(loanIds(1, LOANS));
			expect(result.items.every((item) => !('original' in item.json))).toBe(true);
			expect(result.items.every((item) => JSON.stringify(item.pairedItem) === '{"item":0}')).toBe(
				true,
			);
			expect(sandbox.requests).toHaveLength(3);
			expect(
				sandbox.requests.every(
					(request) =>
						request.host === 'los' && request.method === 'GET' && request.path === '/api/loans',
				),
			).toBe(true);
			expect(sandbox.requests[0].query).toEqual({ limit: '100', offset: '0' });
			if (style === 'offset')
				expect(sandbox.requests[2].query).toEqual({ limit: '100', offset: '200' });
			else expect(sandbox.requests[2].query.next).toMatch(/^c/);
			expect(
				sandbox.requests.every(
					(request) => request.headers['x-service-credential-id'] === 'cred-default',
				),
			).toBe(true);
		},
	);

	test('a Limit stops early; Simplify off gives the pages as the service sent them', async () => {
		sandbox.setPaging('offset');
		const limited = await send({
			parameters: { host: 'los', method: 'GET', path: 'loans', limit: 120 },
		});
		expect(limited.items.map((item) => item.json.id)).toEqual(loanIds(1, 120));
		expect(sandbox.requests.map((request) => request.query)).toEqual([
			{ limit: '100', offset: '0' },
			{ limit: '20', offset: '100' },
		]);
		sandbox.reset();
		const raw = await send({
			parameters: { host: 'los', method: 'GET', path: 'loans', returnAll: true, simplify: false },
		});
		expect(raw.items).toHaveLength(3);
		expect(raw.items.map((item) => (item.json.loans as unknown[]).length)).toEqual([100, 100, 30]);
		expect(raw.items[0].json._metadata).toMatchObject({ total: LOANS });
	});

	test('a single record: the answer itself is the item', async () => {
		const result = await send({
			parameters: { host: 'los', method: 'GET', path: '/loans/loan-7/' },
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.path)).toEqual(['/api/loans/loan-7']);
		expect(result.items.map((item) => item.json)).toEqual([
			{ id: 'loan-7', borrowerId: 'b-1', amount: 107000, status: 'open' },
		]);
	});

	test('a GET that fails with a 500 is retried; paging parameters in Query Parameters are refused', async () => {
		sandbox.inject({ status: 500, count: 1, match: { method: 'GET' } });
		const result = await send({
			parameters: { host: 'los', method: 'GET', path: 'loans/loan-1', requestOptions: FAST },
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.status)).toEqual([500, 200]);
		sandbox.reset();
		const refused = await send({
			parameters: {
				host: 'los',
				method: 'GET',
				path: 'loans',
				queryParameters: { parameters: [{ name: 'offset', value: '5' }] },
			},
		});
		expectInputError(
			sandbox,
			refused,
			'Query Parameters › offset: cannot be set here: paging sets limit, offset, next itself (use Return All, Limit and Page Size instead) (item 0)',
		);
	});
});

describe('POST: never sent twice', () => {
	test('a note is created with the JSON body, the Connection ID and the query', async () => {
		const result = await send({
			parameters: {
				host: 'crm',
				method: 'POST',
				path: 'notes',
				body: '{"personId": "p_1", "body": "Called back"}',
				queryParameters: { parameters: [{ name: 'notify', value: 'false' }] },
				credentialId: 'cred-default',
			},
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0]).toMatchObject({
			host: 'crm',
			method: 'POST',
			url: '/api/notes?notify=false',
			body: { personId: 'p_1', body: 'Called back' },
			status: 201,
		});
		expect(sandbox.requests[0].headers['content-type']).toBe('application/json');
		expect(result.items.map((item) => item.json)).toEqual([
			{ personId: 'p_1', body: 'Called back', id: 'note-1', created: expect.any(String) },
		]);
	});

	test('after a 500 the POST is not sent again and the error says it may have been processed', async () => {
		sandbox.inject({ status: 500, count: 1, match: { method: 'POST' } });
		const result = await send({
			parameters: {
				host: 'crm',
				method: 'POST',
				path: 'notes',
				body: '{"body": "x"}',
				requestOptions: FAST,
			},
		});
		expect(sandbox.requests).toHaveLength(1);
		expect(result.error?.message).toMatch(
			/^The service had an internal error \(HTTP 500\).*not sent twice: the service may already have processed it/,
		);
	});
});

describe('Path: under /api of the chosen host, or nothing is sent', () => {
	test.each([
		['https://evil.test/api/loans', 'Path: give a path relative to /api, not a URL (item 0)'],
		['//evil.test/api/loans', 'Path: give a path relative to /api, not a URL (item 0)'],
		['javascript:alert(1)', 'Path: give a path relative to /api, not a URL (item 0)'],
		[
			'../people',
			'Path: part 1 ("..") would leave the path it names; "." and ".." are not allowed (item 0)',
		],
		[
			'loans/../../people',
			'Path: part 2 ("..") would leave the path it names; "." and ".." are not allowed (item 0)',
		],
		[
			'loans/%2e%2e',
			'Path: part 2 ("%2e%2e") would leave the path it names; "." and ".." are not allowed (item 0)',
		],
		[
			'loans/./x',
			'Path: part 2 (".") would leave the path it names; "." and ".." are not allowed (item 0)',
		],
		[
			'loans/a%2Fb',
			'Path: part 2 ("a%2Fb") would leave the path it names; "." and ".." are not allowed (item 0)',
		],
		['/api/loans', 'Path: is relative to /api already: write loans, not /api/loans (item 0)'],
		[
			'loans?limit=5',
			'Path: must not contain ? or #: put query parameters in Query Parameters (item 0)',
		],
		['loans#x', 'Path: must not contain ? or #: put query parameters in Query Parameters (item 0)'],
		['loans//x', 'Path: has an empty part (two slashes in a row) (item 0)'],
		['loans/%20/x', 'Path: part 2 (%20) is empty (item 0)'],
		['loans/%zz', 'Path: part 2 ("%zz") is not valid percent-encoding (item 0)'],
		['loans\nHost: evil', 'Path: contains a line break or another control character (item 0)'],
		['  ', 'Path: is required but empty (item 0)'],
	])('%j is refused', async (path, message) => {
		expectInputError(
			sandbox,
			await send({ parameters: { host: 'los', method: 'GET', path } }),
			message,
		);
	});

	test('a part with spaces or unicode is one encoded segment', async () => {
		const result = await send({
			parameters: { host: 'los', method: 'GET', path: 'loans/loan 1 ü' },
			onError: 'continueRegularOutput',
		});
		expect(sandbox.requests.map((request) => request.url)).toEqual([
			'/api/loans/loan%201%20%C3%BC?limit=50&offset=0',
		]);
		expect(result.items[0].json.error).toBe('Not found (HTTP 404): loan not found (item 0)');
	});

	test('a Body that is not a JSON object is refused', async () => {
		expectInputError(
			sandbox,
			await send({ parameters: { host: 'crm', method: 'POST', path: 'notes', body: '[1]' } }),
			'Body: must be a JSON object like {"key": "value"}, got a list (item 0)',
		);
	});
});

describe('every method on every host (scripted server)', () => {
	const service = useHostile();
	beforeEach(() => {
		service.script((request, res) => sendJson(res, 200, { ok: true, method: request.method }));
	});
	const hosts = {
		crm: '/crm',
		universal: '/universal',
		los: '/los',
		calendar: '/calendar',
	} as const;
	const credentials = () =>
		credentialsFor(service.origin, {
			crmUrl: `${service.origin}/crm/`,
			universalUrl: `${service.origin}/universal`,
			losUrl: `${service.origin}/los`,
			calendarUrl: `${service.origin}/calendar`,
		});

	for (const host of Object.keys(hosts) as (keyof typeof hosts)[]) {
		for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
			test(`${method} on ${host}`, async () => {
				const result = await runNode({
					credentials: credentials(),
					parameters: {
						resource: 'customApiCall',
						operation: 'send',
						host,
						method,
						path: 'things/t-1',
						body: '{"a": 1}',
					},
				});
				expect(result.error).toBeUndefined();
				expect(service.received).toHaveLength(1);
				const [request] = service.received;
				expect(request.method).toBe(method);
				const query = method === 'GET' ? '?limit=50&offset=0' : '';
				expect(request.url).toBe(`${hosts[host]}/api/things/t-1${query}`);
				expect(request.headers.authorization).toBe('Bearer token-123456');
				expect(request.headers['x-service-credential-id']).toBe(
					host === 'universal' ? undefined : 'cred-1',
				);
				expect(request.body).toBe(['POST', 'PUT', 'PATCH'].includes(method) ? '{"a":1}' : '');
				expect(result.items.map((item) => item.json)).toEqual([{ ok: true, method }]);
			});
		}
	}

	test('a nextLink to another origin is not followed with the token', async () => {
		service.script((_request, res) =>
			sendJson(res, 200, {
				_metadata: { nextLink: 'https://elsewhere.test/api/loans?page=2' },
				loans: [{ id: 'l-1' }],
			}),
		);
		const result = await runNode({
			credentials: credentials(),
			parameters: {
				resource: 'customApiCall',
				operation: 'send',
				host: 'los',
				method: 'GET',
				path: 'loans',
				returnAll: true,
			},
		});
		expect(service.received).toHaveLength(1);
		expect(result.error?.message).toMatch(
			/pointed to a next page on another origin \(https:\/\/elsewhere\.test\)/,
		);
	});

	test('a secret echoed in an error is redacted', async () => {
		service.script((request, res) =>
			sendJson(res, 400, { error: `bad token ${String(request.headers.authorization).slice(7)}` }),
		);
		const result = await runNode({
			credentials: credentials(),
			parameters: {
				resource: 'customApiCall',
				operation: 'send',
				host: 'crm',
				method: 'DELETE',
				path: 'notes/n-1',
			},
		});
		expect(result.error?.message).toBe(
			'The service rejected the request as invalid (HTTP 400): bad token [redacted] (item 0)',
		);
		expect(JSON.stringify(result.error)).not.toContain('token-123456');
	});
});

describe('GET: one record is one item, a list the path names is paged (scripted server)', () => {
	const service = useHostile();
	const documents = (from: number, to: number) =>
		Array.from({ length: to - from }, (_v, i) => ({
			id: `d-${from + i}`,
			name: `Doc ${from + i}`,
		}));
	const person = { id: 'p_1', firstName: 'Ann', tags: ['vip', 'lead'] };
	const loan = {
		id: '7',
		amount: 250000,
		borrowers: [{ id: 'b-1' }, { id: 'b-2' }],
		documents: documents(0, 150),
	};
	const calendar = { id: 'cal-1', name: 'Team', attendees: [{ email: 'a@x.test' }] };
	beforeEach(() => {
		service.script((request, res) => {
			const url = new URL(request.url, service.origin);
			const offset = Number(url.searchParams.get('offset') ?? 0);
			const answers: Record<string, unknown> = {
				'/api/people/p_1': person,
				'/api/loans/7': loan,
				'/api/calendars/cal-1': calendar,
				// A list without _metadata, named by the path: 150 documents, 100 a page.
				'/api/loans/7/documents': { documents: documents(offset, Math.min(150, offset + 100)) },
			};
			const answer = answers[url.pathname];
			if (answer === undefined) sendJson(res, 404, { error: 'not found' });
			else sendJson(res, 200, answer);
		});
	});
	const get = async (host: string, path: string, extra: Record<string, unknown> = {}) =>
		await runNode({
			credentials: credentialsFor(service.origin),
			parameters: {
				resource: 'customApiCall',
				operation: 'send',
				host,
				method: 'GET',
				path,
				...extra,
			},
		});

	test.each([
		['a person with tags', 'crm', 'people/p_1', person],
		['a loan with its borrowers and 150 documents', 'los', 'loans/7', loan],
		['a calendar with its attendees', 'calendar', 'calendars/cal-1', calendar],
	])('%s: the record itself, one request', async (_what, host, path, record) => {
		for (const extra of [{}, { returnAll: true }, { simplify: false }]) {
			service.received.length = 0;
			const result = await get(host, path, extra);
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.json)).toEqual([record]);
			expect(service.received.map((request) => request.url)).toEqual([
				`/api/${path}?limit=${'returnAll' in extra ? 100 : 50}&offset=0`,
			]);
		}
	});

	test('Page at a Time of one record: one batch holding it, done', async () => {
		const result = await get('los', 'loans/7', { limit: 10, pageAtATime: true });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual([
			{ records: [loan], count: 1, nextCursor: '', done: true },
		]);
		expect(service.received).toHaveLength(1);
	});

	test("the loan's documents, named by the path: a list, every page, each document once", async () => {
		const result = await get('los', 'loans/7/documents', { returnAll: true });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual(documents(0, 150).map((d) => d.id));
		expect(service.received.map((request) => request.url)).toEqual([
			'/api/loans/7/documents?limit=100&offset=0',
			'/api/loans/7/documents?limit=100&offset=100',
		]);
	});
});
