/**
 * Credential › Create (POST {universal}/api/credentials) and Credential › Update
 * (PUT {universal}/api/credentials/{credentialId}) through n8n's engine against the sandbox.
 */
import { startSandbox, type RecordedRequest, type Sandbox } from '../sandbox/server';
import { runNode } from '../harness/engine';

const SEED_TIME = '2024-01-01T00:00:00.000Z';

let sandbox: Sandbox;
beforeAll(async () => {
	// Two extra connections whose IDs hold a slash, to prove an ID stays one path segment.
	sandbox = await startSandbox({ credentialIds: ['cred-default', 'cred-other', 'team/a', 'x/../y'] });
});
afterAll(async () => await sandbox.close());
beforeEach(() => sandbox.reset());

const credentials = () => ({
	crmUrl: sandbox.urls.crm,
	universalUrl: sandbox.urls.universal,
	losUrl: sandbox.urls.los,
	calendarUrl: sandbox.urls.calendar,
	credentialId: sandbox.defaultCredentialId,
	accessToken: sandbox.token,
});

/** The universal host gets the token and JSON, and never X-Service-Credential-Id (decisions.md). */
function expectUniversalRequest(
	request: RecordedRequest,
	expected: { method: string; url: string; body: unknown; status: number },
): void {
	expect(request.host).toBe('universal');
	expect(request.method).toBe(expected.method);
	expect(request.url).toBe(expected.url);
	expect(request.path).toBe(expected.url);
	expect(request.query).toEqual({});
	expect(request.headers.authorization).toBe(`Bearer ${sandbox.token}`);
	expect(request.headers['content-type']).toBe('application/json');
	expect(request.headers).not.toHaveProperty('x-service-credential-id');
	expect(request.body).toEqual(expected.body);
	expect(request.status).toBe(expected.status);
}

