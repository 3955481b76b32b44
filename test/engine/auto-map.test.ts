/**
 * Mapping Mode "Map Automatically" (Person › Create, Borrower › Update, Document › Create) through n8n's
 * engine against the sandbox: each input item's fields named as wire fields become the body, checked as
 * strictly as the form's; other input fields are ignored; a bad item sends nothing.
 */
import { CONTACT_BODY } from '../harness/contact-values';
import { expectInputError, expectSent, operationRunner, useSandbox } from '../harness/fixtures';
import { DOCUMENT_REQUIRED } from '../reliability/helpers';
import type { Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started));

const AUTO = { mappingMode: 'autoMapInputData' };
const createPerson = operationRunner(() => sandbox, 'person', 'create');
const updateBorrower = operationRunner(() => sandbox, 'borrower', 'update');
const createDocument = operationRunner(() => sandbox, 'document', 'create');

const CRM_POST = {
	host: 'crm',
	method: 'POST',
	url: '/api/people',
	credentialId: 'cred-default',
} as const;

/** A spreadsheet-like row: wire-named columns, values as text where a sheet would give text, and extras. */
const PERSON_ROW = {
	rowNumber: 7,
	firstName: 'Grace',
	lastName: 'Hopper',
	averagePrice: '450000',
	averageBeds: 3,
	tags: 'vip, navy',
	stage: 'Lead',
	communicationsConsent: { email: true, text: 'false' },
	...CONTACT_BODY,
	notAField: { anything: true },
};
const PERSON_BODY = {
	firstName: 'Grace',
	lastName: 'Hopper',
	averagePrice: 450000,
	averageBeds: 3,
	tags: ['vip', 'navy'],
	stage: 'Lead',
	communicationsConsent: { email: true, text: false },
	...CONTACT_BODY,
};

