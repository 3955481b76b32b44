/**
 * Person › Get Many through n8n's real engine against the sandbox: Return All in each paging style,
 * Limit against page size, an empty list, Simplify, extra query parameters and their checks.
 */
import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness/engine';
import { expectInputError, sandboxCredentials, useSandbox } from '../harness/fixtures';
import type { PagingStyle, Sandbox } from '../sandbox/server';

const SEEDED = 120;

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), { people: SEEDED });

const getMany = { resource: 'person', operation: 'getAll' };

async function run(parameters: INodeParameters, items?: object[]) {
	return await runNode({
		parameters: { ...getMany, ...parameters },
		credentials: sandboxCredentials(sandbox),
		items: items as never,
	});
}

/** The seeded people as the service holds them, without `original` (what Simplify returns). */
function seeded(count: number, simplify = true): Record<string, unknown>[] {
	return sandbox
		.people()
		.slice(0, count)
		.map((person) => {
			if (!simplify) return person;
			const { original: _original, ...rest } = person;
			return rest;
		});
}

function ids(from: number, to: number): string[] {
	return Array.from({ length: to - from + 1 }, (_, i) => `p_${from + i}`);
}

describe('Return All over several pages', () => {
	test('offset paging: limit/offset on every request, stops at the total', async () => {
		sandbox.setPaging('offset');
		const result = await run({ returnAll: true, options: { pageSize: 50 } });

		expect(result.error).toBeUndefined();
		expect(sandbox.requests.map((r) => [r.method, r.path, r.query])).toEqual([
			['GET', '/api/people', { limit: '50', offset: '0' }],
			['GET', '/api/people', { limit: '50', offset: '50' }],
			['GET', '/api/people', { limit: '50', offset: '100' }],
		]);
		expect(result.items.map((i) => i.json.id)).toEqual(ids(1, SEEDED));
		expect(result.items.map((i) => i.json)).toEqual(seeded(SEEDED));
	});

	test('next cursor: the first request by offset, then the cursor from _metadata.next', async () => {
		sandbox.setPaging('next');
		const result = await run({ returnAll: true, options: { pageSize: 50 } });

		expect(result.error).toBeUndefined();
		const queries = sandbox.requests.map((r) => r.query);
		expect(queries).toHaveLength(3);
		expect(queries[0]).toEqual({ limit: '50', offset: '0' });
		for (const query of queries.slice(1)) {
			expect(query).toEqual({ limit: '50', next: expect.stringMatching(/^c[0-9a-z]+_/) });
		}
		expect(queries[1].next).not.toBe(queries[2].next);
		expect(sandbox.requests.every((r) => r.path === '/api/people' && r.status === 200)).toBe(true);
		expect(result.items.map((i) => i.json.id)).toEqual(ids(1, SEEDED));
		expect(result.items.map((i) => i.json)).toEqual(seeded(SEEDED));
	});

	test('nextLink: later pages are fetched from the link the service gives, on its own origin', async () => {
		sandbox.setPaging('nextLink');
		const result = await run({ returnAll: true, options: { pageSize: 50 } });

		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(3);
		expect(sandbox.requests[0].url).toBe('/api/people?limit=50&offset=0');
		for (const request of sandbox.requests.slice(1)) {
			// The sandbox's nextLink is /api/people?next=<cursor>&limit=<limit>, called as given.
			expect(request.url).toMatch(/^\/api\/people\?next=c[0-9a-z]+_[A-Za-z0-9_-]+&limit=50$/);
			expect(request.host).toBe('crm');
			expect(request.headers['x-service-credential-id']).toBe('cred-default');
			expect(request.headers.authorization).toBe(`Bearer ${sandbox.token}`);
		}
		expect(result.items.map((i) => i.json.id)).toEqual(ids(1, SEEDED));
		expect(result.items.map((i) => i.json)).toEqual(seeded(SEEDED));
	});

	test('the default page size is 100', async () => {
		sandbox.setPaging('offset');
		const result = await run({ returnAll: true });

		expect(sandbox.requests.map((r) => r.query)).toEqual([
			{ limit: '100', offset: '0' },
			{ limit: '100', offset: '100' },
		]);
		expect(result.items.map((i) => i.json.id)).toEqual(ids(1, SEEDED));
	});

	test.each<PagingStyle>(['offset', 'next', 'nextLink'])(
		'%s paging: a total that is a multiple of the page size does not cost an extra request',
		async (style) => {
			sandbox.setPaging(style);
			const result = await run({ returnAll: true, options: { pageSize: 40 } });
			expect(sandbox.requests).toHaveLength(3);
			expect(result.items.map((i) => i.json.id)).toEqual(ids(1, SEEDED));
		},
	);
});

