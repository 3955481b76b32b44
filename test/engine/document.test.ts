/** Document › Create (POST {los}/api/documents) through n8n's engine against the sandbox. */
import { expectInputError, expectRequest, operationRunner, useSandbox } from '../harness/fixtures';
import type { Sandbox } from '../sandbox/server';
import { DOCUMENT_FIELDS } from '../sandbox/schema';

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** The eight required fields, as parameters and (same names) on the wire. */
const REQUIRED = {
	name: 'W-2 2024.pdf',
	category: 'income',
	status: 'received',
	type: 'W2',
	fileUrl: 'https://files.example.com/w2-2024.pdf?sig=a%2Fb',
	mimeType: 'application/pdf',
	fileSignature: 'sha256:9f86d081884c7d659a2feaa0c55ad015',
	folderId: 'folder-42',
};

/** The fourteen additional fields, as the wire carries them (and, but for Signed By, as parameters). */
const ADDITIONAL = {
	fileSize: 48213,
	created: '2024-05-01T12:00:00Z',
	updated: '2024-05-02T08:30:00Z',
	receivedDate: '2024-05-01',
	requiresSignature: true,
	isSigned: true,
	signedBy: [{ name: 'Jane Doe', date: '2024-05-02' }, { name: 'John Doe' }],
	signedDate: '2024-05-02',
	isActive: false,
	loanId: 'loan-7',
	borrowerId: 'b-1',
	propertyId: 'prop-3',
	transactionId: 'tx-9',
	userId: 'user-5',
};

/** Where every request of Document › Create goes, and what the service answers. */
const LOS_POST = { host: 'los', method: 'POST', url: '/api/documents', status: 201 } as const;

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started));
const createDocument = operationRunner(() => sandbox, 'document', 'create');

