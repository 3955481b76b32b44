/**
 * The pager, at the unit layer: nodes/IntegrationService/transport/paging.ts (and the request path
 * under it) against a fake context, whose httpRequestWithAuthentication records what would be sent
 * and answers from a script; and its steps between two pages called directly, with no
 * n8n context: the request for a page, what a page gives and counts, and the endless-list bounds.
 * Page at a Time across batches is cursor.test.ts.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import type { PageRequest, ServiceRequest } from '../../nodes/IntegrationService/transport';
import {
	CREDENTIAL_DEFAULT,
	DEFAULT_SETTINGS,
	newRun,
	serviceRequest,
	serviceRequestPages,
} from '../../nodes/IntegrationService/transport';
import { newLoopMemory } from '../../nodes/IntegrationService/transport/cursor';
import { recordsOf } from '../../nodes/shared/catalogue';
import type { Paging } from '../../nodes/IntegrationService/transport/paging';
import {
	announcedBound,
	LIST_NEXT_STEP,
	MAX_RECORDS,
	MAX_UNANNOUNCED_RECORDS,
	requestFor,
	takePage,
} from '../../nodes/IntegrationService/transport/paging';
import type { Scripted } from './fakes';
import { credentials, fakeServiceContext } from './fakes';

const PEOPLE = 'https://crm.test/api/people';
const LIST: ServiceRequest = {
	method: 'GET',
	host: 'crm',
	connection: CREDENTIAL_DEFAULT,
	path: ['people'],
};

const people = (...ids: Array<string | number>) =>
	ids.map((id) => ({ id: String(id), firstName: `P${id}` }));

const run = () => newRun({ ...DEFAULT_SETTINGS, maxRequestsPerSecond: 0, initialDelayMs: 1 });

/** Pages a list through the fake: what was sent, what each onPage got, and how it ended. */
async function page(script: Scripted[], list: Partial<PageRequest> = {}) {
	const fake = fakeServiceContext(script);
	const pages: IDataObject[][] = [];
	const answers: IDataObject[] = [];
	const onPage = (records: IDataObject[], answer: IDataObject) => {
		pages.push(records);
		answers.push(answer);
	};
	const outcome = await serviceRequestPages
		.call(fake.ctx, 0, { request: LIST, pageSize: 2, recordsKey: 'people', ...list }, run(), onPage)
		.then(
			({ received }) => ({ received, error: undefined }),
			(error: Error) => ({ received: undefined, error }),
		);
	return { ...outcome, pages, answers, sent: fake.sent, unused: fake.remaining };
}

const ids = (pages: IDataObject[][]) => pages.map((records) => records.map((record) => record.id));