describe('Limit', () => {
	test('the default Limit is 50, in one request', async () => {
		const result = await run({});

		expect(sandbox.requests.map((r) => r.url)).toEqual(['/api/people?limit=50&offset=0']);
		expect(result.items.map((i) => i.json.id)).toEqual(ids(1, 50));
	});

	test('smaller than a page: one request asking for exactly the limit', async () => {
		const result = await run({ limit: 4, options: { pageSize: 10 } });

		expect(sandbox.requests.map((r) => r.query)).toEqual([{ limit: '4', offset: '0' }]);
		expect(result.items.map((i) => i.json)).toEqual(seeded(4));
	});

	test('equal to a page: one request, no further page', async () => {
		const result = await run({ limit: 10, options: { pageSize: 10 } });

		expect(sandbox.requests.map((r) => r.query)).toEqual([{ limit: '10', offset: '0' }]);
		expect(result.items.map((i) => i.json.id)).toEqual(ids(1, 10));
	});

	test('larger than a page (offset paging): pages until reached, the last one asks only for the rest', async () => {
		sandbox.setPaging('offset');
		const result = await run({ limit: 23, options: { pageSize: 10 } });

		expect(sandbox.requests.map((r) => r.query)).toEqual([
			{ limit: '10', offset: '0' },
			{ limit: '10', offset: '10' },
			{ limit: '3', offset: '20' },
		]);
		expect(result.items.map((i) => i.json)).toEqual(seeded(23));
	});

	test.each<PagingStyle>(['next', 'nextLink'])(
		'larger than a page (%s paging): exactly Limit people, in order',
		async (style) => {
			sandbox.setPaging(style);
			const result = await run({ limit: 23, options: { pageSize: 10 } });

			expect(sandbox.requests).toHaveLength(3);
			expect(result.items.map((i) => i.json.id)).toEqual(ids(1, 23));
		},
	);

	test('larger than the whole list: every person once, then stops', async () => {
		sandbox.setPaging('offset');
		const result = await run({ limit: 500 });

		expect(sandbox.requests.map((r) => r.query)).toEqual([
			{ limit: '100', offset: '0' },
			{ limit: '100', offset: '100' },
		]);
		expect(result.items.map((i) => i.json.id)).toEqual(ids(1, SEEDED));
	});

	test('Limit given as text by an expression is read as a number', async () => {
		const result = await run({ limit: '={{ "7" }}' });
		expect(sandbox.requests.map((r) => r.query)).toEqual([{ limit: '7', offset: '0' }]);
		expect(result.items).toHaveLength(7);
	});
});

describe('output', () => {
	test('an empty list gives no items and one request', async () => {
		// The second connection has no people.
		const result = await run({ returnAll: true, credentialId: 'cred-other' });

		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0].headers['x-service-credential-id']).toBe('cred-other');
		expect(result.items).toEqual([]);
	});

	test('Simplify on (default) drops `original` and keeps every other field', async () => {
		const result = await run({ limit: 3 });

		expect(result.items).toHaveLength(3);
		for (const [index, item] of result.items.entries()) {
			expect(item.json).not.toHaveProperty('original');
			expect(item.json).toEqual(seeded(3)[index]);
			expect(item.json.originalIds).toEqual({ crm: `crm-${100001 + index}` });
		}
	});

	test('Simplify off returns each person exactly as the service does', async () => {
		const result = await run({ limit: 3, simplify: false });

		expect(result.items.map((i) => i.json)).toEqual(seeded(3, false));
		expect(result.items[0].json.original).toMatchObject({
			id: 100001,
			lead_score: expect.any(Number),
		});
	});

	test('every person is its own item, paired with the input item it was listed for', async () => {
		const result = await run({ limit: 2, credentialId: '={{ $json.cid }}' }, [
			{ cid: 'cred-default' },
			{ cid: 'cred-other' },
			{ cid: 'cred-default' },
		]);

		expect(sandbox.requests.map((r) => r.headers['x-service-credential-id'])).toEqual([
			'cred-default',
			'cred-other',
			'cred-default',
		]);
		expect(result.items.map((i) => [i.json.id, i.pairedItem])).toEqual([
			['p_1', { item: 0 }],
			['p_2', { item: 0 }],
			['p_1', { item: 2 }],
			['p_2', { item: 2 }],
		]);
	});

	test('a person created on one connection is listed there only', async () => {
		await runNode({
			parameters: {
				resource: 'person',
				operation: 'create',
				firstName: 'Zed',
				credentialId: 'cred-other',
			},
			credentials: sandboxCredentials(sandbox),
		});
		sandbox.requests.length = 0;
		const result = await run({ returnAll: true, credentialId: '={{ "cred-other" }}' });

		expect(result.items.map((i) => i.json.firstName)).toEqual(['Zed']);
		expect(sandbox.requests.map((r) => r.headers['x-service-credential-id'])).toEqual([
			'cred-other',
		]);
	});
});

