/**
 * What a single value or a whole body may be (decisions.md, "The mapper never makes a value up"):
 * only plain decimal text becomes a number; a Create whose body ends up empty is refused; a required
 * JSON field left `{}` or `[]` is required but empty. Through n8n's engine against the sandbox: the
 * exact message, and nothing sent.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	sandboxCredentials,
	expectInputError,
	operationRunner,
	useSandbox,
} from '../harness/fixtures';
import { callAsTool } from '../harness/tool';
import type { Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), { people: 2 });

const run = (
	resource: string,
	operation: string,
	parameters: INodeParameters,
	items?: IDataObject[],
) =>
	operationRunner(() => sandbox, resource, operation)({ parameters, ...(items ? { items } : {}) });

describe('only plain decimal text becomes a number', () => {
	test.each(['0x10', '0b101', '0o17', '1_000', ' 0X1F '])(
		'%j is refused, from the form and from a record',
		async (text) => {
			const form = await run(
				'person',
				'create',
				{
					lastName: 'L',
					additionalFields: { averagePrice: '={{ $json.v }}' },
				},
				[{ v: text }],
			);
			expectInputError(
				sandbox,
				form,
				`Additional Fields › Average Price: must be a number, got ${JSON.stringify(text)} (item 0)`,
			);
			const record = await run(
				'person',
				'create',
				{ mappingMode: 'jsonRecord', record: '={{ $json.r }}' },
				[{ r: { lastName: 'L', rating: text } }],
			);
			expectInputError(
				sandbox,
				record,
				`Record (JSON) › rating: must be a number, got ${JSON.stringify(text)} (item 0)`,
			);
		},
	);

	test('as a tool (MCP): a hex text in the record is refused', async () => {
		const result = await callAsTool(
			'mcp',
			{
				parameters: { resource: 'person', operation: 'create', mappingMode: 'jsonRecord' },
				credentials: sandboxCredentials(sandbox),
			},
			{ record: { lastName: 'L', averageBeds: '0x10' } },
		);
		expect(result.error?.split('\n')[0]).toBe(
			'Record (JSON) › averageBeds: must be a number, got "0x10"',
		);
		expect(sandbox.requests).toHaveLength(0);
	});

	test('decimal text with a sign, a dot, an exponent and blanks around is the number it says', async () => {
		const result = await run('person', 'create', { mappingMode: 'autoMapInputData' }, [
			{ lastName: 'L', averagePrice: ' +4.5e5 ', averageBeds: '.5', rating: '-3' },
		]);
		expect(result.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.body)).toEqual([
			{ lastName: 'L', averagePrice: 450000, averageBeds: 0.5, rating: -3 },
		]);
	});
});

describe('numbers are sent exactly or refused, never rounded (issue 39, finding 3)', () => {
	const BEYOND = 'is beyond ±9007199254740991, where a number loses digits; it is not sent rounded';
	const DIGITS =
		'has more digits than a number holds exactly (15 significant digits always fit); it is not sent rounded';
	const smartList = {
		name: 'Hot',
		conditions: { values: [{ group: 1, fld: 'stage', opr: 'is', val: 'x' }] },
	};

	test.each([
		['12345678901234567890', BEYOND],
		['9007199254740993', BEYOND],
		['0.1000000000000000000001', DIGITS],
	])(
		'%j is refused naming the field, never echoed: Record (JSON), a form field, a (JSON) companion',
		async (text, problem) => {
			const results = [
				[
					await run('person', 'create', {
						mappingMode: 'jsonRecord',
						record: JSON.stringify({ lastName: 'L', rating: text }),
					}),
					`Record (JSON) › rating: ${problem} (item 0)`,
				],
				[
					await run(
						'person',
						'create',
						{ lastName: 'L', additionalFields: { averagePrice: '={{ $json.v }}' } },
						[{ v: text }],
					),
					`Additional Fields › Average Price: ${problem} (item 0)`,
				],
				[
					await run('smartList', 'create', {
						...smartList,
						additionalFields: {
							columnsJson: JSON.stringify([{ name: 'Name', enabled: true, width: text }]),
						},
					}),
					`Additional Fields › Columns (JSON) › entry 1 › Width: ${problem} (item 0)`,
				],
			] as const;
			for (const [result, message] of results) {
				expectInputError(sandbox, result, message);
				const { message: shown, description } = result.error as {
					message: string;
					description?: string;
				};
				expect(`${shown} ${description ?? ''}`).not.toContain(text);
			}
		},
	);

	test('a JSON number beyond ±(2^53 − 1) is refused too: JSON.parse has already rounded it', async () => {
		const typed = await run('person', 'create', {
			mappingMode: 'jsonRecord',
			record: '{"lastName": "L", "rating": 9007199254740993}',
		});
		expectInputError(sandbox, typed, `Record (JSON) › rating: ${BEYOND} (item 0)`);
		const mapped = await run(
			'person',
			'create',
			{ mappingMode: 'jsonRecord', record: '={{ $json.r }}' },
			// What JSON.parse makes of 12345678901234567890 in an input row: 12345678901234567000.
			[{ r: { lastName: 'L', averageBeds: JSON.parse('12345678901234567890') as number } }],
		);
		expectInputError(sandbox, mapped, `Record (JSON) › averageBeds: ${BEYOND} (item 0)`);
	});

	test('numbers that survive go through unchanged, as text or as numbers', async () => {
		const records = [
			{ lastName: 'A', rating: '42', averagePrice: '3.5', averageBeds: '1e3' },
			{ lastName: 'B', rating: '-0', averagePrice: '0.1', averageBeds: ' +0012.50 ' },
			{
				lastName: 'C',
				rating: '9007199254740991',
				averagePrice: 0.1,
				averageBeds: -9007199254740991,
			},
		];
		const result = await run(
			'person',
			'create',
			// One at a time, so the requests come in the items' order at any speed.
			{
				mappingMode: 'jsonRecord',
				record: '={{ $json.r }}',
				requestOptions: { concurrency: 1 },
			},
			records.map((r) => ({ r })),
		);
		expect(result.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.body)).toEqual([
			{ lastName: 'A', rating: 42, averagePrice: 3.5, averageBeds: 1000 },
			{ lastName: 'B', rating: 0, averagePrice: 0.1, averageBeds: 12.5 },
			{
				lastName: 'C',
				rating: 9007199254740991,
				averagePrice: 0.1,
				averageBeds: -9007199254740991,
			},
		]);
	});
});

describe('a JSON number beyond ±(2^53 − 1) in a text, ID, list or JSON field is refused, never sent rounded (outside attack)', () => {
	const LOSSY =
		'a number beyond ±9007199254740991, where a number loses digits; it is not sent rounded (give it as text)';

	test.each([
		[
			'Note › Create: a model gives Person ID as a number (Record (JSON))',
			'note',
			'create',
			{ mappingMode: 'jsonRecord', record: '{"personId": 9007199254740993, "body": "hello"}' },
			`Record (JSON) › personId: is ${LOSSY} (item 0)`,
		],
		[
			'Borrower › Update: Bio as JSON text',
			'borrower',
			'update',
			{ borrowerId: 'b-1', updateFields: { bio: '{"acct": 12345678901234567890}' } },
			`Update Fields › Bio: holds at acct ${LOSSY} (item 0)`,
		],
		[
			'Custom Field › Create: the Body, nested in a list',
			'customField',
			'create',
			{ jsonBody: '{"label": "Max", "choices": [{"max": 12345678901234567890}]}' },
			`Body (JSON): holds at choices[0].max ${LOSSY} (item 0)`,
		],
		[
			'CRM Webhook › Create: Filters',
			'crmWebhook',
			'create',
			{
				url: 'https://example.com/hooks',
				event: 'peopleCreated',
				additionalFields: { filters: '{"minPrice": 9007199254740993}' },
			},
			`Additional Fields › Filters: holds at minPrice ${LOSSY} (item 0)`,
		],
		[
			'Person › Add Tags: a tag from an expression that is a number',
			'person',
			'addTags',
			{ personId: 'p_1', tags: '={{ [12345678901234567890] }}' },
			`Tags › entry 1: is ${LOSSY} (item 0)`,
		],
		[
			'Custom API Call: a query value from an expression',
			'customApiCall',
			'send',
			{
				host: 'crm',
				method: 'DELETE',
				path: 'people',
				queryParameters: { parameters: [{ name: 'id', value: '={{ 12345678901234567890 }}' }] },
			},
			`Query Parameters › id: is ${LOSSY} (item 0)`,
		],
		[
			'Person › Get Many: a query value from an expression',
			'person',
			'getAll',
			{
				limit: 5,
				options: {
					queryParameters: {
						parameters: [{ name: 'assignedUserId', value: '={{ 12345678901234567890 }}' }],
					},
				},
			},
			`Options › Query Parameters › assignedUserId: is ${LOSSY} (item 0)`,
		],
	])('%s', async (_case, resource, operation, parameters, message) => {
		expectInputError(sandbox, await run(resource, operation, parameters), message);
	});

	test('the largest exact number in a JSON field is sent as it is', async () => {
		const result = await run('borrower', 'update', {
			borrowerId: 'b-1',
			updateFields: { bio: '{"acct": 9007199254740991, "ratio": 0.1}' },
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests[0]?.body).toEqual({ bio: { acct: 9007199254740991, ratio: 0.1 } });
	});
});

describe('list entries are sent as given; only comma text and blank entries are read (issue 39, finding 4)', () => {
	test('Add Tags sends " padded " padded; a blank entry is not sent', async () => {
		const result = await run('person', 'addTags', {
			personId: 'p_1',
			tags: [' padded ', 'vip', '  '],
			credentialId: 'cred-default',
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0]).toMatchObject({
			method: 'POST',
			url: '/api/people/p_1/tags/apply',
			body: { tags: [' padded ', 'vip'] },
		});
	});

	test('Person › Create: tags and contact types of a record as given, comma text split at its commas, an email without blanks around', async () => {
		const result = await run(
			'person',
			'create',
			{ mappingMode: 'jsonRecord', record: '={{ $json.r }}' },
			[
				{
					r: {
						lastName: 'L',
						tags: [' padded ', 'a b'],
						contactTypes: ' lead , client',
						emails: [{ value: ' ann@example.test ' }],
					},
				},
			],
		);
		expect(result.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.body)).toEqual([
			{
				lastName: 'L',
				tags: [' padded ', 'a b'],
				contactTypes: ['lead', 'client'],
				emails: [{ value: 'ann@example.test' }],
			},
		]);
	});
});

describe('a Create whose body ends up empty is refused before sending', () => {
	test.each<[string, INodeParameters, IDataObject[] | undefined]>([
		[
			'a name from an expression that gives ""',
			{ additionalFields: { name: '={{ $json.n }}' } },
			[{ n: '' }],
		],
		['no field added', { additionalFields: {} }, undefined],
		[
			'only Emails (JSON) [] from an expression',
			{ additionalFields: { emailsJson: '={{ [] }}' } },
			undefined,
		],
		[
			'only empty values',
			{ additionalFields: { emails: { values: [] }, phonesJson: '[]', taxId: '' } },
			undefined,
		],
	])('Borrower › Create: %s', async (_case, parameters, items) => {
		expectInputError(
			sandbox,
			await run('borrower', 'create', parameters, items),
			'Additional Fields: set at least one field; an empty record is not created (item 0)',
		);
	});

	test('Borrower › Update with only Bio {}, and Map Automatically or a record with only [] and blanks, change nothing: refused', async () => {
		expectInputError(
			sandbox,
			await run('borrower', 'update', { borrowerId: 'b-1', updateFields: { bio: '{}' } }),
			'Update Fields: add at least one field (item 0)',
		);
		const mapped = await run('borrower', 'create', { mappingMode: 'autoMapInputData' }, [
			{ name: null, emails: [] },
		]);
		expect(mapped.error?.message).toMatch(
			/^Map Automatically: the input item has none of the fields/,
		);
		const record = await run('borrower', 'create', {
			mappingMode: 'jsonRecord',
			record: '{"name": null, "emails": []}',
		});
		expect(record.error?.message).toMatch(/^Record \(JSON\): has none of the fields/);
		expect(sandbox.requests).toHaveLength(0);
	});

	test('every Create of the catalogue with a form: one set field is enough, none is refused', async () => {
		const loan = await run('loan', 'create', { additionalFields: {} });
		expectInputError(
			sandbox,
			loan,
			'Additional Fields: set at least one field; an empty record is not created (item 0)',
		);
		const event = await run('event', 'create', { additionalFields: { type: 'Registration' } });
		expect(event.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.body)).toEqual([{ type: 'Registration' }]);
	});
});

describe('a required JSON field left {} or [] is required but empty', () => {
	const EMAIL = {
		subject: 's',
		body: 'b',
		recipients: { values: [{ name: 'Bo', email: 'bo@example.test' }] },
	};
	test('Email Message › Create: Sender at its default {}', async () => {
		expectInputError(
			sandbox,
			await run('emailMessage', 'create', { ...EMAIL, sender: '{}' }),
			'Sender: is required but empty; give a JSON object such as {"key": "value"} (item 0)',
		);
	});

	test('Sender {} from an expression, and in a record', async () => {
		expectInputError(
			sandbox,
			await run('emailMessage', 'create', { ...EMAIL, sender: '={{ $json.s }}' }, [{ s: {} }]),
			'Sender: is required but empty; give a JSON object such as {"key": "value"} (item 0)',
		);
		expectInputError(
			sandbox,
			await run('emailMessage', 'create', { mappingMode: 'jsonRecord', record: '={{ $json.r }}' }, [
				{
					r: {
						subject: 's',
						body: 'b',
						recipients: [{ name: 'Bo', email: 'bo@example.test' }],
						sender: {},
					},
				},
			]),
			'Record (JSON) › sender: is required but empty; give a JSON object such as {"key": "value"} (item 0)',
		);
	});

	test('Custom Field › Create: Body (JSON) left at {}', async () => {
		expectInputError(
			sandbox,
			await run('customField', 'create', { jsonBody: '{}' }),
			'Body (JSON): is required but empty; give a JSON object such as {"key": "value"} (item 0)',
		);
	});
});
