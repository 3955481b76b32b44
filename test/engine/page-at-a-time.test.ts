/**
 * Page at a Time through n8n's real engine against the sandbox: Person › Get Many and Custom API Call's
 * GET return one batch as one item with the cursor of the next; batches put together are the list, each
 * record once, in every paging style; a bad cursor is an input error with nothing sent.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness/engine';
import {
	expectInputError,
	operationRunner,
	sandboxCredentials,
	useSandbox,
} from '../harness/fixtures';
import { LOANS } from '../sandbox/routes';
import type { PagingStyle, Sandbox } from '../sandbox/server';

const SEEDED = 120;

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), { people: SEEDED });
const getPeople = operationRunner(() => sandbox, 'person', 'getAll');
const send = operationRunner(() => sandbox, 'customApiCall', 'send');

/** Runs batches (one node run each, as a loop with a sub-workflow per batch would) until done. */
async function exportAll(
	run: (cursor: string) => ReturnType<typeof getPeople>,
	key: string,
	maxBatches = 20,
) {
	const batches: IDataObject[] = [];
	let cursor = '';
	for (let i = 0; i < maxBatches; i++) {
		const result = await run(cursor);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		const batch = result.items[0].json;
		expect(Object.keys(batch).sort()).toEqual(['count', 'done', 'nextCursor', key].sort());
		expect(batch.count).toBe((batch[key] as unknown[]).length);
		batches.push(batch);
		if (batch.done === true) {
			expect(batch.nextCursor).toBe('');
			return batches;
		}
		expect(batch.nextCursor).toMatch(/^isc1\.[A-Za-z0-9_-]+$/);
		cursor = batch.nextCursor as string;
	}
	throw new Error(`not done after ${maxBatches} batches`);
}

const idsOf = (batches: IDataObject[], key: string) =>
	batches.flatMap((batch) => (batch[key] as IDataObject[]).map((record) => record.id));
const peopleIds = (count: number) => Array.from({ length: count }, (_v, i) => `p_${i + 1}`);

