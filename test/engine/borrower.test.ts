/** Borrower › Update (PUT {los}/api/borrowers/{id}) through n8n's engine against the sandbox. */
import { CONTACT_BODY, CONTACT_PARAMETERS } from '../harness/contact-values';
import { expectInputError, expectRequest, operationRunner, useSandbox } from '../harness/fixtures';
import type { Sandbox } from '../sandbox/server';

const SEED_TIME = '2024-01-01T00:00:00.000Z';
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
/** What the sandbox seeds as borrower b-1 of every connection. */
const SEEDED_B1 = {
	name: 'Sample Borrower',
	type: 'individual',
	emails: [{ value: 'borrower@example.test', type: 'home', status: 'Valid', isPrimary: true }],
};

/** Where every request of Borrower › Update goes. */
const LOS_PUT = { host: 'los', method: 'PUT' } as const;

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started));
const updateBorrower = operationRunner(() => sandbox, 'borrower', 'update');

describe('borrower › update', () => {
	test('every field: name, type, tax ID, emails, phones, addresses and bio', async () => {
		const result = await updateBorrower({
			parameters: {
				borrowerId: 'b-1',
				updateFields: {
					name: 'Jane Doe',
					type: 'business',
					taxId: '12-3456789',
					...CONTACT_PARAMETERS,
					bio: '{"maritalStatus": "married", "dependents": 2}',
				},
			},
		});
		expect(result.error).toBeUndefined();
		const body = {
			name: 'Jane Doe',
			type: 'business',
			taxId: '12-3456789',
			...CONTACT_BODY,
			bio: { maritalStatus: 'married', dependents: 2 },
		};
		expect(sandbox.requests).toHaveLength(1);
		expectRequest(sandbox, sandbox.requests[0], {
			...LOS_PUT,
			url: '/api/borrowers/b-1',
			credentialId: 'cred-default',
			body,
		});
		expect(result.items).toEqual([
			{
				json: {
					...body,
					id: 'b-1',
					created: SEED_TIME,
					updated: expect.stringMatching(ISO_TIME),
					serviceUpdated: expect.stringMatching(ISO_TIME),
					originalIds: { los: 'los-b-1' },
					original: { ...SEEDED_B1, ...body },
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	test('only the required Borrower ID and one field: nothing else is sent, the rest of the borrower stays', async () => {
		const result = await updateBorrower({
			parameters: { borrowerId: 'b-1', updateFields: { taxId: '999' } },
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
		expectRequest(sandbox, sandbox.requests[0], {
			...LOS_PUT,
			url: '/api/borrowers/b-1',
			credentialId: 'cred-default',
			body: { taxId: '999' },
		});
		expect(result.items).toEqual([
			{
				json: {
					...SEEDED_B1,
					taxId: '999',
					id: 'b-1',
					created: SEED_TIME,
					updated: expect.stringMatching(ISO_TIME),
					serviceUpdated: expect.stringMatching(ISO_TIME),
					originalIds: { los: 'los-b-1' },
					original: { ...SEEDED_B1, taxId: '999' },
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	test.each([
		['"a/b"', 'a/b', '/api/borrowers/a%2Fb'],
		['"x/../y"', 'x/../y', '/api/borrowers/x%2F..%2Fy'],
		['"100% sure?#"', '100% sure?#', '/api/borrowers/100%25%20sure%3F%23'],
	])('the ID %s stays one path segment and reaches that borrower', async (_case, id, url) => {
		sandbox.addBorrower('cred-default', id, { name: 'Seeded' });
		const result = await updateBorrower({
			parameters: { borrowerId: id, updateFields: { name: 'Renamed' } },
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
		expectRequest(sandbox, sandbox.requests[0], {
			...LOS_PUT,
			url,
			credentialId: 'cred-default',
			body: { name: 'Renamed' },
		});
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({
			id,
			name: 'Renamed',
			originalIds: { los: `los-${id}` },
		});
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
	});

	test('the Credential ID is read per item: each item reaches its own connection', async () => {
		sandbox.addBorrower('cred-other', 'b-other', { name: 'Only in the other connection' });
		const result = await updateBorrower({
			items: [
				{ id: 'b-1', connection: '' },
				{ id: 'b-other', connection: 'cred-other' },
				{ id: 'b-1', connection: 'cred-other' },
			],
			parameters: {
				borrowerId: '={{ $json.id }}',
				credentialId: '={{ $json.connection }}',
				updateFields: { taxId: '={{ $itemIndex }}' },
			},
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(3);
		// An empty override falls back to the credential's Default Credential ID.
		expectRequest(sandbox, sandbox.requests[0], {
			...LOS_PUT,
			url: '/api/borrowers/b-1',
			credentialId: 'cred-default',
			body: { taxId: '0' },
		});
		expectRequest(sandbox, sandbox.requests[1], {
			...LOS_PUT,
			url: '/api/borrowers/b-other',
			credentialId: 'cred-other',
			body: { taxId: '1' },
		});
		expectRequest(sandbox, sandbox.requests[2], {
			...LOS_PUT,
			url: '/api/borrowers/b-1',
			credentialId: 'cred-other',
			body: { taxId: '2' },
		});
		expect(
			result.items.map((item) => [item.json.id, item.json.name, item.json.taxId, item.pairedItem]),
		).toEqual([
			['b-1', 'Sample Borrower', '0', { item: 0 }],
			['b-other', 'Only in the other connection', '1', { item: 1 }],
			['b-1', 'Sample Borrower', '2', { item: 2 }],
		]);
	});

	test('a borrower of another connection is not found with the default Credential ID', async () => {
		sandbox.addBorrower('cred-other', 'b-other');
		const result = await updateBorrower({
			parameters: { borrowerId: 'b-other', updateFields: { name: 'x' } },
		});
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0].headers['x-service-credential-id']).toBe('cred-default');
		expect(result.error?.message).toBe('Not found (HTTP 404): borrower not found (item 0)');
	});

	test.each([
		[
			'an ID of ".."',
			{ borrowerId: '..', updateFields: { name: 'x' } },
			'Borrower ID: ".." is not a valid ID (item 0)',
		],
		[
			'an ID of "."',
			{ borrowerId: '.', updateFields: { name: 'x' } },
			'Borrower ID: "." is not a valid ID (item 0)',
		],
		[
			'an ID whose expression is empty',
			{ borrowerId: '={{ "" }}', updateFields: { name: 'x' } },
			'Borrower ID: is required but empty (item 0)',
		],
		[
			'no update field',
			{ borrowerId: 'b-1', updateFields: {} },
			'Update Fields: add at least one field (item 0)',
		],
		[
			'only blank update fields',
			{ borrowerId: 'b-1', updateFields: { name: '', emails: {}, bio: '' } },
			'Update Fields: add at least one field (item 0)',
		],
		[
			'a Bio that is a list',
			{ borrowerId: 'b-1', updateFields: { bio: '[1]' } },
			'Update Fields › Bio: must be a JSON object like {"key": "value"}, got a list (item 0)',
		],
		[
			'an email without a value',
			{ borrowerId: 'b-1', updateFields: { emails: { values: [{ value: '', type: 'work' }] } } },
			'Update Fields › Emails › entry 1: has no value (item 0)',
		],
		[
			'a Name that is an object',
			{ borrowerId: 'b-1', updateFields: { name: '={{ { first: "a" } }}' } },
			'Update Fields › Name: must be text, not an object or a list (item 0)',
		],
		[
			'a Credential ID with a line break',
			{
				borrowerId: 'b-1',
				updateFields: { name: 'x' },
				credentialId: '={{ "cred-default\\r\\nX-Evil: 1" }}',
			},
			'Connection ID: contains a line break or another control character (item 0)',
		],
	])(
		'%s is an input error naming the field, and nothing is sent',
		async (_case, parameters, message) => {
			const result = await updateBorrower({ parameters });
			expectInputError(sandbox, result, expect.stringContaining(message));
		},
	);

	test('with Continue On Fail, a bad item gives an error item and the others still run', async () => {
		const result = await updateBorrower({
			onError: 'continueRegularOutput',
			items: [{ id: 'b-1' }, { id: '..' }, { id: 'b-1' }],
			parameters: { borrowerId: '={{ $json.id }}', updateFields: { name: 'N' } },
		});
		expect(sandbox.requests.map((request) => request.url)).toEqual([
			'/api/borrowers/b-1',
			'/api/borrowers/b-1',
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		// The router owns the rest of the error item's shape; this operation owns the message.
		expect(result.items[1].json.error).toBe('Borrower ID: ".." is not a valid ID (item 1)');
		expect(result.items[2].json).toMatchObject({ id: 'b-1', name: 'N' });
	});
});
