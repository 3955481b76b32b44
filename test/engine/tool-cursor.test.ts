/**
 * A model reads a list at its defaults (version 2): Person › Get Many with nothing set, called as a
 * tool, answers one page of 20 people in their simple form within 8,000 characters, and offers the
 * model a `cursor` argument (a parameter of the Tool variant only, whose default is a `$fromAI`):
 * the nextCursor passed back reads the next page, to the end. Both ways n8n runs a tool (the MCP
 * Server Trigger and the AI Agent), through n8n's engine on the sandbox.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { RESOURCES } from '../../nodes/shared/catalogue';
import { runNode } from '../harness/engine';
import { sandboxCredentials, useSandbox } from '../harness/fixtures';
import { callAsTool } from '../harness/tool';
import type { Sandbox } from '../sandbox/server';

/** What a model reads at the defaults, at most (issue 41). */
const MAX_CHARS = 8_000;
const PAGE = 20;
const SEEDED = 45;

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), { people: SEEDED });

const GET_MANY: INodeParameters = { resource: 'person', operation: 'getAll' };
const SIMPLE = (RESOURCES.find((r) => r.value === 'person')?.simple ?? []).map((key) =>
	typeof key === 'string' ? key : key.name,
);

async function tool(via: 'mcp' | 'agent', args: IDataObject, parameters = GET_MANY, version = 2) {
	const call = await callAsTool(
		via,
		{ parameters, credentials: sandboxCredentials(sandbox), typeVersion: version },
		args,
	);
	expect(call.error).toBeUndefined();
	return {
		text: call.response ?? '',
		page: (JSON.parse(call.response ?? '[]') as IDataObject[])[0],
	};
}

const ids = (page: IDataObject) => (page.people as IDataObject[]).map((person) => person.id);
const range = (from: number, to: number) =>
	Array.from({ length: to - from + 1 }, (_, i) => `p_${from + i}`);

describe.each(['mcp', 'agent'] as const)('%s: Person › Get Many at its defaults', (via) => {
	test('20 people in their simple form, within 8,000 characters, and how to go on', async () => {
		const { text, page } = await tool(via, {});

		expect(ids(page)).toEqual(range(1, PAGE));
		expect(text.length).toBeLessThanOrEqual(MAX_CHARS);
		for (const person of page.people as IDataObject[])
			expect(SIMPLE).toEqual(expect.arrayContaining(Object.keys(person)));
		expect(page).toMatchObject({ count: PAGE, done: false });
		expect(page.more).toBe('More records follow: call again with the cursor set to nextCursor.');
		expect(sandbox.requests.filter((r) => r.method === 'GET')).toHaveLength(1);
	});

	test('the cursor passed back reads the next page, to the end', async () => {
		const first = await tool(via, {});
		const second = await tool(via, { cursor: first.page.nextCursor as string });
		const third = await tool(via, { cursor: second.page.nextCursor as string });

		expect(ids(second.page)).toEqual(range(PAGE + 1, 2 * PAGE));
		expect(ids(third.page)).toEqual(range(2 * PAGE + 1, SEEDED));
		expect(third.page).toMatchObject({ done: true, nextCursor: '' });
		expect(third.page).not.toHaveProperty('more');
	});

	test('Page at a Time with a Cursor of the author’s own takes the place of the default one', async () => {
		const parameters = {
			...GET_MANY,
			limit: 5,
			pageAtATime: true,
			cursor: "={{ $fromAI('next', 'nextCursor of the previous call', 'string', '') }}",
		};
		const first = await tool(via, { next: '' }, parameters);
		const second = await tool(via, { next: first.page.nextCursor as string }, parameters);
		expect(ids(second.page)).toEqual(range(6, 10));
	});

	test('version 1 at its defaults is unchanged: no cursor argument, the model is told so', async () => {
		const { page } = await tool(via, {}, GET_MANY, 1);
		expect(ids(page)).toEqual(range(1, PAGE));
		expect(page.more).toContain('this tool cannot page');
		expect((page.people as IDataObject[])[0]).toHaveProperty('tags');
	});
});

test('in a workflow, version 2 at its defaults reads as before: Limit 50, no cursor of the model', async () => {
	const result = await runNode({
		typeVersion: 2,
		parameters: GET_MANY,
		credentials: sandboxCredentials(sandbox),
	});
	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => item.json.id)).toEqual(range(1, SEEDED));
});
