/**
 * Bad input, table-driven, across every operation: each case is checked twice through n8n's real
 * engine against the sandbox.
 *  1. Two items under Continue On Fail (regular output for even cases, error output for odd ones):
 *     the good item goes through, the bad one becomes one error item that names the field and
 *     item 1, and the sandbox receives exactly one request (the good item's).
 *  2. The bad item alone without Continue On Fail: the node stops with a NodeOperationError naming
 *     the field and item 0, and nothing is sent.
 * Values come from expressions (`={{ $json.v }}`): n8n itself refuses a literally blank required
 * parameter before the node runs, so an expression is how an empty value reaches the node.
 * Then: ids stay one path segment, and the credential refuses host URLs that are not http(s).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness/engine';
import { sandboxCredentials, useSandbox } from '../harness/fixtures';
import type { Sandbox } from '../sandbox/server';
import { FAST, isErrorItem, pairedIndex, VALID } from './helpers';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), { people: 10 });

const V = '={{ $json.v }}';
const NOT_SENDABLE =
	'Connection ID: contains characters that cannot be sent in an HTTP header as written (only ASCII letters, digits, punctuation and spaces)';

interface BadCase {
	/** Operation, as resource.operation (see VALID). */
	op: keyof typeof VALID;
	/** Parameters over the valid set; `V` marks where the item's value goes (Request Options: read for item 0). */
	set: INodeParameters;
	good: IDataObject[keyof IDataObject];
	bad: IDataObject[keyof IDataObject];
	/** The error message up to the "(item N)" suffix; it starts with the field's name. Ending in "…": a prefix. */
	error: string;
}

const docRequired = (field: string, label: string): BadCase => ({
	op: 'document.create',
	set: { [field]: V },
	good: 'x',
	bad: '',
	error: `${label}: is required but empty`,
});

