/**
 * Get Many's Filters on the wire, on two entities: applied while paging, a Limit stops once it has
 * that many matching records, Page at a Time's batches are exact (no record skipped or repeated) in
 * every paging style, and a bad condition is refused before anything is sent.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness/engine';
import { sandboxCredentials, useSandbox } from '../harness/fixtures';
import type { PagingStyle, Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), { people: 120 });

async function run(parameters: INodeParameters) {
	return await runNode({ parameters, credentials: sandboxCredentials(sandbox) });
}
const condition = (field: string, operator: string, value = ''): INodeParameters => ({
	field,
	operator,
	value,
});
const filters = (...conditions: INodeParameters[]): INodeParameters => ({ conditions });

const people = () => sandbox.people();
const stageOf = (n: number) => people()[n].stage as string;

describe('Filters on Person › Get Many', () => {
	test('a Limit stops after the page that brings its last matching person', async () => {
		const stage = stageOf(0);
		const matching = people().filter((p) => p.stage === stage);
		// The fifth match's page: the list is not read further.
		const at = people().findIndex((p) => p.id === matching[4].id);
		const result = await run({
			resource: 'person',
			operation: 'getAll',
			limit: 5,
			filters: filters(condition('stage', 'equals', stage.toUpperCase())),
			options: { pageSize: 10 },
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.json.id)).toEqual(matching.slice(0, 5).map((p) => p.id));
		expect(sandbox.requests).toHaveLength(Math.floor(at / 10) + 1);
		expect(sandbox.requests.every((r) => r.query.limit === '10')).toBe(true);
	});

	test('Return All keeps every matching person; conditions all hold; Created reads createdAt too', async () => {
		const stage = stageOf(0);
		const result = await run({
			resource: 'person',
			operation: 'getAll',
			returnAll: true,
			filters: filters(
				condition('stage', 'equals', stage),
				condition('emails', 'contains', '@EXAMPLE.test'),
				condition('created', 'onOrAfter', '2000-01-01'),
			),
		});
		const expected = people().filter((p) => p.stage === stage);
		expect(result.items.map((i) => i.json.id)).toEqual(expected.map((p) => p.id));
		expect(sandbox.requests).toHaveLength(2);
	});

	test.each<PagingStyle>(['offset', 'next', 'nextLink'])(
		'%s paging: Page at a Time batches are exact, each at most Limit matches',
		async (style) => {
			sandbox.setPaging(style);
			const stage = stageOf(0);
			const expected = people()
				.filter((p) => p.stage === stage)
				.map((p) => p.id);
			const seen: unknown[] = [];
			let cursor = '';
			for (let batch = 0; batch < 50; batch++) {
				const result = await run({
					resource: 'person',
					operation: 'getAll',
					limit: 7,
					pageAtATime: true,
					cursor,
					filters: filters(condition('stage', 'equals', stage)),
					options: { pageSize: 25 },
				});
				expect(result.error).toBeUndefined();
				const [page] = result.items.map((i) => i.json);
				expect((page.people as IDataObject[]).length).toBeLessThanOrEqual(7);
				seen.push(...(page.people as IDataObject[]).map((p) => p.id));
				if (page.done) break;
				cursor = page.nextCursor as string;
			}
			expect(seen).toEqual(expected);
		},
	);

	test('a condition that cannot be used is refused, naming it, before anything is sent', async () => {
		const result = await run({
			resource: 'person',
			operation: 'getAll',
			filters: filters(
				condition('stage', 'equals', 'Lead'),
				condition('created', 'onOrAfter', 'soon'),
			),
		});
		expect(result.error?.message).toMatch(
			/^Filters › Condition 2 on "created": "soon" is not a date/,
		);
		expect(sandbox.requests).toHaveLength(0);
	});
});

describe('Filters on Note › Get Many', () => {
	test('a Limit stops as soon as it has its matching note: one page of one note at a time', async () => {
		const result = await run({
			resource: 'note',
			operation: 'getAll',
			limit: 1,
			filters: filters(condition('subject', 'contains', 'back 2')),
			options: { pageSize: 1 },
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.json.subject)).toEqual(['Call back 2']);
		expect(sandbox.requests.map((r) => r.query.offset ?? r.query.next)).toHaveLength(2);
	});

	test('no match: nothing out, the whole list read once', async () => {
		const result = await run({
			resource: 'note',
			operation: 'getAll',
			returnAll: true,
			filters: filters(condition('isHtml', 'equals', 'true')),
		});
		expect(result.items).toEqual([]);
		expect(sandbox.requests).toHaveLength(1);
	});
});
