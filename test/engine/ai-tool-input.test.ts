/**
 * What an AI model puts into the node as a tool (issue 32), through n8n's own tool wrapping
 * (test/harness/tool.ts): `mcp` builds the tool's schema from the `$fromAI` calls with n8n-core's
 * getSchema and checks the model's arguments against it (zod) before the node runs, as the MCP Server
 * Trigger does; `agent` runs the node on the arguments as the AI Agent does, without that check, so
 * whatever a model may send reaches the node's own checks. The wire is asserted on the sandbox.
 */
import type { IDataObject, INodeParameters, INodeProperties } from 'n8n-workflow';

import { loadPackage, NODE_TYPE } from '../harness/engine';
import { sandboxCredentials, useSandbox } from '../harness/fixtures';
import { callAsTool, type ToolCall } from '../harness/tool';
import type { Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), { people: 3 });

/**
 * What n8n 2.41's "let the model define this parameter" button writes (editor-ui, fromAIOverride.utils:
 * `$fromAI('<display name, _ for other characters>', \`<description>\`, '<type>')`, the type the
 * parameter's own for boolean, number and json and 'string' for every other), with no description.
 */
function buttonWrites(property: INodeProperties): string {
	const key = property.displayName.replace(/[^a-zA-Z0-9-]/g, '_');
	const type = ['boolean', 'number', 'json'].includes(property.type) ? property.type : 'string';
	return `={{ $fromAI('${key}', \`\`, '${type}') }}`;
}

/** Person › Create's property of a field in Additional Fields, as the built node declares it. */
async function additionalField(name: string): Promise<INodeProperties> {
	const { nodeTypes } = await loadPackage();
	const properties = nodeTypes.getByNameAndVersion(NODE_TYPE).description.properties;
	const group = properties.find(
		(property) =>
			property.name === 'additionalFields' &&
			(property.displayOptions?.show?.resource ?? []).includes('person') &&
			(property.displayOptions?.show?.operation ?? []).includes('create'),
	)!;
	return (group.options as INodeProperties[]).find((option) => option.name === name)!;
}

async function call(
	via: 'mcp' | 'agent',
	parameters: INodeParameters,
	args: IDataObject,
): Promise<ToolCall> {
	return await callAsTool(
		via,
		{ parameters: { resource: 'person', ...parameters }, credentials: sandboxCredentials(sandbox) },
		args,
	);
}

const posted = () =>
	sandbox.requests
		.filter((request) => request.method === 'POST' && request.path === '/api/people')
		.map((request) => request.body);

const CREATE = { operation: 'create', mappingMode: 'defineBelow', lastName: 'Tool' };

describe('an optional number set up with the editor\'s "let the model define" button', () => {
	test('Average Price is text that holds a number, so the button writes a text $fromAI', async () => {
		const property = await additionalField('averagePrice');
		expect(property).toMatchObject({ type: 'string', validateType: 'number', default: '' });
		expect(buttonWrites(property)).toBe("={{ $fromAI('Average_Price', ``, 'string') }}");
	});

	test.each([
		['leaves it empty', '', undefined],
		['gives blanks', '  ', undefined],
		['gives it as text', '450000', 450000],
		['gives a decimal', '1250.5', 1250.5],
	])('a model that %s: %j', async (_what, given, sent) => {
		const property = await additionalField('averagePrice');
		const result = await call(
			'mcp',
			{ ...CREATE, additionalFields: { averagePrice: buttonWrites(property) } },
			{ Average_Price: given },
		);
		expect(result.error).toBeUndefined();
		expect(posted()).toEqual([
			sent === undefined ? { lastName: 'Tool' } : { lastName: 'Tool', averagePrice: sent },
		]);
	});

	test('a model that gives words where a number belongs gets the field named and nothing is sent', async () => {
		const result = await call(
			'mcp',
			{
				...CREATE,
				additionalFields: { averagePrice: buttonWrites(await additionalField('averagePrice')) },
			},
			{ Average_Price: 'about half a million' },
		);
		expect(result.error).toBe(
			'Additional Fields › Average Price: must be a number, got "about half a million"\n\n' +
				'Details: Nothing was sent: correct the value the message names and call again. ' +
				'The arguments behind that field: Average_Price.',
		);
		expect(sandbox.requests).toHaveLength(0);
	});

	test('before: a number-typed $fromAI cannot be left empty (n8n refuses "" and null), which is why a model sent 0', async () => {
		for (const given of ['', null]) {
			const result = await call(
				'mcp',
				{ ...CREATE, additionalFields: { averagePrice: "={{ $fromAI('price', '', 'number') }}" } },
				{ price: given },
			);
			expect(result.error).toContain('Received tool input did not match expected schema');
		}
		expect(sandbox.requests).toHaveLength(0);
	});

	test('a number or boolean whose $fromAI gives nothing (an agent passing null, "" or no key) is not sent', async () => {
		const fromAI = (key: string) => `={{ $fromAI('${key}', '', 'string') }}`;
		const parameters = {
			...CREATE,
			additionalFields: { rating: fromAI('rating'), averageBeds: fromAI('beds') },
		};
		for (const args of [{ rating: null, beds: '' }, {}, { rating: ' ', beds: null }]) {
			const result = await call('agent', parameters, args);
			expect(result.error).toBeUndefined();
		}
		expect(posted()).toEqual([{ lastName: 'Tool' }, { lastName: 'Tool' }, { lastName: 'Tool' }]);
	});
});

