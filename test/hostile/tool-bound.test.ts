/**
 * A service that answers a model's call with huge records (decisions.md, "The node as an AI tool"):
 * the tool's answer stays under TOOL_MAX_CHARS, long texts and lists are cut and said so, and a list's
 * cursor reaches the model whole. In a workflow the same answer comes through unchanged.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness/engine';
import { callAsTool } from '../harness/tool';
import { credentialsFor, sendJson, useHostile } from './server';

const service = useHostile();
const TOOL_MAX_CHARS = 40_000;

const huge = (id: string): IDataObject => ({
	id,
	firstName: 'Ada',
	notes: 'x'.repeat(200_000),
	tags: Array.from({ length: 5_000 }, (_, i) => `tag-${i}`),
});

const GET: INodeParameters = {
	resource: 'person',
	operation: 'get',
	personId: "={{ $fromAI('personId', 'The person ID', 'string') }}",
};

describe('a huge record', () => {
	test.each(['mcp', 'agent'] as const)(
		'%s: Get returns it shortened, under the bound',
		async (via) => {
			service.script((_request, res) => sendJson(res, 200, huge('p_1')));
			const call = await callAsTool(
				via,
				{ parameters: GET, credentials: credentialsFor(service.origin) },
				{ personId: 'p_1' },
			);

			expect(call.error).toBeUndefined();
			expect(call.response!.length).toBeLessThanOrEqual(TOOL_MAX_CHARS);
			const [record] = JSON.parse(call.response!) as IDataObject[];
			expect(record.id).toBe('p_1');
			expect(record.firstName).toBe('Ada');
			expect(record.notes).toMatch(/^x{2000}… \(198000 more characters\)$/);
			expect(record.truncated).toContain('ask for fewer fields');
		},
	);

	test('mcp: a page of huge records keeps its cursor whole', async () => {
		service.script((request, res) => {
			const people = Array.from({ length: 20 }, (_, i) => huge(`p_${i + 1}`));
			sendJson(res, 200, { people, _metadata: { next: 'n'.repeat(3000), total: 500 } });
			void request;
		});
		const call = await callAsTool(
			'mcp',
			{
				parameters: { resource: 'person', operation: 'getAll', returnAll: true },
				credentials: credentialsFor(service.origin),
			},
			{},
		);

		expect(call.error).toBeUndefined();
		expect(call.response!.length).toBeLessThanOrEqual(TOOL_MAX_CHARS);
		const [page] = JSON.parse(call.response!) as IDataObject[];
		expect(page.count).toBe(20);
		expect(page.done).toBe(false);
		expect(String(page.nextCursor)).toMatch(/^isc1\./);
		expect(service.received).toHaveLength(1);
	});

	test('in a workflow the record comes through whole', async () => {
		service.script((_request, res) => sendJson(res, 200, huge('p_1')));
		const result = await runNode({
			parameters: { resource: 'person', operation: 'get', personId: 'p_1' },
			credentials: credentialsFor(service.origin),
		});
		expect(result.items[0].json).toEqual(huge('p_1'));
	});
});

describe('secrets in what a model reads', () => {
	const TOKEN = 'token-123456';

	test('mcp: Fields to Return naming a field that holds the token gets it redacted', async () => {
		service.script((_request, res) =>
			sendJson(res, 200, { id: 'p_1', note: `the key is ${TOKEN}`, password: TOKEN }),
		);
		const call = await callAsTool(
			'mcp',
			{
				parameters: { ...GET, output: { fields: 'note, password, accessToken' } },
				credentials: credentialsFor(service.origin),
			},
			{ personId: 'p_1' },
		);

		expect(call.response).not.toContain(TOKEN);
		expect(JSON.parse(call.response!)).toEqual([
			{ note: 'the key is [redacted]', password: '[redacted]' },
		]);
	});

	test('mcp: an error whose text echoes the token reads the next step, not the token or the URL', async () => {
		service.script((_request, res) =>
			sendJson(res, 400, { error: `lastName is required (you sent ${TOKEN})` }),
		);
		const call = await callAsTool(
			'mcp',
			{
				parameters: {
					resource: 'person',
					operation: 'create',
					mappingMode: 'defineBelow',
					firstName: "={{ $fromAI('firstName', 'The first name', 'string') }}",
				},
				credentials: credentialsFor(service.origin),
			},
			{ firstName: 'Ada' },
		);

		expect(call.error).toContain('lastName is required (you sent [redacted])');
		expect(call.error).toContain(
			'The service refused the values sent: correct what the message names and call again.',
		);
		expect(call.error).not.toContain(TOKEN);
		expect(call.error).not.toContain(service.origin);
		expect(call.error).not.toContain('(item 0)');
	});
});

describe("the host's URL is not told to a model", () => {
	const scripts: Array<[string, (origin: string) => Parameters<typeof service.script>[0], string]> =
		[
			[
				'a redirect to the host (the node names its target)',
				(origin) => (_request, res) => {
					res.writeHead(302, { Location: `${origin}/login?next=/api/people/p_1` });
					res.end();
				},
				'The service answered with a redirect (HTTP 302) to the CRM host; redirects are not followed',
			],
			[
				"a 400 whose text names the host's URL",
				(origin) => (_request, res) =>
					sendJson(res, 400, { error: `see ${origin}/docs/people for the fields` }),
				'see the CRM host/docs/people for the fields',
			],
			[
				"an HTML 500 whose title names the host's URL",
				(origin) => (_request, res) => {
					const page = `<html><head><title>Error at ${origin}/api/people</title></head><body>down</body></html>`;
					res.writeHead(500, { 'Content-Type': 'text/html' });
					res.end(page);
				},
				'Error at the CRM host/api/people',
			],
		];

	test.each(scripts)('mcp: %s', async (_name, script, expected) => {
		service.script(script(service.origin));
		const call = await callAsTool(
			'mcp',
			{
				parameters: { ...GET, requestOptions: { maxAttempts: 1 } },
				credentials: credentialsFor(service.origin),
			},
			{ personId: 'p_1' },
		);

		expect(call.error).toContain(expected);
		const { host } = new URL(service.origin);
		expect(call.error).not.toContain(host);
	});

	test('a workflow keeps the URL in its message', async () => {
		service.script(scripts[1][1](service.origin));
		const result = await runNode({
			parameters: { ...GET, personId: 'p_1', requestOptions: { maxAttempts: 1 } },
			credentials: credentialsFor(service.origin),
		});
		expect(result.error?.message).toContain(`see ${service.origin}/docs/people`);
	});
});