describe('credential › create', () => {
	test('every field: user inputs, credential key, plan, entity flags set true and false (unset ones omitted)', async () => {
		const result = await runNode({
			credentials: credentials(),
			parameters: {
				resource: 'credential',
				operation: 'create',
				appKey: 'crm-app',
				userInputs: '{"apiKey": "k-123", "account": {"id": 7}}',
				additionalFields: {
					credentialKey: 'end-user-42',
					plan: 'premium',
					entitiesToSync: { calendarEvents: true, tasks: false },
				},
			},
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
		expectUniversalRequest(sandbox.requests[0], {
			method: 'POST',
			url: '/api/credentials',
			status: 200,
			body: {
				appKey: 'crm-app',
				userInputs: { apiKey: 'k-123', account: { id: 7 } },
				credentialKey: 'end-user-42',
				plan: 'premium',
				entitiesToSync: { calendarEvents: true, tasks: false },
			},
		});
		expect(result.items).toEqual([{ json: { id: 'cred-1' }, pairedItem: { item: 0 } }]);
		expect(sandbox.count('credentials', 'cred-1')).toBe(1);
	});

	test('only the required App Key and User Inputs', async () => {
		const result = await runNode({
			credentials: credentials(),
			parameters: { resource: 'credential', operation: 'create', appKey: 'crm-app', userInputs: '{"apiKey": "k"}' },
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
		expectUniversalRequest(sandbox.requests[0], {
			method: 'POST',
			url: '/api/credentials',
			status: 200,
			body: { appKey: 'crm-app', userInputs: { apiKey: 'k' } },
		});
		expect(result.items).toEqual([{ json: { id: 'cred-1' }, pairedItem: { item: 0 } }]);
	});

	test('User Inputs may come from an expression as an object, per item', async () => {
		const result = await runNode({
			credentials: credentials(),
			items: [{ inputs: { apiKey: 'a' } }, { inputs: { apiKey: 'b' } }],
			parameters: { resource: 'credential', operation: 'create', appKey: 'crm-app', userInputs: '={{ $json.inputs }}' },
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.body)).toEqual([
			{ appKey: 'crm-app', userInputs: { apiKey: 'a' } },
			{ appKey: 'crm-app', userInputs: { apiKey: 'b' } },
		]);
		expect(result.items).toEqual([
			{ json: { id: 'cred-1' }, pairedItem: { item: 0 } },
			{ json: { id: 'cred-2' }, pairedItem: { item: 1 } },
		]);
	});

	test.each([
		['empty User Inputs', { userInputs: '' }, 'User Inputs: is required but empty'],
		['User Inputs that are not JSON', { userInputs: 'apiKey=k' }, 'User Inputs: is not valid JSON'],
		[
			'User Inputs that are a list',
			{ userInputs: '[]' },
			'User Inputs: must be a JSON object like {"key": "value"}, got a list (item 0)',
		],
		[
			'an App Key whose expression is empty',
			{ appKey: "={{ '' }}", userInputs: '{}' },
			'App Key: is required but empty (item 0)',
		],
	])('%s is an input error naming the field, and nothing is sent', async (_case, fields, message) => {
		const result = await runNode({
			credentials: credentials(),
			parameters: { resource: 'credential', operation: 'create', appKey: 'crm-app', ...fields },
		});
		expect(result.error?.message).toContain(message);
		expect(result.items).toEqual([]);
		expect(sandbox.requests).toHaveLength(0);
	});
});

describe('credential › update', () => {
	test('entity flags set true and false are sent; unset ones are omitted; the credential comes back', async () => {
		const result = await runNode({
			credentials: credentials(),
			parameters: {
				resource: 'credential',
				operation: 'update',
				credentialToUpdate: 'cred-other',
				entitiesToSync: { borrowers: true, documents: false, ponds: true },
			},
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
		expectUniversalRequest(sandbox.requests[0], {
			method: 'PUT',
			url: '/api/credentials/cred-other',
			status: 200,
			body: { entitiesToSync: { borrowers: true, documents: false, ponds: true } },
		});
		expect(result.items).toEqual([
			{
				json: {
					id: 'cred-other',
					createdAt: SEED_TIME,
					appKey: 'sandbox-app',
					label: 'Sandbox connection cred-other',
					data: { entitiesToSync: { borrowers: true, documents: false, ponds: true } },
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	test('only the required fields: the ID and a single flag', async () => {
		const result = await runNode({
			credentials: credentials(),
			parameters: {
				resource: 'credential',
				operation: 'update',
				credentialToUpdate: 'cred-default',
				entitiesToSync: { loans: false },
			},
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
		expectUniversalRequest(sandbox.requests[0], {
			method: 'PUT',
			url: '/api/credentials/cred-default',
			status: 200,
			body: { entitiesToSync: { loans: false } },
		});
		expect(result.items).toEqual([
			{
				json: {
					id: 'cred-default',
					createdAt: SEED_TIME,
					appKey: 'sandbox-app',
					label: 'Sandbox connection cred-default',
					data: { entitiesToSync: { loans: false } },
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	test('a credential created by Create can be updated with the ID it returned', async () => {
		const created = await runNode({
			credentials: credentials(),
			parameters: { resource: 'credential', operation: 'create', appKey: 'crm-app', userInputs: '{"apiKey": "k"}' },
		});
		const id = created.items[0].json.id as string;
		const updated = await runNode({
			credentials: credentials(),
			items: [{ id }],
			parameters: {
				resource: 'credential',
				operation: 'update',
				credentialToUpdate: '={{ $json.id }}',
				entitiesToSync: { notes: true },
			},
		});
		expect(updated.error).toBeUndefined();
		expect(sandbox.requests[1].url).toBe(`/api/credentials/${id}`);
		expect(updated.items[0].json).toMatchObject({ id, appKey: 'crm-app', data: { entitiesToSync: { notes: true } } });
	});

	test.each([
		['a/b-like ID "team/a"', 'team/a', '/api/credentials/team%2Fa'],
		['an ID "x/../y"', 'x/../y', '/api/credentials/x%2F..%2Fy'],
	])('%s stays one path segment and reaches that credential', async (_case, id, url) => {
		const result = await runNode({
			credentials: credentials(),
			parameters: { resource: 'credential', operation: 'update', credentialToUpdate: id, entitiesToSync: { teams: true } },
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0].url).toBe(url);
		expect(sandbox.requests[0].status).toBe(200);
		expect(result.items).toEqual([
			{
				json: {
					id,
					createdAt: SEED_TIME,
					appKey: 'sandbox-app',
					label: `Sandbox connection ${id}`,
					data: { entitiesToSync: { teams: true } },
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	test.each([
		['an ID of ".."', { credentialToUpdate: '..' }, 'Credential ID: ".." is not a valid ID (item 0)'],
		['an ID of "."', { credentialToUpdate: '.' }, 'Credential ID: "." is not a valid ID (item 0)'],
		['an ID whose expression is empty', { credentialToUpdate: "={{ '' }}" }, 'Credential ID: is required but empty (item 0)'],
		[
			'no entity flag at all',
			{ entitiesToSync: {} },
			'Entities to Sync: add at least one flag (the service requires this field) (item 0)',
		],
	])('%s is an input error naming the field, and nothing is sent', async (_case, fields, message) => {
		const result = await runNode({
			credentials: credentials(),
			parameters: {
				resource: 'credential',
				operation: 'update',
				credentialToUpdate: 'cred-default',
				entitiesToSync: { loans: true },
				...fields,
			},
		});
		expect(result.error?.message).toContain(message);
		expect(result.items).toEqual([]);
		expect(sandbox.requests).toHaveLength(0);
	});

	test('an unknown credential is the service\'s 404, reported with the item', async () => {
		const result = await runNode({
			credentials: credentials(),
			parameters: { resource: 'credential', operation: 'update', credentialToUpdate: 'nope', entitiesToSync: { loans: true } },
		});
		expect(sandbox.requests).toHaveLength(1);
		expect(result.error?.message).toBe('Not found (HTTP 404): credential not found (item 0)');
	});
});