const CASES: BadCase[] = [
	// Person › Create
	{
		op: 'person.create',
		set: { additionalFields: { averageBeds: V } },
		good: 3,
		bad: 'three',
		error: 'Additional Fields › Average Beds: must be a number, got "three"',
	},
	{
		op: 'person.create',
		set: { additionalFields: { averagePrice: V } },
		good: '450000',
		bad: '450,000',
		error: 'Additional Fields › Average Price: must be a number, got "450,000"',
	},
	{
		op: 'person.create',
		set: { additionalFields: { rating: V } },
		good: 4,
		bad: { stars: 4 },
		error: 'Additional Fields › Rating: must be a number, got {"stars":4}',
	},
	{
		op: 'person.create',
		set: { firstName: V },
		good: 'Ada',
		bad: { first: 'Ada' },
		error: 'First Name: must be text, not an object or a list',
	},
	{
		op: 'person.create',
		set: { additionalFields: { emails: { values: [{ value: V, type: 'work' }] } } },
		good: 'a@example.test',
		bad: '',
		error: 'Additional Fields › Emails › entry 1: has no value',
	},
	{
		op: 'person.create',
		set: { additionalFields: { emails: { values: [{ value: 'a@example.test', isPrimary: V }] } } },
		good: true,
		bad: 'sometimes',
		error: 'Additional Fields › Emails › entry 1 › Is Primary: must be true or false, got a string',
	},
	{
		op: 'person.create',
		set: { additionalFields: { addresses: { values: [{ city: V }] } } },
		good: 'Austin',
		bad: '',
		error: 'Additional Fields › Addresses: entry 1 is empty',
	},
	{
		op: 'person.create',
		set: { additionalFields: { contactTypes: V } },
		good: 'lead, client',
		bad: { kind: 'lead' },
		error: 'Additional Fields › Contact Types: must be a list of text values, got an object',
	},
	{
		op: 'person.create',
		set: { additionalFields: { tags: V } },
		good: ['vip'],
		bad: [{ tag: 'vip' }],
		error: 'Additional Fields › Tags › entry 1: must be text, not an object or a list',
	},
	{
		op: 'person.create',
		set: { additionalFields: { communicationsConsent: { email: V } } },
		good: false,
		bad: 'maybe',
		error: 'Additional Fields › Communications Consent › Email: must be true or false, got "maybe"',
	},
	{
		op: 'person.create',
		set: { credentialId: V },
		good: 'cred-other',
		bad: 'cred-other\r\nX-Injected: 1',
		error: 'Connection ID: contains a line break or another control character',
	},
	{
		op: 'person.create',
		set: { credentialId: V },
		good: 'cred-other',
		bad: 'cred-other\u0000',
		error: 'Connection ID: contains a line break or another control character',
	},
	{
		op: 'person.create',
		set: { credentialId: V },
		good: 'cred-other',
		bad: { id: 'cred-other' },
		error: 'Connection ID: must be text, not an object or a list',
	},
	// Person › Get Many
	{
		op: 'person.getAll',
		set: { limit: V },
		good: 5,
		bad: 'ten',
		error: 'Limit: must be a number, got "ten"',
	},
	{
		op: 'person.getAll',
		set: { limit: V },
		good: 5,
		bad: 0,
		error: 'Limit: must be at least 1, got 0',
	},
	{
		op: 'person.getAll',
		set: { limit: V },
		good: 5,
		bad: 2.5,
		error: 'Limit: must be a whole number, got 2.5',
	},
	{
		op: 'person.getAll',
		set: { options: { pageSize: V } },
		good: 100,
		bad: 101,
		error: 'Options › Page Size: must be between 1 and 100, got 101',
	},
	{
		op: 'person.getAll',
		set: { returnAll: V },
		good: false,
		bad: 'maybe',
		error: 'Return All: must be true or false, got "maybe"',
	},
	{
		op: 'person.getAll',
		set: { options: { queryParameters: { parameters: [{ name: V, value: 'Lead' }] } } },
		good: 'stage',
		bad: 'offset',
		error:
			'Options › Query Parameters › offset: cannot be set here: paging sets limit, offset, next itself (use Return All, Limit and Page Size instead)',
	},
	{
		op: 'person.getAll',
		set: { options: { queryParameters: { parameters: [{ name: 'stage', value: V }] } } },
		good: 'Lead',
		bad: '',
		error: 'Options › Query Parameters › stage: has no value',
	},
	{
		op: 'person.getAll',
		set: { credentialId: V },
		good: 'cred-default',
		bad: 'cred-default\n',
		error: 'Connection ID: contains a line break or another control character',
	},
	// Authorization Link › Create
	{
		op: 'authorizationLink.create',
		set: { appKey: V },
		good: 'my-app',
		bad: '',
		error: 'App Key: is required but empty',
	},
	{
		op: 'authorizationLink.create',
		set: { appKey: V },
		good: 'my-app',
		bad: '   ',
		error: 'App Key: is required but empty',
	},
	{
		op: 'authorizationLink.create',
		set: { additionalFields: { customParams: V } },
		good: '{"tenant": "acme"}',
		bad: '{tenant: acme}',
		error: 'Additional Fields › Custom Params: is not valid JSON',
	},
	{
		op: 'authorizationLink.create',
		set: { additionalFields: { customParams: V } },
		good: '{}',
		bad: '[1, 2]',
		error:
			'Additional Fields › Custom Params: must be a JSON object like {"key": "value"}, got a list',
	},
	{
		op: 'authorizationLink.create',
		set: { additionalFields: { entitiesToSync: { calls: V } } },
		good: 'true',
		bad: 'maybe',
		error: 'Additional Fields › Entities to Sync › Calls: must be true or false, got "maybe"',
	},
	// Credential › Create
	{
		op: 'credential.create',
		set: { appKey: V },
		good: 'my-app',
		bad: '',
		error: 'App Key: is required but empty',
	},
	{
		op: 'credential.create',
		set: { userInputs: V },
		good: '{"apiKey": "k"}',
		bad: '',
		error: 'User Inputs: is required but empty; give a JSON object such as {"key": "value"}',
	},
	{
		op: 'credential.create',
		set: { userInputs: V },
		good: '{"apiKey": "k"}',
		bad: '"k"',
		error: 'User Inputs: must be a JSON object like {"key": "value"}, got a string',
	},
	{
		op: 'credential.create',
		set: { userInputs: V },
		good: '{"apiKey": "k"}',
		bad: 'null',
		error: 'User Inputs: must be a JSON object like {"key": "value"}, got null',
	},
	{
		op: 'credential.create',
		set: { userInputs: V },
		good: '{"apiKey": "k"}',
		bad: '{"apiKey":',
		error: 'User Inputs: is not valid JSON',
	},
	{
		op: 'credential.create',
		set: { additionalFields: { entitiesToSync: { notes: V } } },
		good: false,
		bad: 'yes',
		error: 'Additional Fields › Entities to Sync › Notes: must be true or false, got "yes"',
	},
	// Credential › Update
	{
		op: 'credential.update',
		set: { credentialToUpdate: V },
		good: 'cred-other',
		bad: '',
		error: 'Credential ID: is required but empty',
	},
	{
		op: 'credential.update',
		set: { credentialToUpdate: V },
		good: 'cred-other',
		bad: '..',
		error: 'Credential ID: ".." is not a valid ID',
	},
	{
		op: 'credential.update',
		set: { credentialToUpdate: V },
		good: 'cred-other',
		bad: 'cred-\nother',
		error: 'Credential ID: contains a line break or another control character',
	},
	{
		op: 'credential.update',
		set: { entitiesToSync: { notes: V } },
		good: true,
		bad: 'sometimes',
		error: 'Entities to Sync › Notes: must be true or false, got "sometimes"',
	},
	// Borrower › Update
	{
		op: 'borrower.update',
		set: { borrowerId: V },
		good: 'b-1',
		bad: '',
		error: 'Borrower ID: is required but empty',
	},
	{
		op: 'borrower.update',
		set: { borrowerId: V },
		good: 'b-1',
		bad: '.',
		error: 'Borrower ID: "." is not a valid ID',
	},
	{
		op: 'borrower.update',
		set: { borrowerId: V },
		good: 'b-1',
		bad: 'b-\r1',
		error: 'Borrower ID: contains a line break or another control character',
	},
	{
		op: 'borrower.update',
		set: { updateFields: { name: V } },
		good: 'Jane',
		bad: '',
		error: 'Update Fields: add at least one field',
	},
	{
		op: 'borrower.update',
		set: { updateFields: { bio: V } },
		good: '{"maritalStatus": "married"}',
		bad: '[]',
		error: 'Update Fields › Bio: must be a JSON object like {"key": "value"}, got a list',
	},
	{
		op: 'borrower.update',
		set: { updateFields: { bio: V } },
		good: '{}',
		bad: "{'single': 'quotes'}",
		error: 'Update Fields › Bio: is not valid JSON',
	},
	{
		op: 'borrower.update',
		set: { updateFields: { phones: { values: [{ value: V, type: 'mobile' }] } } },
		good: '+1 555 0100',
		bad: ' ',
		error: 'Update Fields › Phones › entry 1: has no value',
	},
	{
		op: 'borrower.update',
		set: { credentialId: V },
		good: 'cred-default',
		bad: 'cred-default\r\n',
		error: 'Connection ID: contains a line break or another control character',
	},
	// Document › Create
	docRequired('name', 'Name'),
	docRequired('category', 'Category'),
	docRequired('status', 'Status'),
	docRequired('type', 'Type'),
	docRequired('fileUrl', 'File URL'),
	docRequired('mimeType', 'MIME Type'),
	docRequired('fileSignature', 'File Signature'),
	docRequired('folderId', 'Folder ID'),
	{
		op: 'document.create',
		set: { additionalFields: { fileSize: V } },
		good: 1024,
		bad: 'big',
		error: 'Additional Fields › File Size: must be a number, got "big"',
	},
	{
		op: 'document.create',
		set: { additionalFields: { fileSize: V } },
		good: 0,
		bad: -1,
		error: 'Additional Fields › File Size: must not be negative',
	},
	{
		op: 'document.create',
		set: { additionalFields: { signedBy: V } },
		good: '[{"name": "Jane"}]',
		bad: '{"name": "Jane"}',
		error:
			'Additional Fields › Signed By: must be a JSON list of objects like [{"key": "value"}], got an object',
	},
	{
		op: 'document.create',
		set: { additionalFields: { signedBy: V } },
		good: '[]',
		bad: '[1, 2]',
		error:
			'Additional Fields › Signed By: must be a JSON list of objects like [{"key": "value"}], got a list',
	},
	{
		op: 'document.create',
		set: { additionalFields: { signedBy: V } },
		good: '[]',
		bad: '[{',
		error: 'Additional Fields › Signed By: is not valid JSON',
	},
	{
		op: 'document.create',
		set: { additionalFields: { isSigned: V } },
		good: true,
		bad: 'yes',
		error: 'Additional Fields › Is Signed: must be true or false, got "yes"',
	},
	{
		op: 'document.create',
		set: { credentialId: V },
		good: 'cred-other',
		bad: 'cred-other\u007f',
		error: 'Connection ID: contains a line break or another control character',
	},
	// Webhook › Update
	{
		op: 'webhook.update',
		set: { webhookId: V },
		good: 'w-1',
		bad: '',
		error: 'Webhook ID: is required but empty',
	},
	{
		op: 'webhook.update',
		set: { webhookId: V },
		good: 'w-1',
		bad: '..',
		error: 'Webhook ID: ".." is not a valid ID',
	},
	{
		op: 'webhook.update',
		set: { updateFields: { url: V } },
		good: 'https://example.test/h',
		bad: '',
		error: 'Update Fields: add at least one field',
	},
	{
		op: 'webhook.update',
		set: { updateFields: { filters: V } },
		good: '{"stage": "Lead"}',
		bad: '[]',
		error: 'Update Fields › Filters: must be a JSON object like {"key": "value"}, got a list',
	},
	{
		op: 'webhook.update',
		set: { updateFields: { filters: V } },
		good: '{}',
		bad: 'stage=Lead',
		error: 'Update Fields › Filters: is not valid JSON',
	},
	{
		op: 'webhook.update',
		set: { credentialId: V },
		good: 'cred-default',
		bad: 'cred-default\rX: 1',
		error: 'Connection ID: contains a line break or another control character',
	},
	// A header value the HTTP client would alter (Latin-1 only, conn-東京 became conn-) is refused, never sent changed.
	{
		op: 'person.create',
		set: { credentialId: V },
		good: 'cred-other',
		bad: 'conn-東京',
		error: NOT_SENDABLE,
	},
	{
		op: 'person.getAll',
		set: { credentialId: V },
		good: 'cred-default',
		bad: 'conn-🔑',
		error: NOT_SENDABLE,
	},
	{
		op: 'borrower.update',
		set: { credentialId: V },
		good: 'cred-default',
		bad: 'conn-İd',
		error: NOT_SENDABLE,
	},
	{
		op: 'document.create',
		set: { credentialId: V },
		good: 'cred-other',
		bad: 'conn-é',
		error: NOT_SENDABLE,
	},
	{
		op: 'webhook.update',
		set: { credentialId: V },
		good: 'cred-default',
		bad: 'conn\u00a0default',
		error: NOT_SENDABLE,
	},
	// Request Options (read for the first item)
	{
		op: 'person.create',
		set: { requestOptions: { ...FAST, maxAttempts: V } },
		good: 2,
		bad: 'many',
		error: 'Request Options › Max Attempts: must be a number, got "many"',
	},
	{
		op: 'borrower.update',
		set: { requestOptions: { ...FAST, maxAttempts: V } },
		good: 2,
		bad: 0,
		error: 'Request Options › Max Attempts: must be between 1 and 20, got 0',
	},
];