describe('Person › Get Many, Page at a Time', () => {
	test.each<PagingStyle>(['offset', 'next', 'nextLink'])(
		'%s paging: batches of 35 over pages of 50 are every person once, in order',
		async (style) => {
			sandbox.setPaging(style);
			const batches = await exportAll(
				async (cursor) =>
					await getPeople({
						parameters: { limit: 35, pageAtATime: true, cursor, options: { pageSize: 50 } },
					}),
				'people',
			);
			expect(batches.map((batch) => batch.count)).toEqual([35, 35, 35, 15]);
			expect(idsOf(batches, 'people')).toEqual(peopleIds(SEEDED));
			// Simplify applies to every person of a batch.
			for (const batch of batches)
				for (const person of batch.people as IDataObject[])
					expect(person).not.toHaveProperty('original');
			expect(
				sandbox.requests.every(
					(request) =>
						request.method === 'GET' && request.path === '/api/people' && request.status === 200,
				),
			).toBe(true);
			// Each batch asks for no more than it returns: 35 at most per request, fewer for a batch's rest.
			for (const request of sandbox.requests)
				expect(Number(request.query.limit ?? 35)).toBeLessThanOrEqual(35);
		},
	);

	test('offset paging goes on at the exact offset, one request per batch', async () => {
		sandbox.setPaging('offset');
		await exportAll(
			async (cursor) => await getPeople({ parameters: { limit: 50, pageAtATime: true, cursor } }),
			'people',
		);
		expect(sandbox.requests.map((request) => request.query)).toEqual([
			{ limit: '50', offset: '0' },
			{ limit: '50', offset: '50' },
			{ limit: '50', offset: '100' },
		]);
	});

	test('one batch per input item, each with its own cursor and paired with its item', async () => {
		sandbox.setPaging('offset');
		const first = await getPeople({ parameters: { limit: 10, pageAtATime: true, cursor: '' } });
		const cursor = first.items[0].json.nextCursor as string;
		sandbox.reset();
		const result = await getPeople({
			parameters: { limit: 10, pageAtATime: true, cursor: '={{ $json.cursor }}' },
			items: [{ cursor: '' }, { cursor }],
		});
		expect(result.error).toBeUndefined();
		expect(
			result.items.map((item) => (item.json.people as IDataObject[]).map((person) => person.id)),
		).toEqual([peopleIds(10), peopleIds(20).slice(10)]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	test('off, Get Many is unchanged: one item per person', async () => {
		const result = await getPeople({ parameters: { limit: 5, cursor: 'ignored when off' } });
		expect(result.items.map((item) => item.json.id)).toEqual(peopleIds(5));
	});

	test.each([
		[
			'text that is no cursor',
			'next page please',
			'is not a cursor this operation gave; pass the nextCursor of the previous batch, or leave it empty to start',
		],
		[
			'a cursor of another list',
			'OTHER',
			'was given for another list (a different host URL, path, Query Parameters or Connection ID); leave it empty to start this list',
		],
	])(
		'%s is an input error naming the item and Cursor, with nothing sent',
		async (_what, given, problem) => {
			let cursor = given;
			if (given === 'OTHER') {
				const other = await send({
					parameters: { host: 'los', method: 'GET', path: 'loans', limit: 10, pageAtATime: true },
				});
				cursor = other.items[0].json.nextCursor as string;
				sandbox.reset();
			}
			const result = await getPeople({ parameters: { limit: 10, pageAtATime: true, cursor } });
			expectInputError(sandbox, result, `Cursor: ${problem} (item 0)`);
		},
	);

	/** A cursor of the sandbox's people list (nextLink paging) whose link is replaced by `link`. */
	async function forgedLinkCursor(link: (crm: string) => string): Promise<string> {
		sandbox.setPaging('nextLink');
		const first = await getPeople({ parameters: { limit: 10, pageAtATime: true } });
		const cursor = first.items[0].json.nextCursor as string;
		const position = JSON.parse(
			Buffer.from(cursor.slice(5), 'base64url').toString(),
		) as IDataObject;
		sandbox.reset();
		const forged = { ...position, at: { link: link(sandbox.urls.crm) } };
		return `isc1.${Buffer.from(JSON.stringify(forged)).toString('base64url')}`;
	}

	test('a cursor that names another origin is refused before anything is sent', async () => {
		const cursor = await forgedLinkCursor(() => 'http://127.0.0.2:9/api/people?next=x');
		const result = await getPeople({ parameters: { limit: 10, pageAtATime: true, cursor } });
		expect(result.error?.message).toBe(
			'Cursor: names a page on another origin (http://127.0.0.2:9); it is not followed with your token (item 0)',
		);
		expect(sandbox.requests).toHaveLength(0);
	});

	test.each([
		['/api/credentials', 'its path is not /api/people'],
		['/admin/wipe?confirm=yes', 'its path is not /api/people'],
		['/api/people/%2e%2e/%2e%2e/internal', 'it has a "." or ".." segment'],
		['/api/people/%2E%2e/people?limit=10', 'it has a "." or ".." segment'],
	])(
		'a forged cursor naming %s on the CRM origin is refused before anything is sent',
		async (path, why) => {
			const cursor = await forgedLinkCursor((crm) => `${crm}${path}`);
			expectInputError(
				sandbox,
				await getPeople({ parameters: { limit: 10, pageAtATime: true, cursor } }),
				`Cursor: names a page of another list (${why}); it is not followed (item 0)`,
			);
		},
	);

	const anotherList =
		'Cursor: was given for another list (a different host URL, path, Query Parameters or Connection ID); leave it empty to start this list (item 0)';

	test("a cursor made for one Default Credential ID is refused after the credential's changed", async () => {
		// The sandbox's two connections stand for def-A and def-B.
		sandbox.setPaging('offset');
		const first = await runNode({
			parameters: {
				resource: 'person',
				operation: 'getAll',
				limit: 10,
				pageAtATime: true,
			} as INodeParameters,
			credentials: sandboxCredentials(sandbox, { credentialId: 'cred-default' }),
		});
		const cursor = first.items[0].json.nextCursor as string;
		expect(cursor).toMatch(/^isc1\./);
		sandbox.reset();
		const changed = await runNode({
			parameters: {
				resource: 'person',
				operation: 'getAll',
				limit: 10,
				pageAtATime: true,
				cursor,
			} as INodeParameters,
			credentials: sandboxCredentials(sandbox, { credentialId: 'cred-other' }),
		});
		expectInputError(sandbox, changed, anotherList);
	});

	test('a cursor is refused on another host URL; the same Connection ID given on the node is the same list', async () => {
		sandbox.setPaging('offset');
		const first = await getPeople({ parameters: { limit: 10, pageAtATime: true } });
		const cursor = first.items[0].json.nextCursor as string;
		sandbox.reset();
		const moved = await runNode({
			parameters: {
				resource: 'person',
				operation: 'getAll',
				limit: 10,
				pageAtATime: true,
				cursor,
			} as INodeParameters,
			credentials: sandboxCredentials(sandbox, { crmUrl: 'http://127.0.0.2:9' }),
		});
		expect(moved.error?.message).toBe(anotherList);
		expect(sandbox.requests).toHaveLength(0);
		const defaultId = sandboxCredentials(sandbox).credentialId as string;
		const same = await getPeople({
			parameters: { limit: 10, pageAtATime: true, cursor, credentialId: defaultId },
		});
		expect(same.error).toBeUndefined();
		expect((same.items[0].json.people as IDataObject[]).map((p) => p.id)).toEqual(
			peopleIds(20).slice(10),
		);
	});
});

describe('Custom API Call, GET with Page at a Time', () => {
	test.each<PagingStyle>(['offset', 'next', 'nextLink'])(
		'%s paging: the loans in batches of 100, each once',
		async (style) => {
			sandbox.setPaging(style);
			const batches = await exportAll(
				async (cursor) =>
					await send({
						parameters: {
							host: 'los',
							method: 'GET',
							path: 'loans',
							limit: 100,
							pageAtATime: true,
							cursor,
						},
					}),
				'records',
			);
			expect(batches.map((batch) => batch.count)).toEqual([100, 100, 30]);
			expect(idsOf(batches, 'records')).toEqual(
				Array.from({ length: LOANS }, (_v, i) => `loan-${i + 1}`),
			);
			expect(
				sandbox.requests.every(
					(request) => request.host === 'los' && request.path === '/api/loans',
				),
			).toBe(true);
		},
	);
});