describe('Person › Create, Map Automatically', () => {
	test('sends the wire-named fields of each item, converted and checked, and ignores the others', async () => {
		const result = await createPerson({
			parameters: { ...AUTO },
			items: [PERSON_ROW, { firstName: 'Ada', id: 'ignored', created: 'ignored' }],
		});
		expectSent(sandbox, result, [
			{ ...CRM_POST, body: PERSON_BODY },
			{ ...CRM_POST, body: { firstName: 'Ada' } },
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(result.items[0].json).toMatchObject({
			firstName: 'Grace',
			lastName: 'Hopper',
			tags: ['vip', 'navy'],
		});
		expect(result.items[1].json).toMatchObject({ firstName: 'Ada' });
		expect(result.items[1].json.id).not.toBe('ignored');
	});

	test('the form is not read in this mode, even where it holds values', async () => {
		const result = await createPerson({
			parameters: { ...AUTO, firstName: 'FromForm', additionalFields: { stage: 'FromForm' } },
			items: [{ lastName: 'FromInput' }],
		});
		expectSent(sandbox, result, [{ ...CRM_POST, body: { lastName: 'FromInput' } }]);
	});

	test('a bad value names the input field and the item; with Continue On Fail the good items are still sent', async () => {
		const result = await createPerson({
			parameters: { ...AUTO },
			items: [
				{ firstName: 'Ada' },
				{ firstName: 'Ben', averagePrice: '450,000' },
				{ firstName: 'Cleo' },
			],
			onError: 'continueRegularOutput',
		});
		expectSent(sandbox, result, [
			{ ...CRM_POST, body: { firstName: 'Ada' } },
			{ ...CRM_POST, body: { firstName: 'Cleo' } },
		]);
		expect(result.items[1]).toEqual({
			json: {
				error: 'Input Field "averagePrice": must be a number, got "450,000" (item 1)',
				details: { itemIndex: 1 },
			},
			pairedItem: { item: 1 },
		});
	});

	test.each([
		[
			{ firstName: { $ne: 1 } },
			'Input Field "firstName": must be text, not an object or a list (item 0)',
		],
		[{ emails: 'grace@example.test' }, 'Input Field "emails": must be a list of entries (item 0)'],
		[{ emails: [{ type: 'work' }] }, 'Input Field "emails" › entry 1: has no value (item 0)'],
		[{ addresses: [{}] }, 'Input Field "addresses": entry 1 is empty (item 0)'],
		[
			{ communicationsConsent: { fax: true } },
			expect.stringContaining('Input Field "communicationsConsent": "fax" is not one of'),
		],
		[
			{ tags: [{ tag: 'vip' }] },
			'Input Field "tags" › entry 1: must be text, not an object or a list (item 0)',
		],
		// Wrong types are refused, never turned into text: no "[object Object]", "a,b" or "null" in the CRM.
		[
			{ emails: [{ value: { address: 'a@x.test' } }] },
			'Input Field "emails" › entry 1 › Value: must be text, not an object or a list (item 0)',
		],
		[
			{ emails: [{ value: ['a@x.test', 'b@x.test'] }] },
			'Input Field "emails" › entry 1 › Value: must be text, not an object or a list (item 0)',
		],
		[
			{ emails: [{ value: 'a@x.test', type: { kind: 'work' } }] },
			'Input Field "emails" › entry 1 › Type: must be text, not an object or a list (item 0)',
		],
		[
			{ phones: [{ value: '+1 555 0100', status: ['valid', 'mobile'] }] },
			'Input Field "phones" › entry 1 › Status: must be text, not an object or a list (item 0)',
		],
		[{ tags: ['vip', null] }, 'Input Field "tags" › entry 2: must be text, not null (item 0)'],
		[
			{ firstName: 'Grace', tags: ['vip', ['navy']] },
			'Input Field "tags" › entry 2: must be text, not an object or a list (item 0)',
		],
		[
			{ addresses: [{ city: { name: 'Arlington' } }] },
			'Input Field "addresses" › entry 1 › City: must be text, not an object or a list (item 0)',
		],
	])('refuses %j before sending anything', async (row, message) => {
		const result = await createPerson({ parameters: { ...AUTO }, items: [row] });
		expectInputError(sandbox, result, message);
	});

	test('null means "not set": a database row with NULL columns sends only the columns that hold values', async () => {
		const row = {
			firstName: 'Grace',
			lastName: null,
			stage: null,
			tags: null,
			averagePrice: null,
			emails: [{ value: 'grace@example.test', type: null, status: null, isPrimary: null }],
			addresses: [{ city: 'Arlington', street: null }],
			communicationsConsent: { email: true, text: null },
		};
		const result = await createPerson({ parameters: { ...AUTO }, items: [row] });
		expectSent(sandbox, result, [
			{
				...CRM_POST,
				body: {
					firstName: 'Grace',
					emails: [{ value: 'grace@example.test' }],
					addresses: [{ city: 'Arlington' }],
					communicationsConsent: { email: true },
				},
			},
		]);
	});

	test('an item with none of the fields is refused, naming the fields it could have', async () => {
		const result = await createPerson({
			parameters: { ...AUTO },
			items: [{ first_name: 'Grace', id: 1 }],
		});
		expectInputError(
			sandbox,
			result,
			expect.stringMatching(
				/^Map Automatically: the input item has none of the fields this operation sends \(firstName, lastName, .*emails.*\) \(item 0\)$/,
			),
		);
	});
});

describe('Borrower › Update, Map Automatically', () => {
	test('the ID comes from its parameter, the body from the item; the ID field itself is not sent', async () => {
		const result = await updateBorrower({
			parameters: { ...AUTO, borrowerId: '={{ $json.borrowerId }}' },
			items: [
				{
					borrowerId: 'b-1',
					name: 'Jane Doe',
					taxId: 123456789,
					bio: { maritalStatus: 'married' },
					phones: CONTACT_BODY.phones,
				},
			],
		});
		expectSent(sandbox, result, [
			{
				host: 'los',
				method: 'PUT',
				url: '/api/borrowers/b-1',
				credentialId: 'cred-default',
				body: {
					name: 'Jane Doe',
					taxId: '123456789',
					bio: { maritalStatus: 'married' },
					phones: CONTACT_BODY.phones,
				},
			},
		]);
		expect(result.items[0].json).toMatchObject({ id: 'b-1', name: 'Jane Doe' });
	});

	test('an item that changes nothing is refused, and a bio that is not an object names its field', async () => {
		const nothing = await updateBorrower({
			parameters: { ...AUTO, borrowerId: 'b-1' },
			items: [{ borrowerId: 'b-1' }],
		});
		expectInputError(
			sandbox,
			nothing,
			expect.stringContaining('Map Automatically: the input item has none of the fields'),
		);
		const badBio = await updateBorrower({
			parameters: { ...AUTO, borrowerId: 'b-1' },
			items: [{ bio: '[1]' }],
		});
		expectInputError(
			sandbox,
			badBio,
			'Input Field "bio": must be a JSON object like {"key": "value"}, got a list (item 0)',
		);
	});
});

describe('Document › Create, Map Automatically', () => {
	const REQUIRED = DOCUMENT_REQUIRED;

	test('required and optional fields from the item, text turned into numbers and booleans', async () => {
		const result = await createDocument({
			parameters: { ...AUTO },
			items: [
				{
					...REQUIRED,
					fileSize: '1024',
					isSigned: 'true',
					signedBy: [{ name: 'Jane' }],
					loanId: 'L-1',
					uploadedBy: 'ignored',
				},
			],
		});
		expectSent(sandbox, result, [
			{
				host: 'los',
				method: 'POST',
				url: '/api/documents',
				credentialId: 'cred-default',
				body: {
					...REQUIRED,
					fileSize: 1024,
					isSigned: true,
					signedBy: [{ name: 'Jane' }],
					loanId: 'L-1',
				},
				status: 201,
			},
		]);
	});

	test.each([
		[
			{ ...REQUIRED, folderId: undefined },
			'Input Field "folderId": is required but empty (item 0)',
		],
		[{ ...REQUIRED, name: '  ' }, 'Input Field "name": is required but empty (item 0)'],
		[{ ...REQUIRED, fileSize: -1 }, 'Input Field "fileSize": must not be negative (item 0)'],
		[
			{ ...REQUIRED, isActive: 'yes' },
			'Input Field "isActive": must be true or false, got "yes" (item 0)',
		],
	])('refuses a bad item before sending anything (%#)', async (row, message) => {
		const result = await createDocument({ parameters: { ...AUTO }, items: [row] });
		expectInputError(sandbox, result, message);
	});
});