describe('serviceRequestPages', () => {
	it('pages by offset until the announced total', async () => {
		const script = [
			{ people: people(1, 2), _metadata: { total: 5, offset: 0 } },
			{ people: people(3, 4), _metadata: { total: 5, offset: 2 } },
			{ people: people(5), _metadata: { total: 5, offset: 4 } },
		];
		const result = await page(script, { request: { ...LIST, qs: { sort: 'name' } } });
		expect(result.error).toBeUndefined();
		expect(result.received).toBe(5);
		expect(ids(result.pages)).toEqual([['1', '2'], ['3', '4'], ['5']]);
		// onPage also gets each page as the service sent it.
		expect(result.answers).toEqual(script);
		expect(result.sent.map((request) => [request.method, request.url, request.qs])).toEqual([
			['GET', PEOPLE, { sort: 'name', limit: 2, offset: 0 }],
			['GET', PEOPLE, { sort: 'name', limit: 2, offset: 2 }],
			['GET', PEOPLE, { sort: 'name', limit: 2, offset: 4 }],
		]);
		// Every page goes out with the same credential, headers and options.
		for (const request of result.sent) {
			expect(request.credentialType).toBe('integrationServiceApi');
			expect(request.headers).toEqual({
				Accept: 'application/json',
				'X-Service-Credential-Id': 'cred-1',
			});
			expect(request.encoding).toBe('stream');
		}
	});

	it('without a total, stops at the first short page', async () => {
		const result = await page([{ people: people(1, 2) }, { people: people(3) }]);
		expect(result.received).toBe(3);
		expect(result.sent.map((request) => request.qs)).toEqual([
			{ limit: 2, offset: 0 },
			{ limit: 2, offset: 2 },
		]);
	});

	it('stops on an empty page', async () => {
		const result = await page([{ people: people(1, 2) }, { people: [] }]);
		expect(result.received).toBe(2);
		expect(result.pages).toEqual([people(1, 2), []]);
		expect(result.sent).toHaveLength(2);
	});

	it('refuses an offset the service did not move to', async () => {
		const result = await page([
			{ people: people(1, 2), _metadata: { total: 9, offset: 0 } },
			{ people: people(3, 4), _metadata: { total: 9, offset: 0 } },
		]);
		expect(result.error?.message).toBe(
			'Paging stopped: the service answered offset 0 when asked for offset 2',
		);
	});

	it('follows the next cursor', async () => {
		const result = await page([
			{ people: people(1, 2), _metadata: { next: 'c2' } },
			{ people: people(3, 4), _metadata: { next: 'c3' } },
			{ people: people(5), _metadata: {} },
		]);
		expect(result.error).toBeUndefined();
		expect(result.received).toBe(5);
		expect(result.sent.map((request) => [request.url, request.qs])).toEqual([
			[PEOPLE, { limit: 2, offset: 0 }],
			[PEOPLE, { limit: 2, next: 'c2' }],
			[PEOPLE, { limit: 2, next: 'c3' }],
		]);
	});

	it('follows a relative nextLink, resolved against the page it came on, as it is', async () => {
		const result = await page([
			{ people: people(1, 2), _metadata: { nextLink: '/api/people?page=2' } },
			{ people: people(3, 4), _metadata: { nextLink: 'people?page=3' } },
			{ people: [], _metadata: {} },
		]);
		expect(result.error).toBeUndefined();
		expect(result.received).toBe(4);
		expect(result.sent.map((request) => [request.url, request.qs])).toEqual([
			[PEOPLE, { limit: 2, offset: 0 }],
			['https://crm.test/api/people?page=2', undefined],
			['https://crm.test/api/people?page=3', undefined],
		]);
	});

	it('follows an absolute nextLink on the same origin, and stops when none is left', async () => {
		const result = await page([
			{ people: people(1, 2), _metadata: { nextLink: 'https://crm.test/api/people?cursor=abc' } },
			{ people: people(3, 4), _metadata: {} },
		]);
		expect(result.error).toBeUndefined();
		expect(result.received).toBe(4);
		expect(result.sent.map((request) => request.url)).toEqual([
			PEOPLE,
			'https://crm.test/api/people?cursor=abc',
		]);
	});

	it.each([
		['https://evil.test/api/people?page=2', 'https://evil.test'],
		['//evil.test/api/people?page=2', 'https://evil.test'],
		['http://crm.test/api/people?page=2', 'http://crm.test'],
		['https://user:pw@crm.test/api/people?page=2', 'https://crm.test'],
	])('refuses the nextLink %j before it is sent', async (nextLink, origin) => {
		const result = await page([
			{ people: people(1, 2), _metadata: { nextLink } },
			{ people: people(3) },
		]);
		expect(result.error?.message).toBe(
			`The service pointed to a next page on another origin (${origin}); it is not followed with your token`,
		);
		expect(result.sent.map((request) => request.url)).toEqual([PEOPLE]);
		expect(result.unused).toHaveLength(1);
		expect(result.pages).toEqual([people(1, 2)]);
	});

	it('sends nothing to a nextLink that is no URL', async () => {
		const result = await page([
			{ people: people(1, 2), _metadata: { nextLink: 'http://[::1' } },
			{ people: people(3) },
		]);
		expect(result.error).toBeDefined();
		expect(result.sent).toHaveLength(1);
	});

	it('stops when the same cursor comes twice', async () => {
		const result = await page([
			{ people: people(1, 2), _metadata: { next: 'c2' } },
			{ people: people(3, 4), _metadata: { next: 'c2' } },
			{ people: people(5, 6) },
		]);
		expect(result.error?.message).toBe(
			'Paging stopped: the service returned the same next-page cursor twice',
		);
		expect(result.sent).toHaveLength(2);
	});

	it('stops when the same nextLink comes twice, however it is written', async () => {
		const result = await page([
			{ people: people(1, 2), _metadata: { nextLink: '/api/people?page=2' } },
			{ people: people(3, 4), _metadata: { nextLink: 'https://crm.test/api/people?page=2' } },
			{ people: people(5, 6) },
		]);
		expect(result.error?.message).toBe(
			'Paging stopped: the service returned the same next-page cursor twice',
		);
		expect(result.sent).toHaveLength(2);
	});

	it.each(['http://[::1', 'https://exa mple.test/api/people'])(
		'stops at a nextLink that is not a URL (%j), sending nothing more',
		async (nextLink) => {
			const result = await page([
				{ people: people(1, 2), _metadata: { nextLink } },
				{ people: people(3) },
			]);
			expect(result.error?.message).toBe(
				'Paging stopped: the service gave a next-page link that is not a URL',
			);
			expect(result.error?.constructor.name).toBe('NodeApiError');
			expect(result.pages).toEqual([people(1, 2)]);
			expect(result.sent).toHaveLength(1);
		},
	);

	it('stops when a page brings only records already seen', async () => {
		const result = await page([
			{ people: people(1, 2) },
			{ people: people(2, 1) },
			{ people: people(3) },
		]);
		expect(result.error?.message).toBe(
			'Paging stopped: the service returned the same records again (it does not move to the next page)',
		);
		expect(result.sent).toHaveLength(2);
	});

	it('does not compare records without an id', async () => {
		const result = await page([
			{ people: [{ name: 'a' }, { name: 'b' }] },
			{ people: [{ name: 'a' }] },
		]);
		expect(result.error).toBeUndefined();
		expect(result.received).toBe(3);
	});

	it('a Limit asks for what is left, cuts the last page and stops early', async () => {
		const result = await page(
			[
				{ people: people(1, 2), _metadata: { total: 10 } },
				// The service ignores the smaller limit and sends a whole page.
				{ people: people(3, 4), _metadata: { total: 10 } },
				{ people: people(5, 6), _metadata: { total: 10 } },
			],
			{ maxRecords: 3 },
		);
		expect(result.error).toBeUndefined();
		expect(result.received).toBe(3);
		expect(ids(result.pages)).toEqual([['1', '2'], ['3']]);
		// The page itself is handed on whole; only the records are cut to the Limit.
		expect(result.answers[1]).toEqual({ people: people(3, 4), _metadata: { total: 10 } });
		expect(result.sent.map((request) => request.qs)).toEqual([
			{ limit: 2, offset: 0 },
			{ limit: 1, offset: 2 },
		]);
		expect(result.unused).toHaveLength(1);
	});

	it('a Limit below the page size asks for that many', async () => {
		const result = await page([{ people: people(1, 2, 3) }], { maxRecords: 1, pageSize: 50 });
		expect(result.received).toBe(1);
		expect(result.sent.map((request) => request.qs)).toEqual([{ limit: 1, offset: 0 }]);
	});

	it('errors on a page without the records list', async () => {
		const result = await page([{ items: people(1, 2) }]);
		expect(result.error?.message).toBe('The service\'s answer has no "people" list');
		expect(result.pages).toEqual([]);
		const notAList = await page([{ people: { id: '1' } }]);
		expect(notAList.error?.message).toBe('The service\'s answer has no "people" list');
	});

	it('finds the records with a function as the records key', async () => {
		const recordsKey = (answer: IDataObject) => (answer.data as IDataObject | undefined)?.items;
		const result = await page(
			[
				{ data: { items: people(1, 2) }, _metadata: { total: 3 } },
				{ data: { items: people(3) }, _metadata: { total: 3 } },
			],
			{ recordsKey },
		);
		expect(result.error).toBeUndefined();
		expect(ids(result.pages)).toEqual([['1', '2'], ['3']]);
		const missing = await page([{ people: people(1) }], { recordsKey });
		expect(missing.error?.message).toBe("The service's answer has no records list");
	});

	it('stops past the bound the first page announced', async () => {
		const result = await page([
			{ people: people(1, 2), _metadata: { total: 3, next: 'c2' } },
			{ people: people(3, 4), _metadata: { total: 3, next: 'c3' } },
			{ people: people(5, 6), _metadata: { total: 3, next: 'c4' } },
			{ people: people(7, 8), _metadata: { total: 3 } },
		]);
		expect(result.error?.message).toBe(
			'Paging stopped: the service announced 3 records but goes on past 4; narrow the list with Query Parameters or use a Limit',
		);
		expect(ids(result.pages)).toEqual([
			['1', '2'],
			['3', '4'],
		]);
		expect(result.sent).toHaveLength(3);
	});

	it('keeps the total of the first page, not a later one', async () => {
		const result = await page([
			{ people: people(1, 2), _metadata: { total: 3, next: 'c2' } },
			{ people: people(3, 4), _metadata: { total: 1000, next: 'c3' } },
			{ people: people(5, 6), _metadata: { total: 1000 } },
		]);
		expect(result.error?.message).toMatch(
			/^Paging stopped: the service announced 3 records but goes on past 4;/,
		);
	});

	it(`stops past ${MAX_RECORDS} records held at once`, async () => {
		const huge = Array.from({ length: MAX_RECORDS + 1 }, () => ({}));
		const result = await page([{ people: huge }], { pageSize: 100 });
		expect(result.error?.message).toBe(
			`Paging stopped: more than ${MAX_RECORDS} records would be held in memory at once; narrow the list with Query Parameters, use a Limit or Page at a Time`,
		);
		expect(result.pages).toEqual([]);
	});

	it('retries a page that failed with a 500 and keeps the pages already read', async () => {
		const result = await page([
			{ people: people(1, 2), _metadata: { total: 4 } },
			{ raw: { statusCode: 500, body: '{"error": "database busy"}' } },
			{ people: people(3, 4), _metadata: { total: 4 } },
		]);
		expect(result.error).toBeUndefined();
		expect(result.received).toBe(4);
		expect(result.sent.map((request) => request.qs)).toEqual([
			{ limit: 2, offset: 0 },
			{ limit: 2, offset: 2 },
			{ limit: 2, offset: 2 },
		]);
	});
});