describe('document › create', () => {
	test('every field: the eight required ones and all fourteen additional ones (22 in all)', async () => {
		const result = await createDocument({
			parameters: {
				...REQUIRED,
				// Signed By is JSON text in the parameter, a list on the wire.
				additionalFields: {
					...ADDITIONAL,
					signedBy: '[{"name": "Jane Doe", "date": "2024-05-02"}, {"name": "John Doe"}]',
				},
			},
		});
		expect(result.error).toBeUndefined();
		const body = { ...REQUIRED, ...ADDITIONAL };
		// Every field the service accepts is covered.
		expect(Object.keys(body).sort()).toEqual(Object.keys(DOCUMENT_FIELDS).sort());
		expect(sandbox.requests).toHaveLength(1);
		expectRequest(sandbox, sandbox.requests[0], {
			...LOS_POST,
			credentialId: 'cred-default',
			body,
		});
		expect(result.items).toEqual([
			{
				json: {
					id: 'doc_1',
					...body,
					originalIds: { los: 'los-doc_1' },
					original: body,
					serviceUpdated: expect.stringMatching(ISO_TIME),
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	test('only the eight required fields: nothing else is sent, the service fills the rest', async () => {
		const result = await createDocument({ parameters: REQUIRED });
		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
		expectRequest(sandbox, sandbox.requests[0], {
			...LOS_POST,
			credentialId: 'cred-default',
			body: REQUIRED,
		});
		const at = expect.stringMatching(ISO_TIME);
		expect(result.items).toEqual([
			{
				json: {
					id: 'doc_1',
					...REQUIRED,
					fileSize: null,
					created: at,
					updated: at,
					receivedDate: null,
					requiresSignature: false,
					isSigned: false,
					signedBy: [],
					signedDate: null,
					isActive: true,
					loanId: null,
					borrowerId: null,
					propertyId: null,
					transactionId: null,
					userId: null,
					originalIds: { los: 'los-doc_1' },
					original: REQUIRED,
					serviceUpdated: at,
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	test('false booleans, a zero file size and an empty signer list are sent as given; numbers and booleans may come as text', async () => {
		const result = await createDocument({
			items: [{ size: '1024', signed: 'false' }],
			parameters: {
				...REQUIRED,
				additionalFields: {
					fileSize: '={{ $json.size }}',
					isSigned: '={{ $json.signed }}',
					requiresSignature: false,
					isActive: true,
					signedBy: '[]',
				},
			},
		});
		expect(result.error).toBeUndefined();
		expectRequest(sandbox, sandbox.requests[0], {
			...LOS_POST,
			credentialId: 'cred-default',
			body: {
				...REQUIRED,
				fileSize: 1024,
				isSigned: false,
				requiresSignature: false,
				isActive: true,
				signedBy: [],
			},
		});
		const zero = await createDocument({
			parameters: { ...REQUIRED, additionalFields: { fileSize: 0 } },
		});
		expect(zero.error).toBeUndefined();
		expect(sandbox.requests[1].body).toEqual({ ...REQUIRED, fileSize: 0 });
	});

	test('the Credential ID is read per item: each document lands in its own connection', async () => {
		const result = await createDocument({
			items: [
				{ connection: 'cred-other', n: 'a.pdf' },
				{ connection: '', n: 'b.pdf' },
			],
			parameters: {
				...REQUIRED,
				name: '={{ $json.n }}',
				credentialId: '={{ $json.connection }}',
			},
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(2);
		expectRequest(sandbox, sandbox.requests[0], {
			...LOS_POST,
			credentialId: 'cred-other',
			body: { ...REQUIRED, name: 'a.pdf' },
		});
		expectRequest(sandbox, sandbox.requests[1], {
			...LOS_POST,
			credentialId: 'cred-default',
			body: { ...REQUIRED, name: 'b.pdf' },
		});
		expect(sandbox.count('documents', 'cred-other')).toBe(1);
		expect(sandbox.count('documents', 'cred-default')).toBe(1);
		expect(result.items.map((item) => [item.json.id, item.json.name, item.pairedItem])).toEqual([
			['doc_1', 'a.pdf', { item: 0 }],
			['doc_2', 'b.pdf', { item: 1 }],
		]);
	});

	test('a node-level Credential ID replaces the credential default for every item', async () => {
		const result = await createDocument({
			parameters: { ...REQUIRED, credentialId: 'cred-other' },
		});
		expect(result.error).toBeUndefined();
		expectRequest(sandbox, sandbox.requests[0], {
			...LOS_POST,
			credentialId: 'cred-other',
			body: REQUIRED,
		});
	});

	test.each([
		['Name', 'name'],
		['Category', 'category'],
		['Status', 'status'],
		['Type', 'type'],
		['File URL', 'fileUrl'],
		['MIME Type', 'mimeType'],
		['File Signature', 'fileSignature'],
		['Folder ID', 'folderId'],
	])('an empty %s is an input error naming it, and nothing is sent', async (label, name) => {
		const result = await createDocument({ parameters: { ...REQUIRED, [name]: '={{ "  " }}' } });
		expectInputError(sandbox, result, `${label}: is required but empty (item 0)`);
	});

	test.each([
		[
			'Signed By that is an object, not a list',
			{ signedBy: '{"name": "Jane"}' },
			'Additional Fields › Signed By: must be a JSON list of objects like [{"key": "value"}], got an object (item 0)',
		],
		[
			'Signed By with a non-object entry',
			{ signedBy: '["Jane"]' },
			'Additional Fields › Signed By: must be a JSON list of objects',
		],
		[
			'a File Size that is not a number',
			{ fileSize: '={{ "large" }}' },
			'Additional Fields › File Size: must be a number, got "large" (item 0)',
		],
		[
			'a negative File Size',
			{ fileSize: -1 },
			'Additional Fields › File Size: must not be negative (item 0)',
		],
		[
			'an Is Signed that is not a boolean',
			{ isSigned: '={{ "yes" }}' },
			'Additional Fields › Is Signed: must be true or false, got "yes" (item 0)',
		],
		[
			'a Loan ID that is a list',
			{ loanId: '={{ ["a"] }}' },
			'Additional Fields › Loan ID: must be text, not an object or a list (item 0)',
		],
	])(
		'%s is an input error naming the field, and nothing is sent',
		async (_case, additionalFields, message) => {
			const result = await createDocument({ parameters: { ...REQUIRED, additionalFields } });
			expectInputError(sandbox, result, expect.stringContaining(message));
		},
	);
});