/** Merges `set` into the valid parameters one level deep (collections keep their other fields). */
function parametersFor(testCase: BadCase): INodeParameters {
	const base = { ...VALID[testCase.op], requestOptions: FAST } as IDataObject;
	for (const [key, value] of Object.entries(testCase.set)) {
		const current = base[key];
		base[key] =
			value &&
			typeof value === 'object' &&
			!Array.isArray(value) &&
			current &&
			typeof current === 'object' &&
			!Array.isArray(current)
				? { ...(current as IDataObject), ...(value as IDataObject) }
				: (value as IDataObject[keyof IDataObject]);
	}
	return base as INodeParameters;
}

const fieldOf = (message: string) => message.slice(0, message.indexOf(':'));

/** The whole message, or (for an expectation ending in "…") its start; always ending with the item. */
function expectMessage(actual: unknown, expected: string, itemIndex: number): void {
	if (expected.endsWith('…')) {
		expect(actual).toEqual(
			expect.stringMatching(
				new RegExp(`^${escapeRegExp(expected.slice(0, -1))}.+\\) \\(item ${itemIndex}\\)$`),
			),
		);
	} else {
		expect(actual).toBe(`${expected} (item ${itemIndex})`);
	}
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const requestOptionCase = (testCase: BadCase) => 'requestOptions' in testCase.set;

test(`the table has at least 40 bad inputs across all six resources (${CASES.length})`, () => {
	expect(CASES.length).toBeGreaterThanOrEqual(40);
	expect(new Set(CASES.map((testCase) => testCase.op.split('.')[0]))).toEqual(
		new Set(['person', 'authorizationLink', 'credential', 'borrower', 'document', 'webhook']),
	);
	expect(new Set(CASES.map((testCase) => testCase.op))).toEqual(new Set(Object.keys(VALID)));
});

describe.each(
	CASES.map(
		(testCase, index) =>
			[
				`${testCase.op} ${fieldOf(testCase.error)} = ${JSON.stringify(testCase.bad)}`,
				index,
				testCase,
			] as const,
	),
)('%s', (_label, index, testCase) => {
	const parameters = parametersFor(testCase);

	test('next to a good item under Continue On Fail: one error item for it, nothing sent for it', async () => {
		// Request Options are node-wide (read for the first item): there the bad value goes first.
		const badFirst = requestOptionCase(testCase);
		const onError = index % 2 === 0 ? 'continueRegularOutput' : 'continueErrorOutput';
		const result = await runNode({
			parameters,
			credentials: sandboxCredentials(sandbox),
			items: badFirst
				? [{ v: testCase.bad }, { v: testCase.good }]
				: [{ v: testCase.good }, { v: testCase.bad }],
			onError,
		});
		if (badFirst) {
			// A bad node-wide option fails every item alike: one error item each, nothing sent at all.
			expect(result.error).toBeUndefined();
			const failed = [...result.items, ...result.errorItems];
			expect(failed.map(pairedIndex)).toEqual([0, 1]);
			failed.forEach((item, itemIndex) => {
				expectMessage(item.json.error, testCase.error, 0);
				expect(item.json.details).toEqual({ itemIndex });
			});
			expect(sandbox.requests).toHaveLength(0);
			return;
		}

		expect(result.error).toBeUndefined();
		const all = [...result.items, ...result.errorItems];
		const good = all.filter((item) => pairedIndex(item) === 0);
		const bad = all.filter((item) => pairedIndex(item) === 1);
		expect(good.length).toBeGreaterThanOrEqual(1);
		expect(good.some((item) => typeof item.json.error === 'string')).toBe(false);
		expect(bad).toHaveLength(1);
		expectMessage(bad[0].json.error, testCase.error, 1);
		expect(bad[0].json.details).toEqual({ itemIndex: 1 });
		if (onError === 'continueRegularOutput') {
			expect(isErrorItem(bad[0])).toBe(true);
			expect(result.items.map(pairedIndex)).toEqual([...good.map(() => 0), 1]);
		} else {
			expect(result.errorItems).toEqual(bad);
		}
		// The good item's request only.
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0].status).toBeGreaterThanOrEqual(200);
		expect(sandbox.requests[0].status).toBeLessThan(300);
	});

	test('alone without Continue On Fail: the node stops naming the field and item 0, nothing sent', async () => {
		const result = await runNode({
			parameters,
			credentials: sandboxCredentials(sandbox),
			items: [{ v: testCase.bad }],
		});

		expectMessage(result.error?.message, testCase.error, 0);
		expect(result.error?.name).toBe('NodeOperationError');
		expect(sandbox.requests).toHaveLength(0);
	});
});