describe('serviceRequest', () => {
	const CREATE: ServiceRequest = {
		method: 'POST',
		host: 'crm',
		connection: CREDENTIAL_DEFAULT,
		path: ['people'],
		body: { firstName: 'Ann' },
	};

	async function send(script: Scripted[], request: ServiceRequest, creds?: IDataObject) {
		const fake = fakeServiceContext(script, creds);
		const outcome = await serviceRequest.call(fake.ctx, 0, request, run()).then(
			(json) => ({ json, error: undefined }),
			(error: Error & { description?: string; httpCode?: string }) => ({ json: undefined, error }),
		);
		return { ...outcome, sent: fake.sent };
	}

	it('retries a GET after a 500', async () => {
		const result = await send(
			[{ raw: { statusCode: 500, body: 'Internal Server Error' } }, { id: 'p-1' }],
			{
				method: 'GET',
				host: 'crm',
				connection: CREDENTIAL_DEFAULT,
				path: ['people', { id: 'p-1', field: 'Person ID' }],
			},
		);
		expect(result.json).toEqual({ id: 'p-1' });
		expect(result.sent.map((request) => request.url)).toEqual([
			'https://crm.test/api/people/p-1',
			'https://crm.test/api/people/p-1',
		]);
	});

	it('sends a POST once after a 500 and says it may have been processed', async () => {
		const result = await send(
			[{ raw: { statusCode: 500, body: '{"error": "database timeout"}' } }, { id: 'p-1' }],
			CREATE,
		);
		expect(result.sent).toHaveLength(1);
		expect(result.sent[0]).toMatchObject({
			method: 'POST',
			url: PEOPLE,
			body: '{"firstName":"Ann"}',
			headers: {
				Accept: 'application/json',
				'Content-Type': 'application/json',
				'X-Service-Credential-Id': 'cred-1',
			},
		});
		expect(result.error?.message).toBe(
			'The service had an internal error (HTTP 500): database timeout (not sent twice: the service may already have processed it; check before running it again)',
		);
		expect(result.error?.httpCode).toBe('500');
	});

	it('retries a POST after a 429 (it was not processed)', async () => {
		const result = await send(
			[
				{
					raw: { statusCode: 429, headers: { 'retry-after': '0' }, body: '{"error": "slow down"}' },
				},
				{ id: 'p-2' },
			],
			CREATE,
		);
		expect(result.json).toEqual({ id: 'p-2' });
		expect(result.sent).toHaveLength(2);
	});

	it('gives up after Max Attempts and says how often it tried', async () => {
		const fail = { raw: { statusCode: 503, body: '' } };
		const fake = fakeServiceContext([fail, fail, fail]);
		const settings = {
			...DEFAULT_SETTINGS,
			maxRequestsPerSecond: 0,
			initialDelayMs: 1,
			maxAttempts: 3,
		};
		await expect(
			serviceRequest.call(
				fake.ctx,
				0,
				{ method: 'GET', host: 'crm', connection: CREDENTIAL_DEFAULT, path: ['people'] },
				newRun(settings),
			),
		).rejects.toThrow('The service had an internal error (HTTP 503) (after 3 attempts)');
		expect(fake.sent).toHaveLength(3);
	});

	it('takes the token out of the service’s error', async () => {
		const result = await send(
			[{ raw: { statusCode: 401, body: '{"message": "token token-123456 is expired"}' } }],
			{ method: 'GET', host: 'crm', connection: CREDENTIAL_DEFAULT, path: ['people'] },
		);
		expect(result.error?.message).toBe(
			'The access token is invalid or expired (HTTP 401): token [redacted] is expired',
		);
		expect(result.sent).toHaveLength(1);
	});

	it('sends nothing for an ID that is not one segment, nor for a host with user info', async () => {
		const badId = await send([{ id: 'x' }], {
			method: 'GET',
			host: 'crm',
			connection: CREDENTIAL_DEFAULT,
			path: ['people', { id: '..', field: 'Person ID' }],
		});
		expect(badId.error?.message).toBe('Person ID: ".." is not a valid ID');
		expect(badId.sent).toHaveLength(0);
		const badHost = await send(
			[{ id: 'x' }],
			{ method: 'GET', host: 'crm', connection: CREDENTIAL_DEFAULT, path: ['people'] },
			credentials({ crmUrl: 'https://a:b@crm.test' }),
		);
		expect(badHost.error?.message).toBe(
			"The credential's CRM Host URL must not contain a user name or password (user:password@); the token authenticates every request",
		);
		expect(badHost.sent).toHaveLength(0);
	});

	it('sends no credential ID to the universal host', async () => {
		const result = await send([{ ok: true }], {
			method: 'GET',
			host: 'universal',
			path: ['credentials'],
		});
		expect(result.sent[0].url).toBe('https://u.test/api/credentials');
		expect(result.sent[0].headers).toEqual({ Accept: 'application/json' });
	});
});

