/**
 * What a model reads when it calls the node as a tool (decisions.md, "The node as an AI tool"): a list
 * is one bounded page with its cursor and a word on how to go on, records come compact, Fields to
 * Return keeps only the fields named, the whole answer stays under TOOL_MAX_CHARS, and an error says
 * what to do next without "(item 0)" or the service's URL. The same parameters in a workflow keep
 * their output (asserted beside each).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness/engine';
import { sandboxCredentials, useSandbox } from '../harness/fixtures';
import { callAsTool } from '../harness/tool';
import type { Sandbox } from '../sandbox/server';

const SEEDED = 120;
// The bounds of actions/output.ts, restated: a change there must be seen here.
const TOOL_PAGE_LIMIT = 20;
const TOOL_MAX_CHARS = 40_000;

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), { people: SEEDED });

const GET_MANY: INodeParameters = { resource: 'person', operation: 'getAll' };
const CREATE: INodeParameters = {
	resource: 'person',
	operation: 'create',
	mappingMode: 'defineBelow',
	firstName: "={{ $fromAI('firstName', 'The first name', 'string') }}",
	lastName: "={{ $fromAI('lastName', 'The last name', 'string') }}",
};

async function tool(via: 'mcp' | 'agent', parameters: INodeParameters, args: IDataObject = {}) {
	return await callAsTool(via, { parameters, credentials: sandboxCredentials(sandbox) }, args);
}

function answer(call: { response?: string; error?: string }): IDataObject[] {
	expect(call.error).toBeUndefined();
	return JSON.parse(call.response ?? 'null') as IDataObject[];
}

const listRequests = () => sandbox.requests.filter((r) => r.method === 'GET');

describe.each(['mcp', 'agent'] as const)('%s: a read is one bounded page', (via) => {
	test('Return All gives at most 20 people, the cursor and how to go on; one request', async () => {
		const call = await tool(via, { ...GET_MANY, returnAll: true });
		const [page] = answer(call);

		expect((page.people as IDataObject[]).map((p) => p.id)).toEqual(
			Array.from({ length: TOOL_PAGE_LIMIT }, (_, i) => `p_${i + 1}`),
		);
		expect(page).toMatchObject({ count: TOOL_PAGE_LIMIT, done: false });
		expect(page.nextCursor).toMatch(/^isc1\./);
		expect(page.more).toContain('this tool cannot page: narrow the request');
		expect((page.people as IDataObject[]).every((p) => !('original' in p))).toBe(true);
		expect(call.response!.length).toBeLessThan(TOOL_MAX_CHARS);
		expect(listRequests()).toHaveLength(1);
	});

	test('a huge Limit is capped the same way', async () => {
		const [page] = answer(await tool(via, { ...GET_MANY, limit: 100_000 }));
		expect(page.count).toBe(TOOL_PAGE_LIMIT);
	});

	test('Page at a Time with the Cursor from the model: the next call continues where the first ended', async () => {
		const parameters = {
			...GET_MANY,
			limit: 5,
			pageAtATime: true,
			cursor:
				"={{ $fromAI('cursor', 'nextCursor of the previous call; empty for the first page', 'string') }}",
			output: { fields: 'id, lastName' },
		};
		const [first] = answer(await tool(via, parameters, { cursor: '' }));
		expect(first.more).toBe('More records follow: call again with the cursor set to nextCursor.');
		const [second] = answer(await tool(via, parameters, { cursor: first.nextCursor as string }));

		const people = sandbox.people();
		expect(first.people).toEqual(people.slice(0, 5).map(({ id, lastName }) => ({ id, lastName })));
		expect(second.people).toEqual(
			people.slice(5, 10).map(({ id, lastName }) => ({ id, lastName })),
		);
	});
});

test('mcp: Custom API Call GET with Return All is one page of 20 records too', async () => {
	const call = await tool('mcp', {
		resource: 'customApiCall',
		operation: 'send',
		host: 'crm',
		method: 'GET',
		path: 'people',
		returnAll: true,
	});
	const [page] = answer(call);
	expect(page).toMatchObject({ count: TOOL_PAGE_LIMIT, done: false });
	expect((page.records as IDataObject[]).map((p) => p.id)).toEqual(
		Array.from({ length: TOOL_PAGE_LIMIT }, (_, i) => `p_${i + 1}`),
	);
	expect(listRequests()).toHaveLength(1);
});

describe('Fields to Return and the form', () => {
	test('a workflow keeps its output: Get Many without Output returns every simplified field', async () => {
		const result = await runNode({
			parameters: { ...GET_MANY, limit: 3 },
			credentials: sandboxCredentials(sandbox),
		});
		const { original: _original, ...simplified } = sandbox.people()[0];
		expect(result.items[0].json).toEqual(simplified);
		expect(result.items).toHaveLength(3);
	});

	test('fields named: only those a record has; unknown names and secrets add nothing', async () => {
		const result = await runNode({
			parameters: {
				...GET_MANY,
				limit: 2,
				output: { fields: 'id, firstName, password, token, __proto__, constructor' },
			},
			credentials: sandboxCredentials(sandbox),
		});
		expect(result.error).toBeUndefined();
		const [ada] = sandbox.people();
		expect(result.items[0].json).toEqual({ id: ada.id, firstName: ada.firstName });
		expect(Object.getPrototypeOf(result.items[0].json)).toBe(Object.prototype);
	});

	test('Create in a workflow returns the full record (original included), as before', async () => {
		const result = await runNode({
			parameters: { ...CREATE, firstName: 'Ada', lastName: 'Lovelace' },
			credentials: sandboxCredentials(sandbox),
		});
		expect(result.items[0].json).toHaveProperty('original');
	});

	test.each(['mcp', 'agent'] as const)(
		'%s: Create returns the compact record, or the fields named',
		async (via) => {
			const [compact] = answer(await tool(via, CREATE, { firstName: 'Ada', lastName: 'Tool' }));
			expect(compact).toMatchObject({ firstName: 'Ada', lastName: 'Tool' });
			expect(compact).not.toHaveProperty('original');

			const [few] = answer(
				await tool(
					via,
					{ ...CREATE, output: { fields: 'id,lastName' } },
					{ firstName: 'Ada', lastName: 'Few' },
				),
			);
			expect(Object.keys(few)).toEqual(['id', 'lastName']);

			const [full] = answer(
				await tool(
					via,
					{ ...CREATE, output: { form: 'full' } },
					{ firstName: 'Ada', lastName: 'Full' },
				),
			);
			expect(full).toHaveProperty('original');
		},
	);

	test('a Fields to Return that is not names is refused before anything is sent', async () => {
		const result = await runNode({
			parameters: {
				...GET_MANY,
				output: { fields: Array.from({ length: 51 }, (_, i) => `f${i}`).join(',') },
			},
			credentials: sandboxCredentials(sandbox),
		});
		expect(result.error?.message).toBe(
			'Output › Fields to Return: takes at most 50 names of at most 100 characters (item 0)',
		);
		expect(sandbox.requests).toHaveLength(0);
	});
});

describe('errors a model can act on', () => {
	test.each(['mcp', 'agent'] as const)(
		'%s: a create answered 500 says it may have been processed, without (item 0) or the URL',
		async (via) => {
			sandbox.inject({ status: 500, count: 1, match: { method: 'POST' } });
			const call = await tool(via, CREATE, { firstName: 'Ada', lastName: 'Error' });

			expect(call.response).toBeUndefined();
			expect(call.error).toContain('HTTP 500');
			expect(call.error).not.toContain('(item 0)');
			if (via === 'mcp') {
				expect(call.error).toContain(
					'It may have been processed: look it up (Get or Get Many) before calling again',
				);
			}
			expect(call.error).not.toContain('/api/people');
			expect(call.error).not.toContain('127.0.0.1');
			expect(sandbox.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
		},
	);

	test('mcp: a create processed but answered with broken JSON says to look it up, not that it will fail the same way', async () => {
		sandbox.inject({ malformed: true, afterProcessing: true, count: 1, match: { method: 'POST' } });
		const call = await tool('mcp', CREATE, { firstName: 'Ada', lastName: 'Garbled' });

		expect(call.response).toBeUndefined();
		expect(call.error).toContain('so it processed the request');
		expect(call.error).toContain(
			'It may have been processed: look it up (Get or Get Many) before calling again',
		);
		expect(call.error).not.toContain('will fail the same way');
		expect(sandbox.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
	});

	test('mcp: an update answered 500 every time is sent again (idempotent) and the model is told the same values are safe', async () => {
		sandbox.inject({ status: 500, count: 10, match: { method: 'PUT' } });
		const call = await tool(
			'mcp',
			{
				resource: 'person',
				operation: 'update',
				mappingMode: 'jsonRecord',
				personId: "={{ $fromAI('personId', 'The person to change', 'string') }}",
				requestOptions: { maxAttempts: 2, initialRetryDelay: 10 },
			},
			{ personId: 'p_2', record: { stage: 'Lead' } },
		);

		expect(call.error).toContain('HTTP 500');
		expect(call.error).toContain(
			'The update may already have been applied; sending the same values again is safe',
		);
		expect(call.error).not.toContain('A passing failure');
		expect(sandbox.requests.filter((r) => r.method === 'PUT')).toHaveLength(2);
	});

	test('mcp: an input error says nothing was sent', async () => {
		const call = await tool('mcp', { ...GET_MANY, limit: 'many' as never });
		expect(call.error).toContain('Limit');
		expect(call.error).toContain('Nothing was sent');
		expect(call.error).not.toContain('(item 0)');
		expect(sandbox.requests).toHaveLength(0);
	});

	test.each([
		[
			'Limit',
			{ ...GET_MANY, limit: "={{ $fromAI('howMany', 'How many people', 'string') }}" },
			{ howMany: 'lots' },
			'howMany',
		],
		[
			'Additional Fields › Average Price',
			{
				...CREATE,
				additionalFields: { averagePrice: "={{ $fromAI('price', 'Price', 'string') }}" },
			},
			{ firstName: 'Ada', lastName: 'Price', price: 'cheap' },
			'price',
		],
	])(
		'mcp: an input error in %s names the argument behind it',
		async (label, parameters, args, key) => {
			const call = await tool('mcp', parameters as INodeParameters, args);
			expect(call.error).toContain(`${label}: `);
			expect(call.error).toContain(
				`Nothing was sent: correct the value the message names and call again. The arguments behind that field: ${key}.`,
			);
			expect(sandbox.requests).toHaveLength(0);
		},
	);

	test('a workflow keeps "(item N)" and the request in the description', async () => {
		sandbox.inject({ status: 500, count: 1, match: { method: 'POST' } });
		const result = await runNode({
			parameters: { ...CREATE, firstName: 'Ada', lastName: 'Form' },
			credentials: sandboxCredentials(sandbox),
		});
		expect(result.error?.message).toMatch(/\(item 0\)$/);
		expect(result.error?.description).toContain('POST crm');
	});
});
