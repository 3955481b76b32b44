/**
 * Paging ends before memory does: a service that never stops sending new, distinct records is stopped
 * past what its first page announced (`_metadata.total` plus a margin for records created while
 * reading), or past MAX_RECORDS when it announces nothing, for every paging kind; the trigger's record
 * fetching goes through the same pager, so a looping or endless uri fails the delivery instead of
 * starting the workflow with part of the records.
 */
import { createHmac } from 'crypto';

import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { secretForms } from '../../nodes/IntegrationService/transport/secrets';
import { announcedBound, MAX_RECORDS } from '../../nodes/IntegrationService/transport/paging';
import { runNode } from '../harness/engine';
import { startReceiver } from '../trigger/receiver';
import { credentialsFor, sendJson, useHostile } from './server';

const FAST = {
	maxAttempts: 2,
	initialRetryDelay: 10,
	maxTotalWait: 10,
	timeout: 5,
	maxRequestsPerSecond: 0,
};
const SECRET = 'whsec-paging-secret';

const service = useHostile();

function credentials(): ICredentialDataDecryptedObject {
	return credentialsFor(service.origin, { accessToken: 'paging-token-1', signingSecret: SECRET });
}

type Kind = 'offset' | 'next' | 'nextLink';

/** A service that invents `perPage` new records for every page, forever, announcing `total` (if given). */
function endless(kind: Kind, perPage: number, total: (page: number) => number | undefined): void {
	service.script((request, res, count) => {
		const people = Array.from({ length: perPage }, (_value, index) => ({
			id: `p-${count}-${index}`,
		}));
		const offset = Number(new URL(request.url, service.origin).searchParams.get('offset') ?? 0);
		const meta: IDataObject = { total: total(count) };
		if (kind === 'offset') meta.offset = offset;
		if (kind === 'next') meta.next = `cursor-${count}`;
		if (kind === 'nextLink') meta.nextLink = `/api/people?page=${count + 1}`;
		sendJson(res, 200, { people, _metadata: meta });
	});
}

const returnAll = { resource: 'person', operation: 'getAll', returnAll: true, simplify: false };

