/**
 * The parts of a contact value or an address (Person's and Borrower's Emails, Phones, Addresses) are
 * read as any list entry's parts (decisions.md, "A list of objects as one value"): an error names the
 * part and the kind of value, never the value, from the form, the (JSON) companion, Record (JSON) and
 * Map Automatically alike. Through n8n's engine against the sandbox; nothing is sent.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { expectInputError, operationRunner, useSandbox } from '../harness/fixtures';
import type { Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), { people: 2 });

const LONG = 'q'.repeat(150);
const run = (resource: string, parameters: INodeParameters, items?: IDataObject[]) =>
	operationRunner(() => sandbox, resource, 'create')({ parameters, ...(items ? { items } : {}) });

describe('a part of a contact value or an address never shows its value', () => {
	test.each<[string, string, INodeParameters, IDataObject[] | undefined, string]>([
		[
			'Person, the form: Is Primary',
			'person',
			{
				lastName: 'L',
				additionalFields: { emails: { values: [{ value: 'a@b.c', isPrimary: '={{ $json.v }}' }] } },
			},
			[{ v: 'pw=hunter2' }],
			'Additional Fields › Emails › entry 1 › Is Primary: must be true or false, got a string (item 0)',
		],
		[
			'Person, Phones (JSON): a long Is Primary',
			'person',
			{
				lastName: 'L',
				additionalFields: { phonesJson: JSON.stringify([{ value: '1', isPrimary: LONG }]) },
			},
			undefined,
			'Additional Fields › Phones (JSON) › entry 1 › Is Primary: must be true or false, got a string (item 0)',
		],
		[
			'Person, Emails (JSON): a number that is no flag, in the entry of that number',
			'person',
			{
				lastName: 'L',
				additionalFields: {
					emailsJson: JSON.stringify([{ value: 'a@b.c' }, { value: 'd@e.f', isPrimary: 2 }]),
				},
			},
			undefined,
			'Additional Fields › Emails (JSON) › entry 2 › Is Primary: must be true or false, got a number (item 0)',
		],
		[
			'Person, Record (JSON)',
			'person',
			{ mappingMode: 'jsonRecord', record: '={{ $json.r }}' },
			[{ r: { lastName: 'L', emails: [{ value: 'a@b.c', isPrimary: 'pw=hunter2' }] } }],
			'Record (JSON) › emails › entry 1 › Is Primary: must be true or false, got a string (item 0)',
		],
		[
			'Borrower, Map Automatically',
			'borrower',
			{ mappingMode: 'autoMapInputData' },
			[{ name: 'N', phones: [{ value: '1', isPrimary: 'pw=hunter2' }] }],
			'Input Field "phones" › entry 1 › Is Primary: must be true or false, got a string (item 0)',
		],
	])('%s', async (_case, resource, parameters, items, message) => {
		const result = await run(resource, parameters, items);
		expectInputError(sandbox, result, message);
		expect(result.error?.message).not.toContain('hunter2');
		expect(result.error?.message).not.toContain('qqqq');
	});
});

describe('broken JSON is reported without the parser’s quote of the text', () => {
	const EMAIL = {
		subject: 's',
		body: 'b',
		recipients: { values: [{ name: 'Bo', email: 'bo@example.test' }] },
		sender: '{"name": "Ann", "email": "ann@example.test"}',
	};
	test.each<[string, string, INodeParameters, string]>([
		[
			'Record (JSON)',
			'person',
			{ mappingMode: 'jsonRecord', record: 'pw=hunter2' },
			'Record (JSON): is not valid JSON (item 0)',
		],
		[
			'Sender',
			'emailMessage',
			{ ...EMAIL, sender: 'pw=hunter2' },
			'Sender: is not valid JSON (item 0)',
		],
		[
			'Shared With',
			'smartList',
			{
				name: 'L',
				conditions: { values: [{ group: 1, fld: 'stage', opr: 'is', val: 'Lead' }] },
				additionalFields: { sharedWith: '{"pw": hunter2}' },
			},
			'Additional Fields › Shared With: is not valid JSON (item 0)',
		],
		[
			'Addresses (JSON)',
			'borrower',
			{ additionalFields: { name: 'N', addressesJson: 'pw=hunter2' } },
			'Additional Fields › Addresses (JSON): is not valid JSON (item 0)',
		],
	])('%s', async (_case, resource, parameters, message) => {
		expectInputError(sandbox, await run(resource, parameters), message);
	});
});

describe("a Loan's Borrowers: each entry's emails, phones and addresses are read as Borrower › Create reads them", () => {
	const loan = (parameters: INodeParameters, items?: IDataObject[]) =>
		run('loan', parameters, items);
	const PRIMARY = [{ value: 'a@b.c', primary: true }];
	test.each<[string, INodeParameters, IDataObject[] | undefined, string]>([
		[
			'the form: an unknown key in Emails',
			{
				additionalFields: {
					borrowers: { values: [{ name: 'N', emails: JSON.stringify(PRIMARY) }] },
				},
			},
			undefined,
			'Additional Fields › Borrowers › entry 1 › Emails › entry 1: "primary" is not one of: value, type, status, isPrimary (item 0)',
		],
		[
			'Borrowers (JSON): an unknown address part',
			{
				additionalFields: {
					borrowersJson: JSON.stringify([{ name: 'N', addresses: [{ zip: '1' }] }]),
				},
			},
			undefined,
			'Additional Fields › Borrowers (JSON) › entry 1 › Addresses › entry 1: "zip" is not one of: type, street, city, state, code, country (item 0)',
		],
		[
			'Record (JSON): an object as a phone',
			{ mappingMode: 'jsonRecord', record: '={{ $json.r }}' },
			[{ r: { borrowers: [{ name: 'N', phones: [{ value: { x: 1 } }] }] } }],
			'Record (JSON) › borrowers › entry 1 › Phones › entry 1 › Value: must be text, not an object or a list (item 0)',
		],
		[
			'Map Automatically: an entry that is no object',
			{ mappingMode: 'autoMapInputData' },
			[{ borrowers: [{ name: 'N', emails: ['a@b.c'] }] }],
			'Input Field "borrowers" › entry 1 › Emails: entry 1 must be an object with a value (item 0)',
		],
	])('%s', async (_case, parameters, items, message) => {
		expectInputError(sandbox, await loan(parameters, items), message);
	});

	test('good entries are sent as Borrower › Create sends them: blank parts left out, values trimmed', async () => {
		const result = await loan({
			additionalFields: {
				borrowers: {
					values: [
						{
							name: 'N',
							emails: JSON.stringify([{ value: ' a@b.c ', type: '', isPrimary: 'true' }]),
							addresses: '[{"city": "Austin", "code": 78701}]',
						},
					],
				},
			},
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.body)).toEqual([
			{
				borrowers: [
					{
						name: 'N',
						emails: [{ value: 'a@b.c', isPrimary: true }],
						addresses: [{ city: 'Austin', code: '78701' }],
					},
				],
			},
		]);
	});
});

describe('an unknown key is named cut as a value is: 100 characters and its length', () => {
	const KEY = 'k'.repeat(99_000);
	const CUT = `"${'k'.repeat(99)}… (99002 characters)`;
	test.each<[string, string, INodeParameters, IDataObject[], string]>([
		[
			'a key of Record (JSON)',
			'person',
			{ mappingMode: 'jsonRecord', record: '={{ $json.r }}' },
			[{ r: { lastName: 'L', [KEY]: 1 } }],
			`Record (JSON): ${CUT} is not one of: `,
		],
		[
			'a key of an email entry',
			'person',
			{ mappingMode: 'autoMapInputData' },
			[{ lastName: 'L', emails: [{ value: 'a@b.c', [KEY]: 1 }] }],
			`Input Field "emails" › entry 1: ${CUT} is not one of: value, type, status, isPrimary (item 0)`,
		],
		[
			'a key of a recipient',
			'emailMessage',
			{ mappingMode: 'autoMapInputData' },
			[{ subject: 's', body: 'b', sender: { name: 'A' }, recipients: [{ name: 'Bo', [KEY]: 1 }] }],
			`Input Field "recipients" › entry 1: ${CUT} is not one of: name, email (item 0)`,
		],
	])('%s', async (_case, resource, parameters, items, message) => {
		const result = await run(resource, parameters, items);
		expect(result.error?.message.startsWith(message)).toBe(true);
		expect(result.error!.message.length).toBeLessThan(1000);
		expect(sandbox.requests).toHaveLength(0);
	});
});

describe('Communications Consent: an empty flag is not set, like any optional field', () => {
	const posted = () => sandbox.requests.map((request) => request.body);
	test('the form: a flag whose expression gives "" or blanks is left out, the others sent', async () => {
		const result = await run(
			'person',
			{
				lastName: 'L',
				additionalFields: {
					communicationsConsent: { email: '={{ $json.e }}', text: '={{ $json.t }}', call: true },
				},
			},
			[{ e: '', t: '  ' }],
		);
		expect(result.error).toBeUndefined();
		expect(posted()).toEqual([{ lastName: 'L', communicationsConsent: { call: true } }]);
	});

	test('Map Automatically: only blank flags send no consent at all; a wrong one is still refused', async () => {
		const blank = await run('person', { mappingMode: 'autoMapInputData' }, [
			{ lastName: 'L', communicationsConsent: { email: '', text: ' ' } },
		]);
		expect(blank.error).toBeUndefined();
		expect(posted()).toEqual([{ lastName: 'L' }]);
		const wrong = await run('person', { mappingMode: 'autoMapInputData' }, [
			{ lastName: 'L', communicationsConsent: { email: 'maybe' } },
		]);
		expect(wrong.error?.message).toBe(
			'Input Field "communicationsConsent" › Email: must be true or false, got "maybe" (item 0)',
		);
		expect(sandbox.requests).toHaveLength(1);
	});
});