/** Map From a JSON Record, left at its default: one `$fromAI('record', …, 'json')`. */
const RECORD_CREATE = { operation: 'create', mappingMode: 'jsonRecord' };

describe('Record (JSON): one $fromAI object carries the whole record', () => {
	test('its default $fromAI describes every field to the model, from the properties the checks use', async () => {
		const { nodeTypes } = await loadPackage();
		const record = nodeTypes
			.getByNameAndVersion(NODE_TYPE)
			.description.properties.find(
				(property) =>
					property.name === 'record' &&
					(property.displayOptions?.show?.operation ?? []).includes('create') &&
					(property.displayOptions?.show?.resource ?? []).includes('person'),
			)!;
		expect(record.default).toMatch(/^=\{\{ \$fromAI\('record', `The record as one JSON object\./);
		expect(record.default).toContain('firstName (text); ');
		expect(record.default).toContain('averagePrice (number); ');
		expect(record.default).toContain('tags (list of text); ');
		expect(record.default).toContain(
			'emails (list of objects with value (text), type (text), status (text), isPrimary (true or false))',
		);
		expect(record.default).toMatch(/, 'json'\) \}\}$/);
	});

	test('a model-shaped create through the MCP path: only what was given, converted and checked, sent once', async () => {
		const result = await call('mcp', RECORD_CREATE, {
			record: {
				firstName: 'Ada',
				averagePrice: '450000',
				averageBeds: '',
				tags: ['vip'],
				emails: [{ value: 'ada@example.test', isPrimary: true }],
			},
		});
		expect(result.error).toBeUndefined();
		expect(posted()).toEqual([
			{
				firstName: 'Ada',
				averagePrice: 450000,
				tags: ['vip'],
				emails: [{ value: 'ada@example.test', isPrimary: true }],
			},
		]);
		expect(JSON.parse(result.response ?? '[]')[0]).toMatchObject({ firstName: 'Ada' });
	});

	test('Person › Update through the MCP path: the ID from its own $fromAI, the fields from the record', async () => {
		const result = await call(
			'mcp',
			{
				operation: 'update',
				mappingMode: 'jsonRecord',
				personId: "={{ $fromAI('personId', 'The person to change', 'string') }}",
			},
			{ personId: 'p_2', record: { stage: 'Lead', rating: 4 } },
		);
		expect(result.error).toBeUndefined();
		const puts = sandbox.requests.filter((request) => request.method === 'PUT');
		expect(puts.map(({ path, body }) => ({ path, body }))).toEqual([
			{ path: '/api/people/p_2', body: { stage: 'Lead', rating: 4 } },
		]);
	});

	// What a model may send that is no good record: each refused before anything is sent, naming what to fix.
	test.each<[string, unknown, string]>([
		[
			'an unknown key (misspelt)',
			{ firstName: 'Ada', avgPrice: 1 },
			'Record (JSON): "avgPrice" is not one of: firstName, lastName, ',
		],
		[
			'a header as a key',
			{ firstName: 'Ada', authorization: 'Bearer stolen' },
			'Record (JSON): "authorization" is not one of: ',
		],
		[
			'__proto__ as a key',
			JSON.parse('{"firstName": "Ada", "__proto__": {"x": 1}}'),
			'"__proto__" is not one of',
		],
		[
			'a wrong type',
			{ firstName: 'Ada', averagePrice: 'cheap' },
			'Record (JSON) › averagePrice: must be a number, got "cheap"',
		],
		[
			'an object where text belongs',
			{ firstName: { given: 'Ada' } },
			'Record (JSON) › firstName: must be text, not an object or a list',
		],
		[
			'one email where a list belongs',
			{ emails: { value: 'ada@example.test' } },
			'Record (JSON) › emails: ',
		],
		[
			'null',
			null,
			'Record (JSON): is required but empty; give a JSON object with some of: firstName, ',
		],
		[
			'a list',
			[{ firstName: 'Ada' }],
			'Record (JSON): must be a JSON object like {"key": "value"}, got a list',
		],
		[
			'no field at all',
			{},
			'Record (JSON): has none of the fields this operation sends (firstName, ',
		],
		['only empty values', { firstName: '', rating: null }, 'Record (JSON): has none of the fields'],
		['text that is not JSON', '{firstName: Ada}', 'Record (JSON): is not valid JSON'],
	])('%s', async (_what, record, error) => {
		const result = await call('agent', RECORD_CREATE, { record } as IDataObject);
		expect(result.error).toContain(error);
		// As a tool the message names no item (actions/router.ts): a model called for one record.
		expect(result.error).not.toMatch(/\(item \d+\)/);
		expect(sandbox.requests).toHaveLength(0);
	});

	test('a required number stays a number parameter, and a record without it is refused before sending', async () => {
		const result = await call(
			'agent',
			{ resource: 'appointmentType', ...RECORD_CREATE },
			{ record: { name: 'Showing', orderWeight: '' } },
		);
		expect(result.error).toBe('Record (JSON) › orderWeight: is required but empty');
		expect(sandbox.requests).toHaveLength(0);
	});

	test('a JSON string instead of an object is read as the object it holds', async () => {
		const result = await call('agent', RECORD_CREATE, {
			record: '{"firstName": "Ada", "averageBeds": "3"}',
		});
		expect(result.error).toBeUndefined();
		expect(posted()).toEqual([{ firstName: 'Ada', averageBeds: 3 }]);
	});

	test('a huge record is refused by its size, and a huge wrong value is named without being repeated whole', async () => {
		const huge = await call('agent', RECORD_CREATE, {
			record: { firstName: 'Ada', companyName: 'x'.repeat(200_000) },
		});
		expect(huge.error).toBe(
			'Record (JSON): is 200036 characters as JSON; at most 100000 are accepted',
		);
		const long = await call('agent', RECORD_CREATE, {
			record: { firstName: 'Ada', averagePrice: '9'.repeat(50) + 'x'.repeat(5_000) },
		});
		expect(long.error).toMatch(
			/^Record \(JSON\) › averagePrice: must be a number, got "9{50}x{49}… \(5052 characters\)$/,
		);
		expect(sandbox.requests).toHaveLength(0);
	});

	test('a secret a model writes into a field is sent as written (a record reaches no header), and its echo is redacted in the answer the model reads', async () => {
		const result = await call('mcp', RECORD_CREATE, { record: { firstName: sandbox.token } });
		expect(result.error).toBeUndefined();
		expect(posted()).toEqual([{ firstName: sandbox.token }]);
		expect(sandbox.requests[0].headers.authorization).toBe(`Bearer ${sandbox.token}`);
		expect(result.response).not.toContain(sandbox.token);
		expect(result.response).toContain('redacted');
	});

	test('through the MCP path, n8n itself refuses a record that is not a non-empty object or list', async () => {
		for (const record of ['{"firstName": "Ada"}', null, {}]) {
			const result = await call('mcp', RECORD_CREATE, { record } as IDataObject);
			expect(result.error).toContain('Received tool input did not match expected schema');
		}
		expect(sandbox.requests).toHaveLength(0);
	});
});

describe('Map Automatically as a tool', () => {
	test('through the MCP path the arguments never reach it (no $fromAI, so n8n strips them all); the agent path hands them over', async () => {
		const result = await call(
			'agent',
			{ operation: 'create', mappingMode: 'autoMapInputData' },
			{ firstName: 'Ada' },
		);
		// The agent path runs the node on the arguments as its input item, so there it works.
		expect(result.error).toBeUndefined();
		const mcp = await call(
			'mcp',
			{ operation: 'create', mappingMode: 'autoMapInputData' },
			{ firstName: 'Ada' },
		);
		expect(mcp.error).toContain(
			'Map Automatically: the input item has none of the fields this operation sends',
		);
		expect(posted()).toEqual([{ firstName: 'Ada' }]);
	});
});