describe('Return All against a service that never stops', () => {
	test('the bound over an announced total: a tenth more, at least one page', () => {
		expect(announcedBound(250, 100)).toBe(350);
		expect(announcedBound(10_000, 100)).toBe(11_000);
		expect(MAX_RECORDS).toBe(250_000);
	});

	for (const kind of ['next', 'nextLink'] as const) {
		test(`${kind} paging, total 250 on every page: stopped past 350 records, saying why`, async () => {
			endless(kind, 100, () => 250);
			const result = await runNode({
				parameters: { ...returnAll, requestOptions: FAST },
				credentials: credentials(),
			});
			expect(result.error?.message).toBe(
				'Paging stopped: the service announced 250 records but goes on past 300; narrow the list with Query Parameters or use a Limit (item 0)',
			);
			expect(service.received).toHaveLength(4);
		});
	}

	test('offset paging stops at the total by itself; a total that keeps growing is held to the first one', async () => {
		endless('offset', 100, (page) => page * 100 + 50);
		const result = await runNode({
			parameters: { ...returnAll, requestOptions: FAST },
			credentials: credentials(),
		});
		expect(result.error?.message).toBe(
			'Paging stopped: the service announced 150 records but goes on past 200; narrow the list with Query Parameters or use a Limit (item 0)',
		);
		expect(service.received).toHaveLength(3);
	});

	test('records created while reading: the total grows within the margin and Return All succeeds', async () => {
		let served = 0;
		service.script((_request, res, count) => {
			const size = count < 3 ? 100 : 20;
			const people = Array.from({ length: size }, (_value, index) => ({
				id: `p-${count}-${index}`,
			}));
			served += size;
			sendJson(res, 200, {
				people,
				_metadata: { total: 200 + (count - 1) * 10, offset: served - size },
			});
		});
		const result = await runNode({
			parameters: { ...returnAll, requestOptions: FAST },
			credentials: credentials(),
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(220);
	});

	test(`no total announced: stopped past ${MAX_RECORDS} records, with memory bounded`, async () => {
		endless('nextLink', 2000, () => undefined);
		const before = process.memoryUsage().rss;
		const result = await runNode({
			parameters: { ...returnAll, requestOptions: FAST },
			credentials: credentials(),
		});
		const growthMb = (process.memoryUsage().rss - before) / 1_048_576;
		expect(result.error?.message).toBe(
			`Paging stopped: more than ${MAX_RECORDS} records would be held in memory at once; narrow the list with Query Parameters, use a Limit or Page at a Time (item 0)`,
		);
		expect(service.received).toHaveLength(MAX_RECORDS / 2000 + 1);
		expect(growthMb).toBeLessThan(1000);
	});
});

describe('a link continues only its own list', () => {
	test.each([
		['/api/credentials', 'its path is not /api/people'],
		['/admin/wipe?confirm=yes', 'its path is not /api/people'],
		['/api/people/%2e%2e/%2e%2e/internal', 'it has a "." or ".." segment'],
		['/api/people/%2E%2e/people?page=2', 'it has a "." or ".." segment'],
	])('a nextLink to %s on the same origin is refused before it is sent', async (link, why) => {
		service.script((_request, res) =>
			sendJson(res, 200, { people: [{ id: 'p-1' }], _metadata: { nextLink: link } }),
		);
		const result = await runNode({
			parameters: { ...returnAll, requestOptions: FAST },
			credentials: credentials(),
		});
		expect(result.error?.message).toBe(
			`The service pointed to a next page of another list (${why}); it is not followed (item 0)`,
		);
		expect(result.items).toEqual([]);
		expect(service.received.map((request) => request.url)).toEqual([
			'/api/people?limit=100&offset=0',
		]);
	});
});

describe('Page at a Time against a service whose cursors go round', () => {
	test('a loop of 65 next cursors with no total, read batch by batch, ends with an error', async () => {
		// Two new people a page, and cursors c1 … c65 then c1 again, only one page a batch.
		service.script((request, res, count) => {
			const next = new URL(request.url, service.origin).searchParams.get('next');
			const at = next === null ? 0 : Number(next.slice(1));
			sendJson(res, 200, {
				people: [{ id: `p-${count}-a` }, { id: `p-${count}-b` }],
				_metadata: { next: `c${(at % 65) + 1}` },
			});
		});
		let cursor = '';
		let batches = 0;
		let error: string | undefined;
		while (batches < 260 && error === undefined) {
			const result = await runNode({
				parameters: {
					resource: 'person',
					operation: 'getAll',
					limit: 2,
					pageAtATime: true,
					cursor,
					requestOptions: FAST,
				},
				credentials: credentials(),
			});
			error = result.error?.message;
			if (error !== undefined) break;
			batches++;
			expect(result.items[0].json.done).toBe(false);
			cursor = result.items[0].json.nextCursor as string;
		}
		expect(error).toBe(
			'Paging stopped: the service returned the same next-page cursor twice (item 0)',
		);
		expect(batches).toBeLessThan(200);
	});

	test('70 pages served round and round under fresh nextLinks, read 5,000 at a time, end with an error', async () => {
		// Page n holds the 100 people of page n % 70 and links to ?page=n+1: no link ever repeats, no total.
		service.script((_request, res, count) => {
			const people = Array.from({ length: 100 }, (_value, index) => ({
				id: `r${count % 70}-${index}`,
			}));
			sendJson(res, 200, { people, _metadata: { nextLink: `/api/people?page=${count}` } });
		});
		let cursor = '';
		let batches = 0;
		let error: string | undefined;
		while (batches < 20 && error === undefined) {
			const result = await runNode({
				parameters: {
					resource: 'person',
					operation: 'getAll',
					limit: 5000,
					pageAtATime: true,
					cursor,
					options: { pageSize: 100 },
					requestOptions: FAST,
				},
				credentials: credentials(),
			});
			error = result.error?.message;
			if (error !== undefined) break;
			batches++;
			expect(result.items[0].json.count).toBe(5000);
			cursor = result.items[0].json.nextCursor as string;
		}
		expect(error).toBe(
			'Paging stopped: the service returned the same records again (it does not move to the next page) (item 0)',
		);
		// Brent's check over the pages' ids: within about 3 periods of pages.
		expect(service.received.length).toBeLessThanOrEqual(3 * 70);
		expect(batches).toBeLessThanOrEqual(4);
	});
});

describe('a token the service puts in its nextLink', () => {
	const TOKEN = 'paging-token-1';
	const withToken = [
		`/api/people?page=2&access_token=${TOKEN}`,
		`/api/people?page=2&access_token=${Buffer.from(TOKEN).toString('base64url')}`,
		'/api/people?page=2&access_token=[redacted]',
	];

	test.each(withToken)(
		'%s: not in the nextCursor, any output or the next URL',
		async (nextLink) => {
			service.script((request, res) =>
				request.url.startsWith('/api/people?page=2')
					? sendJson(res, 200, { people: [{ id: 'p-3' }] })
					: sendJson(res, 200, { people: [{ id: 'p-1' }, { id: 'p-2' }], _metadata: { nextLink } }),
			);
			const forms = [...secretForms(credentials() as IDataObject), '[redacted]', '%5Bredacted%5D'];
			const first = await runNode({
				parameters: { resource: 'person', operation: 'getAll', limit: 2, pageAtATime: true },
				credentials: credentials(),
			});
			const cursor = first.items[0].json.nextCursor as string;
			const decoded = Buffer.from(cursor.slice(5), 'base64url').toString();
			expect(JSON.parse(decoded).at).toEqual({ link: `${service.origin}/api/people?page=2` });
			for (const form of forms) {
				expect(decoded).not.toContain(form);
				expect(JSON.stringify(first.items)).not.toContain(form);
			}
			const second = await runNode({
				parameters: {
					resource: 'person',
					operation: 'getAll',
					limit: 2,
					pageAtATime: true,
					cursor,
				},
				credentials: credentials(),
			});
			expect(second.items[0].json.people).toEqual([{ id: 'p-3' }]);
			const all = await runNode({ parameters: returnAll, credentials: credentials() });
			expect(all.items.map((item) => item.json.id)).toEqual(['p-1', 'p-2', 'p-3']);
			// The page after each first page went without the token in its URL, with it in the header only.
			const followed = service.received.filter((request) =>
				request.url.startsWith('/api/people?page=2'),
			);
			expect(followed.map((request) => request.url)).toEqual([
				'/api/people?page=2',
				'/api/people?page=2',
			]);
			for (const request of followed) expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
		},
	);
});

describe("the trigger's record fetching uses the same pager", () => {
	async function deliver(uri: string) {
		const trigger = await startReceiver(
			{ events: ['peopleCreated'], fetchRecords: true },
			credentials(),
		);
		try {
			const body = JSON.stringify({
				eventId: `evt-${Date.now()}-${Math.random()}`,
				event: 'peopleCreated',
				resourceIds: ['p_1'],
				uri,
			});
			const signature = createHmac('sha256', SECRET)
				.update(Buffer.from(body).toString('base64'))
				.digest('hex');
			return await trigger.deliver(body, {
				'Content-Type': 'application/json',
				'X-Service-Signature': signature,
			});
		} finally {
			await trigger.close();
		}
	}

	test('an endless nextLink fails the delivery (not 2xx) and starts nothing, instead of stopping silently', async () => {
		endless('nextLink', 100, () => 120);
		const delivery = await deliver(`${service.origin}/api/people?ids=p_1`);
		expect(delivery.status).toBeGreaterThanOrEqual(500);
		expect(delivery.workflowData).toBeUndefined();
		expect(service.received).toHaveLength(3);
	});

	test('a nextLink that points back to a page already read fails the delivery', async () => {
		service.script((_request, res, count) =>
			sendJson(res, 200, {
				people: [{ id: `p-${count}` }],
				_metadata: { nextLink: '/api/people?page=1' },
			}),
		);
		const delivery = await deliver(`${service.origin}/api/people?page=0`);
		expect(delivery.status).toBeGreaterThanOrEqual(500);
		expect(delivery.workflowData).toBeUndefined();
		expect(service.received.map((request) => request.url)).toEqual([
			'/api/people?page=0',
			'/api/people?page=1',
		]);
	});

	test('a uri naming one record (a loan with its borrowers) yields that record', async () => {
		const loan = { id: '7', amount: 250000, borrowers: [{ id: 'b-1' }, { id: 'b-2' }] };
		service.script((_request, res) => sendJson(res, 200, loan));
		const delivery = await deliver(`${service.origin}/api/loans/7`);
		expect(delivery.status).toBe(200);
		expect(delivery.workflowData?.[0].map((item) => item.json)).toEqual([loan]);
		expect(service.received.map((request) => request.url)).toEqual(['/api/loans/7']);
	});

	test("a nextLink that leaves the uri's list fails the delivery and is not sent", async () => {
		service.script((_request, res) =>
			sendJson(res, 200, {
				people: [{ id: 'p-1' }],
				_metadata: { nextLink: '/api/people/%2e%2e/credentials' },
			}),
		);
		const delivery = await deliver(`${service.origin}/api/people?ids=p-1`);
		expect(delivery.status).toBeGreaterThanOrEqual(500);
		expect(delivery.workflowData).toBeUndefined();
		expect(service.received.map((request) => request.url)).toEqual(['/api/people?ids=p-1']);
	});

	test('two pages by nextLink, then none: one item per record', async () => {
		service.script((_request, res, count) =>
			sendJson(res, 200, {
				people: [{ id: `p-${count}` }],
				_metadata: count === 1 ? { nextLink: '/api/people?page=2' } : {},
			}),
		);
		const delivery = await deliver(`${service.origin}/api/people?ids=p-1,p-2`);
		expect(delivery.status).toBe(200);
		expect(delivery.workflowData?.[0].map((item) => item.json.id)).toEqual(['p-1', 'p-2']);
		expect(service.received.map((request) => request.url)).toEqual([
			'/api/people?ids=p-1,p-2',
			'/api/people?page=2',
		]);
	});
});