describe("recordsOf (records of an answer whose list key is not known: an event's uri, a Custom API Call)", () => {
	it('a page of a list: _metadata, a list under the name its path ends with, or nothing but a known list', () => {
		expect(recordsOf({ _metadata: { total: 1 }, people: [{ id: 'p' }] })).toEqual([{ id: 'p' }]);
		expect(recordsOf({ borrowers: [{ id: 'b' }] })).toEqual([{ id: 'b' }]);
		expect(recordsOf({ people: [] })).toEqual([]);
		expect(recordsOf({ documents: [{ id: 'd' }], count: 1 }, 'documents')).toEqual([{ id: 'd' }]);
		expect(recordsOf({ tasks: [{ id: 't' }] }, 'tasks')).toEqual([{ id: 't' }]);
	});

	it('its records: the list under that name, else people/borrowers/documents, else the first other list, never _metadata', () => {
		const d = { id: 'd' };
		const p = { id: 'p' };
		expect(recordsOf({ _metadata: {}, people: [p], documents: [d] }, 'documents')).toEqual([d]);
		expect(recordsOf({ _metadata: {}, documents: [d], people: [p] })).toEqual([p]);
		expect(recordsOf({ _metadata: [{ total: 1 }], tasks: [{ id: 't' }] })).toEqual([{ id: 't' }]);
		expect(
			recordsOf({ _metadata: {}, name: 'x', notes: [{ id: 'n' }], more: [{ id: 'm' }] }),
		).toEqual([{ id: 'n' }]);
		// A page of a list without its list holds no record.
		expect(recordsOf({ _metadata: [] })).toEqual([]);
	});

	it('a page that names its list (_metadata.collection) has that list, or none at all (null), never the end of the list', () => {
		const p = { id: 'p' };
		expect(recordsOf({ _metadata: { collection: 'people' }, people: [p], notes: [] })).toEqual([p]);
		expect(recordsOf({ _metadata: { collection: 'people', total: 40 } })).toBeNull();
		expect(recordsOf({ _metadata: { collection: 'people' }, nope: 1 })).toBeNull();
		expect(recordsOf({ _metadata: { collection: 'people' }, people: 'x' }, 'people')).toBeNull();
		// A collection named otherwise than its list: the list it holds.
		expect(recordsOf({ _metadata: { collection: 'textMessages' }, textmessages: [p] })).toEqual([
			p,
		]);
	});

	it('anything else is one record: the answer itself (a person with tags, a loan with its borrowers, a calendar)', () => {
		const person = { id: 'p_1', firstName: 'Ann', tags: ['vip', 'lead'] };
		expect(recordsOf(person, 'p_1')).toBe(person);
		const loan = { id: '7', borrowers: [{ id: 'b-1' }], documents: [{ id: 'd-1' }] };
		expect(recordsOf(loan, '7')).toBe(loan);
		const calendar = { id: 'cal-1', attendees: [{ email: 'a@x.test' }] };
		expect(recordsOf(calendar, 'cal-1')).toBe(calendar);
		const mixed = { items: [{ id: 'i' }], documents: [{ id: 'd' }] };
		expect(recordsOf(mixed)).toBe(mixed);
		expect(recordsOf({})).toEqual([]);
	});

	it('pages a list whose key it finds itself', async () => {
		const result = await page(
			[
				{ loans: [{ id: 'l1' }, { id: 'l2' }], _metadata: { next: 'c2' } },
				{ loans: [{ id: 'l3' }] },
			],
			{ request: { ...LIST, path: ['loans'] }, recordsKey: recordsOf },
		);
		expect(result.error).toBeUndefined();
		expect(ids(result.pages)).toEqual([['l1', 'l2'], ['l3']]);
	});

	it('a later page that names its list and lacks it stops the list with an error, not as its end', async () => {
		const result = await page(
			[
				{ people: [{ id: 'p1' }], _metadata: { collection: 'people', next: 'c2' } },
				{ _metadata: { collection: 'people', total: 40 } },
			],
			{ request: { ...LIST, path: ['people'] }, recordsKey: recordsOf },
		);
		expect(String((result.error as Error).message)).toMatch(
			/^The service's answer has no records list/,
		);
		expect(ids(result.pages)).toEqual([['p1']]);
	});

	it('a later page refused (400, 404) tells a model that only reads were sent; the first page refused keeps its own step', async () => {
		const refused = (statusCode: number) => ({
			raw: { statusCode, body: '{"errorMessage":"no such page"}' },
		});
		const first = { people: people(1, 2), _metadata: { next: 'c2' } };
		for (const statusCode of [400, 404]) {
			const later = await page([first, refused(statusCode)]);
			const context = (later.error as unknown as { context: IDataObject }).context;
			expect(context.nextStep).toBe(LIST_NEXT_STEP);
		}
		const atOnce = await page([refused(404)]);
		const context = (atOnce.error as unknown as { context: IDataObject }).context;
		expect(context.nextStep).toMatch(/^Not found: check the ID/);
		const limited = await page([first, { raw: { statusCode: 401, body: '{}' } }]);
		const denied = (limited.error as unknown as { context: IDataObject }).context;
		expect(denied.nextStep).toMatch(/^Not authorised/);
	});

	it('a loan holding 150 documents is one record: one request, the loan itself, nothing more asked for', async () => {
		const loan = {
			id: '7',
			borrowers: [{ id: 'b-1' }],
			documents: Array.from({ length: 150 }, (_v, i) => ({ id: `d-${i}` })),
		};
		const result = await page([loan, loan], {
			request: {
				...LIST,
				host: 'los',
				connection: CREDENTIAL_DEFAULT,
				path: ['loans', { id: '7', field: 'Path' }],
			},
			pageSize: 100,
			recordsKey: recordsOf,
		});
		expect(result.error).toBeUndefined();
		expect(result.received).toBe(1);
		expect(result.pages).toEqual([[loan]]);
		expect(result.sent.map((request) => request.url)).toEqual(['https://los.test/api/loans/7']);
	});

	it("the loan's documents, named by the path, are a list paged to its end", async () => {
		const docs = (from: number, to: number) =>
			Array.from({ length: to - from }, (_v, i) => ({ id: `d-${from + i}` }));
		const result = await page([{ documents: docs(0, 100) }, { documents: docs(100, 150) }], {
			request: {
				...LIST,
				host: 'los',
				connection: CREDENTIAL_DEFAULT,
				path: ['loans', { id: '7', field: 'Path' }, 'documents'],
			},
			pageSize: 100,
			recordsKey: recordsOf,
		});
		expect(result.error).toBeUndefined();
		expect(result.received).toBe(150);
		expect(result.sent.map((request) => request.qs)).toEqual([
			{ limit: 100, offset: 0 },
			{ limit: 100, offset: 100 },
		]);
	});

	it('a later page that is no page of the list is an error, not a record', async () => {
		const result = await page(
			[
				{ loans: [{ id: 'l1' }, { id: 'l2' }], _metadata: { next: 'c2' } },
				{ id: 'x', tags: [] },
			],
			{ request: { ...LIST, path: ['loans'] }, recordsKey: recordsOf },
		);
		expect(result.error?.message).toBe("The service's answer has no records list");
		expect(ids(result.pages)).toEqual([['l1', 'l2']]);
	});
});

