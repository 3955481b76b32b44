/**
 * Lists of objects as `values` collections (issue 30's convention) and their "<Name> (JSON)"
 * companions (decisions.md, "A list of objects as one value"): an email message's recipients, a
 * smart list's columns and conditions, Person's emails. Through n8n's engine against the sandbox,
 * asserting the wire and the output; every hostile row of the threat list is refused before anything
 * is sent, and its error never carries the token.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { expectRequest, operationRunner, useSandbox } from '../harness/fixtures';
import type { Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), { people: 2 });

const email = (parameters: INodeParameters, items?: IDataObject[]) =>
	operationRunner(
		() => sandbox,
		'emailMessage',
		'create',
	)({
		parameters: {
			subject: 'Offer',
			body: 'See attached',
			sender: '{"name": "Ann", "email": "ann@example.test"}',
			...parameters,
		},
		...(items ? { items } : {}),
	});
const SENT = {
	subject: 'Offer',
	body: 'See attached',
	sender: { name: 'Ann', email: 'ann@example.test' },
};
const BO = { name: 'Bo', email: 'bo@example.test' };
const CY = { name: 'Cy', email: 'cy@example.test' };

function expectCreated(recipients: unknown) {
	expect(sandbox.requests).toHaveLength(1);
	expectRequest(sandbox, sandbox.requests[0], {
		host: 'crm',
		method: 'POST',
		url: '/api/emailMessages',
		credentialId: 'cred-default',
		body: { ...SENT, recipients },
		status: 201,
	});
}

describe('Email Message › Create: Recipients', () => {
	test('two entries of the collection are sent as a list of objects, the record is the output', async () => {
		const result = await email({ recipients: { values: [BO, CY] } });
		expect(result.error).toBeUndefined();
		expectCreated([BO, CY]);
		expect(result.items).toEqual([
			{ json: expect.objectContaining({ ...SENT, recipients: [BO, CY] }), pairedItem: { item: 0 } },
		]);
	});

	test('Recipients (JSON) from an expression giving the whole list is sent, checked', async () => {
		const result = await email({ recipientsJson: '={{ $json.to }}' }, [{ to: [BO, CY] }]);
		expect(result.error).toBeUndefined();
		expectCreated([BO, CY]);
	});

	test('Recipients (JSON) as typed JSON text; an empty one leaves the entries in charge', async () => {
		const typed = await email({ recipientsJson: JSON.stringify([CY]) });
		expect(typed.error).toBeUndefined();
		const emptyExpression = await email({
			recipients: { values: [BO] },
			recipientsJson: "={{ '' }}",
		});
		expect(emptyExpression.error).toBeUndefined();
		expect(sandbox.requests.map((request) => (request.body as IDataObject).recipients)).toEqual([
			[CY],
			[BO],
		]);
	});

	test("Map Automatically: the input item's recipients list is sent as it is, checked", async () => {
		const row = { ...SENT, recipients: [BO] };
		const result = await email({ mappingMode: 'autoMapInputData' }, [row]);
		expect(result.error).toBeUndefined();
		expectCreated([BO]);
		const bad = await email({ mappingMode: 'autoMapInputData' }, [
			{ ...SENT, recipients: [{ name: 'Bo' }] },
		]);
		expect(bad.error?.message).toBe(
			'Input Field "recipients" › entry 1 › Email: is required but empty (item 0)',
		);
		expect(sandbox.requests).toHaveLength(1);
	});
});

describe('a JSON-shaped field as one value', () => {
	test('Sender from an expression giving an object; Shared With empty from an expression is not sent', async () => {
		const result = await email({ sender: '={{ $json.from }}', recipients: { values: [BO] } }, [
			{ from: { name: 'Ann', email: 'ann@example.test' } },
		]);
		expect(result.error).toBeUndefined();
		expectCreated([BO]);
		const smartList = await operationRunner(
			() => sandbox,
			'smartList',
			'create',
		)({
			parameters: {
				name: 'Hot',
				conditionsJson: '[[{"fld": "stage", "opr": "is", "num": null, "unit": "", "val": "Lead"}]]',
				additionalFields: { sharedWith: "={{ '' }}" },
			},
		});
		expect(smartList.error).toBeUndefined();
		expect(sandbox.requests[1].body).toEqual({
			name: 'Hot',
			conditions: [[{ fld: 'stage', opr: 'is', num: null, unit: '', val: 'Lead' }]],
		});
	});
});

describe('hostile rows are refused before anything is sent', () => {
	test.each([
		[
			'no recipient at all',
			{},
			'Recipients: add at least one recipient (the service requires this field)',
		],
		[
			'both the entries and the JSON value',
			{ recipients: { values: [BO] }, recipientsJson: JSON.stringify([CY]) },
			'Recipients (JSON): give either Recipients or Recipients (JSON), not both',
		],
		[
			'a JSON value that is not a list',
			{ recipientsJson: JSON.stringify(BO) },
			'Recipients (JSON): must be a list of entries',
		],
		[
			'a JSON value that is not JSON',
			{ recipientsJson: '[{"name": "Bo",' },
			'Recipients (JSON): is not valid JSON',
		],
		[
			'an entry that is not an object',
			{ recipientsJson: '["bo@example.test"]' },
			'Recipients (JSON): entry 1 must be an object',
		],
		[
			'a key that is not a part',
			{ recipientsJson: JSON.stringify([{ ...BO, bcc: 'x@example.test' }]) },
			'Recipients (JSON) › entry 1: "bcc" is not one of: name, email',
		],
		[
			'a wrong type in an entry',
			{ recipientsJson: JSON.stringify([{ name: { first: 'Bo' }, email: 'bo@example.test' }]) },
			'Recipients (JSON) › entry 1 › Name: must be text, not an object or a list',
		],
		[
			'a list of 1,001 entries',
			{ recipientsJson: JSON.stringify(Array.from({ length: 1001 }, () => BO)) },
			'Recipients (JSON): has 1001 entries; at most 1000 are sent in one request',
		],
	])('%s', async (_what, parameters, message) => {
		const result = await email(parameters);
		expect(result.error?.message).toContain(message);
		expect(sandbox.requests).toHaveLength(0);
	});

	test('a secret in an entry or in broken JSON is never echoed by the error', async () => {
		const secret = sandbox.token;
		const smartList = operationRunner(() => sandbox, 'smartList', 'create');
		const parameters = {
			name: 'Hot',
			conditions: { values: [{ group: 1, fld: 'stage', opr: 'is', val: 'Lead' }] },
		};
		const wrongType = await smartList({
			parameters: { ...parameters, additionalFields: { columnsJson: '={{ $json.columns }}' } },
			items: [{ columns: [{ name: 'Name', enabled: true, width: secret }] }],
		});
		expect(wrongType.error?.message).toBe(
			'Additional Fields › Columns (JSON) › entry 1 › Width: must be a number, got a string (item 0)',
		);
		const brokenJson = await smartList({
			parameters: { ...parameters, additionalFields: { columnsJson: '={{ $json.columns }}' } },
			items: [{ columns: `[{"name": "${secret}` }],
		});
		expect(brokenJson.error?.message).toBe(
			'Additional Fields › Columns (JSON): is not valid JSON (item 0)',
		);
		for (const result of [wrongType, brokenJson]) {
			expect(JSON.stringify(result.error)).not.toContain(secret);
		}
		expect(sandbox.requests).toHaveLength(0);
	});
});

describe('Smart List › Create: Conditions and Columns', () => {
	const smartList = operationRunner(() => sandbox, 'smartList', 'create');
	const STAGE = { fld: 'stage', opr: 'is', num: null, unit: '', val: 'Lead' };

	test('Conditions (JSON): the 1,000-entry bound counts every condition of every group, as the form does', async () => {
		const group = (length: number) => Array.from({ length }, () => STAGE);
		const over = await smartList({
			parameters: { name: 'Hot', conditionsJson: JSON.stringify([group(1000), group(1000)]) },
		});
		expect(over.error?.message).toBe(
			'Conditions (JSON): has 2000 entries; at most 1000 are sent in one request (item 0)',
		);
		const form = await smartList({
			parameters: {
				name: 'Hot',
				conditions: {
					values: [
						...Array.from({ length: 500 }, () => ({
							group: 1,
							fld: 'stage',
							opr: 'is',
							val: 'Lead',
						})),
						...Array.from({ length: 501 }, () => ({
							group: 2,
							fld: 'stage',
							opr: 'is',
							val: 'Lead',
						})),
					],
				},
			},
		});
		expect(form.error?.message).toBe(
			'Conditions: has 1001 entries; at most 1000 are sent in one request (item 0)',
		);
		expect(sandbox.requests).toHaveLength(0);
		const atTheBound = await smartList({
			parameters: { name: 'Hot', conditionsJson: JSON.stringify([group(500), group(500)]) },
		});
		expect(atTheBound.error).toBeUndefined();
		expect((sandbox.requests[0].body as IDataObject).conditions).toEqual([group(500), group(500)]);
	});

	test('entries grouped by their Group number, groups in order; unset Number null, Unit ""', async () => {
		const result = await smartList({
			parameters: {
				name: 'Hot',
				conditions: {
					values: [
						{ group: 2, fld: 'source', opr: 'is', num: '', unit: '', val: 'Zillow' },
						{ group: 1, fld: 'stage', opr: 'is', num: '', unit: '', val: 'Lead' },
						{ group: 2, fld: 'created', opr: 'within', num: '7', unit: 'days', val: 'x' },
					],
				},
				additionalFields: {
					columns: {
						values: [
							{ name: 'Name', enabled: true, width: null },
							{ name: 'Stage', enabled: false, width: 120 },
						],
					},
				},
			},
		});
		expect(result.error).toBeUndefined();
		const body = {
			name: 'Hot',
			conditions: [
				[STAGE],
				[
					{ fld: 'source', opr: 'is', num: null, unit: '', val: 'Zillow' },
					{ fld: 'created', opr: 'within', num: '7', unit: 'days', val: 'x' },
				],
			],
			columns: [
				{ name: 'Name', enabled: true },
				{ name: 'Stage', enabled: false, width: 120 },
			],
		};
		expectRequest(sandbox, sandbox.requests[0], {
			host: 'crm',
			method: 'POST',
			url: '/api/smart-lists',
			credentialId: 'cred-default',
			body,
			status: 201,
		});
		expect(result.items[0].json).toMatchObject(body);
	});

	test("a Group that is no number names the kind of value, never the value (it may be a row's secret)", async () => {
		const result = await smartList({
			parameters: {
				name: 'Hot',
				conditions: {
					values: [{ ...STAGE, group: '={{ "SSN 123-45-6789" }}', num: '', unit: '' }],
				},
			},
		});
		expect(result.error?.message).toBe(
			'Conditions › entry 1 › Group: must be a number, got a string (item 0)',
		);
		expect(sandbox.requests).toHaveLength(0);
	});

	test('Conditions (JSON): a list of groups from an expression, a val list of numbers kept', async () => {
		const groups = [
			[{ ...STAGE, val: [1, 2] }],
			[{ fld: 'tags', opr: 'has', num: null, unit: '', val: 'vip' }],
		];
		const result = await smartList({
			parameters: { name: 'Hot', conditionsJson: '={{ $json.conditions }}' },
			items: [{ conditions: groups }],
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests[0].body).toEqual({ name: 'Hot', conditions: groups });
	});

	test.each([
		[
			'a list of conditions, not of groups',
			[STAGE],
			'Conditions (JSON): group 1 must be a list of conditions',
		],
		['an empty group', [[]], 'Conditions (JSON): group 1 must be a list of conditions'],
		[
			'a condition without its operator',
			[[{ fld: 'stage', val: 'Lead' }]],
			'Conditions (JSON) › group 1 › entry 1 › Operator: is required but empty',
		],
		[
			'a val list holding an object',
			[[{ ...STAGE, val: [{}] }]],
			'Conditions (JSON) › group 1 › entry 1 › val: must be text or a list of numbers or texts',
		],
		[
			'101 groups',
			Array.from({ length: 101 }, () => [STAGE]),
			'Conditions (JSON): has 101 groups; at most 100 are sent',
		],
	])('refused, nothing sent: %s', async (_what, conditions, message) => {
		const result = await smartList({
			parameters: { name: 'Hot', conditionsJson: JSON.stringify(conditions) },
		});
		expect(result.error?.message).toContain(message);
		expect(sandbox.requests).toHaveLength(0);
	});
});

describe('Person: Emails, Phones and Addresses as one value', () => {
	test('Emails (JSON) and Addresses (JSON) from expressions are sent; Phones (JSON) empty is not', async () => {
		const result = await operationRunner(
			() => sandbox,
			'person',
			'create',
		)({
			parameters: {
				firstName: 'Ada',
				lastName: 'Lovelace',
				additionalFields: {
					emailsJson: '={{ $json.emails }}',
					phonesJson: '={{ $json.phones }}',
					addressesJson: '={{ $json.addresses }}',
				},
			},
			items: [
				{
					emails: [{ value: 'ada@example.test', isPrimary: true }],
					phones: [],
					addresses: [{ city: 'London' }],
				},
			],
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests[0].body).toEqual({
			firstName: 'Ada',
			lastName: 'Lovelace',
			emails: [{ value: 'ada@example.test', isPrimary: true }],
			addresses: [{ city: 'London' }],
		});
	});

	test('Emails (JSON) with an entry Emails would refuse is refused the same way', async () => {
		const result = await operationRunner(
			() => sandbox,
			'person',
			'update',
		)({
			parameters: {
				personId: 'p_1',
				updateFields: { emailsJson: '[{"value": "a@example.test", "primary": true}]' },
			},
		});
		expect(result.error?.message).toBe(
			'Update Fields › Emails (JSON) › entry 1: "primary" is not one of: value, type, status, isPrimary (item 0)',
		);
		expect(sandbox.requests).toHaveLength(0);
	});
});