describe('extra query parameters', () => {
	const queryParameters = {
		parameters: [
			{ name: 'stage', value: 'Lead' },
			{ name: 'sort', value: '-created' },
		],
	};

	test('reach the wire next to the paging parameters, on every page', async () => {
		sandbox.setPaging('next');
		const result = await run({ limit: 15, options: { pageSize: 10, queryParameters } });

		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(2);
		expect(sandbox.requests[0].query).toEqual({
			stage: 'Lead',
			sort: '-created',
			limit: '10',
			offset: '0',
		});
		expect(sandbox.requests[1].query).toEqual({
			stage: 'Lead',
			sort: '-created',
			limit: '5',
			next: expect.any(String),
		});
		expect(result.items).toHaveLength(15);
	});

	test('names and values are encoded, values from expressions sent as text', async () => {
		const result = await run(
			{
				limit: 1,
				options: {
					queryParameters: {
						parameters: [
							{ name: 'q', value: 'a&b=c d' },
							{ name: 'minPrice', value: '={{ $json.min }}' },
						],
					},
				},
			},
			[{ min: 250000 }],
		);

		expect(result.error).toBeUndefined();
		expect(sandbox.requests[0].query).toEqual({
			q: 'a&b=c d',
			minPrice: '250000',
			limit: '1',
			offset: '0',
		});
		expect(sandbox.requests[0].url).not.toContain('a&b=c d');
	});

	test.each(['limit', 'offset', 'next', 'Offset'])(
		'"%s" is refused before anything is sent',
		async (name) => {
			const result = await run({
				returnAll: true,
				options: {
					queryParameters: {
						parameters: [
							{ name: 'stage', value: 'Lead' },
							{ name, value: '5' },
						],
					},
				},
			});

			expectInputError(
				sandbox,
				result,
				`Options › Query Parameters › ${name}: cannot be set here: paging sets limit, offset, next itself (use Return All, Limit and Page Size instead) (item 0)`,
			);
		},
	);

	test('an entry with no name, no value, or a repeated name is refused', async () => {
		const cases: [INodeParameters[], string][] = [
			[[{ name: ' ', value: 'x' }], 'Options › Query Parameters › entry 1: has no name (item 0)'],
			[[{ name: 'stage', value: '' }], 'Options › Query Parameters › stage: has no value (item 0)'],
			[
				[
					{ name: 'tag', value: 'a' },
					{ name: 'tag', value: 'b' },
				],
				'Options › Query Parameters › tag: appears more than once (item 0)',
			],
		];
		for (const [parameters, message] of cases) {
			expectInputError(
				sandbox,
				await run({ options: { queryParameters: { parameters } } }),
				message,
			);
		}
	});
});

describe('validation of Limit and Page Size: nothing is sent', () => {
	test.each([
		[{ limit: '={{ "ten" }}' }, 'Limit: must be a number, got "ten" (item 0)'],
		[{ limit: 2.5 }, 'Limit: must be a whole number, got 2.5 (item 0)'],
		[{ limit: '={{ 0 }}' }, 'Limit: must be at least 1, got 0 (item 0)'],
		[
			{ options: { pageSize: 500 } },
			'Options › Page Size: must be between 1 and 100, got 500 (item 0)',
		],
		[
			{ options: { pageSize: '={{ "big" }}' } },
			'Options › Page Size: must be a number, got "big" (item 0)',
		],
	])('%j', async (parameters, message) => {
		expectInputError(sandbox, await run(parameters as INodeParameters), message);
	});
});