// The pager's steps between two pages (nextPage.ts), called directly.

const PROPERTY = { seed: 2929, numRuns: 150 };
const START = {
	firstUrl: 'https://crm.example.test/api/people',
	listPath: '/api/people',
	listName: 'people',
	base: 'https://crm.example.test',
	listId: 'list',
	forms: [],
};

const never = (why: string): never => {
	throw new Error(why);
};

function state(overrides: Partial<Paging> = {}): Paging {
	return {
		start: START,
		pageSize: 100,
		loops: newLoopMemory(undefined, never),
		stop: never,
		refuse: never,
		at: { offset: 0 },
		skip: 0,
		pageUrl: START.firstUrl,
		received: 0,
		sent: 0,
		sentOverall: 0,
		...overrides,
	};
}

describe('requestFor', () => {
	it('sends the offset or the cursor with the limit, a link as the page to follow, and the list link as it is', () => {
		const request = {
			method: 'GET' as const,
			host: 'crm' as const,
			path: ['people'],
			qs: { q: 'a' },
			connection: CREDENTIAL_DEFAULT,
		};
		expect(requestFor(request, START, { offset: 200 }, 50).qs).toEqual({
			q: 'a',
			limit: 50,
			offset: 200,
		});
		expect(requestFor(request, START, { next: 'c2' }, 50).qs).toEqual({
			q: 'a',
			limit: 50,
			next: 'c2',
		});
		expect(
			requestFor(request, START, { link: 'https://crm.example.test/api/people?p=2' }, 50).link,
		).toEqual({
			url: 'https://crm.example.test/api/people?p=2',
			relativeTo: START.firstUrl,
			what: 'a next page',
		});
		expect(requestFor(request, START, undefined, 50)).toBe(request);
	});
});