describe('ids stay one path segment', () => {
	test.each([
		['borrower.update', 'borrowerId', 'a/b', '/api/borrowers/a%2Fb'],
		['borrower.update', 'borrowerId', '../documents', '/api/borrowers/..%2Fdocuments'],
		['webhook.update', 'webhookId', 'w-1?event=x#frag', '/api/webhooks/w-1%3Fevent%3Dx%23frag'],
		['webhook.update', 'webhookId', '%2e%2e', '/api/webhooks/%252e%252e'],
		[
			'credential.update',
			'credentialToUpdate',
			'cred other/../x',
			'/api/credentials/cred%20other%2F..%2Fx',
		],
	] as const)('%s %s = %j is sent as %s', async (op, field, id, path) => {
		const result = await runNode({
			parameters: { ...VALID[op], [field]: id, requestOptions: FAST },
			credentials: sandboxCredentials(sandbox),
			onError: 'continueRegularOutput',
		});

		expect(sandbox.requests.map((request) => request.path)).toEqual([path]);
		// The sandbox has no such record: the id reached the intended endpoint as one value.
		expect(result.items[0].json.error).toMatch(
			/^Not found \(HTTP 404\): (borrower|webhook|credential) not found \(item 0\)$/,
		);
		expect(result.items[0].json.details).toMatchObject({ itemIndex: 0, httpCode: '404' });
	});
});

