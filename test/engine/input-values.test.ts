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