describe('takePage', () => {
	it('property: takes at most what a Limit needs, counts every fresh record, and keeps the first total announced', () => {
		fc.assert(
			fc.property(
				fc.nat(300),
				fc.nat(120),
				fc.option(fc.integer({ min: 1, max: 400 }), { nil: undefined }),
				fc.nat(20),
				fc.option(fc.nat(1000), { nil: undefined }),
				fc.option(fc.nat(1000), { nil: undefined }),
				(received, count, limitLeft, skip, announced, total) => {
					const maxRecords = limitLeft === undefined ? undefined : received + limitLeft;
					const before = { received, sent: received, sentOverall: received, skip, announced };
					// The bounds are the next test's: here only the counts.
					const paging = state({ ...before, maxRecords, stop: (() => undefined) as never });
					const records = Array.from({ length: count }, (_, i) => ({ id: i }));
					const { fresh, take } = takePage(paging, records, total === undefined ? {} : { total });
					expect(fresh).toEqual(records.slice(skip));
					expect(take).toEqual(fresh.slice(0, maxRecords === undefined ? undefined : limitLeft));
					expect(paging.received).toBe(received + take.length);
					expect(paging.sentOverall - before.sentOverall).toBe(fresh.length);
					expect(paging.announced).toBe(announced ?? total);
				},
			),
			PROPERTY,
		);
	});

	it('names the bound a page breaks: past the announced total, past memory, past an unannounced list', () => {
		const page = Array.from({ length: 100 }, (_, i) => ({ id: i }));
		expect(() => takePage(state({ sentOverall: 300, announced: 200 }), page, {})).toThrow(
			'the service announced 200 records but goes on past 300; narrow the list with Query Parameters or use a Limit',
		);
		expect(() => takePage(state({ sentOverall: 200, announced: 200 }), page, {})).not.toThrow();
		const one = [{ id: 1 }];
		expect(() => takePage(state({ sent: MAX_RECORDS, sentOverall: MAX_RECORDS }), one, {})).toThrow(
			/^more than 250000 records would be held in memory at once/,
		);
		expect(() => takePage(state({ sentOverall: MAX_UNANNOUNCED_RECORDS }), one, {})).toThrow(
			/^the service announced no total and the list goes on past 10000000 records/,
		);
		expect(() =>
			takePage(state({ announced: 5, sentOverall: MAX_UNANNOUNCED_RECORDS }), one, {}),
		).toThrow(/^the service announced 5 records/);
	});

	it('announcedBound: the total plus a tenth, at least one page', () => {
		expect(announcedBound(3, 2)).toBe(5);
		expect(announcedBound(100, 5)).toBe(110);
		expect(announcedBound(1000, 50)).toBe(1100);
		expect(announcedBound(0, 50)).toBe(50);
		expect(announcedBound(25, 100)).toBe(125);
	});

	it('property: a list may bring a tenth more than it announced, and at least one page', () => {
		fc.assert(
			fc.property(fc.nat(1_000_000), fc.integer({ min: 1, max: 100 }), (total, pageSize) => {
				const bound = announcedBound(total, pageSize);
				const at = (sentOverall: number) => () =>
					takePage(state({ announced: total, pageSize, sentOverall }), [{ id: 0 }], {});
				expect(at(bound - 1)).not.toThrow();
				expect(at(bound)).toThrow(/^the service announced/);
				expect(bound - total).toBeGreaterThanOrEqual(pageSize);
			}),
			PROPERTY,
		);
	});
});