describe('the credential refuses host URLs that are not http(s)', () => {
	test.each([
		['person.create', 'crmUrl', 'CRM Host URL', 'ftp://127.0.0.1:21'],
		['person.getAll', 'crmUrl', 'CRM Host URL', 'crm.example.com'],
		['credential.create', 'universalUrl', 'Universal Host URL', 'javascript:alert(1)'],
		['borrower.update', 'losUrl', 'LOS Host URL', 'file:///etc/passwd'],
		['webhook.update', 'calendarUrl', 'Calendar Host URL', ''],
	] as const)('%s with %s = %j: clear error, nothing sent', async (op, field, label, url) => {
		const result = await runNode({
			parameters: { ...VALID[op], requestOptions: FAST },
			credentials: sandboxCredentials(sandbox, { [field]: url }),
		});

		expect(result.error?.message).toBe(
			`The credential's ${label} must be an http:// or https:// URL (item 0)`,
		);
		expect(sandbox.requests).toHaveLength(0);
	});

	test('a line break in the access token is refused before anything is sent, without showing it', async () => {
		const token = 'abc-token\r\nX-Injected: 1';
		const result = await runNode({
			parameters: { ...VALID['person.create'], requestOptions: FAST },
			credentials: sandboxCredentials(sandbox, { accessToken: token }),
		});

		expect(result.error?.message).toMatch(
			/^The Integration Service credential's Access Token contains a line break; paste it again\./,
		);
		expect(JSON.stringify(result.run.data)).not.toContain('abc-token');
		expect(sandbox.requests).toHaveLength(0);
	});
});
