/**
 * Credential › Create (POST {universal}/api/credentials) and Credential › Update
 * (PUT {universal}/api/credentials/{credentialId}) through n8n's engine against the sandbox.
 */
import { expectInputError, expectRequest, operationRunner, useSandbox } from '../harness/fixtures';
import type { Sandbox } from '../sandbox/server';

const SEED_TIME = '2024-01-01T00:00:00.000Z';

/** A connection the sandbox seeds, as Update returns it once its entity flags are set. */
function seededConnection(id: string, entitiesToSync: Record<string, boolean>) {
	return {
		id,
		createdAt: SEED_TIME,
		appKey: 'sandbox-app',
		label: `Sandbox connection ${id}`,
		data: { entitiesToSync },
	};
}

/** Both operations call the universal host, which never gets X-Service-Credential-Id (decisions.md). */
const CREATE_REQUEST = {
	host: 'universal',
	credentialId: null,
	method: 'POST',
	url: '/api/credentials',
} as const;
const UPDATE_REQUEST = { host: 'universal', credentialId: null, method: 'PUT' } as const;

let sandbox: Sandbox;
// Two extra connections whose IDs hold a slash, to prove an ID stays one path segment.
useSandbox((started) => (sandbox = started), {
	credentialIds: ['cred-default', 'cred-other', 'team/a', 'x/../y'],
});
const createCredential = operationRunner(() => sandbox, 'credential', 'create');
const updateCredential = operationRunner(() => sandbox, 'credential', 'update');

describe('credential › create', () => {
	test('every field: user inputs, credential key, plan, entity flags set true and false (unset ones omitted)', async () => {
		const result = await createCredential({
			parameters: {
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
		expectRequest(sandbox, sandbox.requests[0], {
			...CREATE_REQUEST,
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
		const result = await createCredential({
			parameters: { appKey: 'crm-app', userInputs: '{"apiKey": "k"}' },
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
		expectRequest(sandbox, sandbox.requests[0], {
			...CREATE_REQUEST,
			body: { appKey: 'crm-app', userInputs: { apiKey: 'k' } },
		});
		expect(result.items).toEqual([{ json: { id: 'cred-1' }, pairedItem: { item: 0 } }]);
	});

	test('User Inputs left at {} are sent: the specification does not show what an application needs', async () => {
		const result = await createCredential({ parameters: { appKey: 'crm-app', userInputs: '{}' } });
		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
		expectRequest(sandbox, sandbox.requests[0], {
			...CREATE_REQUEST,
			body: { appKey: 'crm-app', userInputs: {} },
		});
	});

	test('User Inputs may come from an expression as an object, per item', async () => {
		const result = await createCredential({
			items: [{ inputs: { apiKey: 'a' } }, { inputs: { apiKey: 'b' } }],
			parameters: { appKey: 'crm-app', userInputs: '={{ $json.inputs }}' },
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
	])(
		'%s is an input error naming the field, and nothing is sent',
		async (_case, fields, message) => {
			const result = await createCredential({ parameters: { appKey: 'crm-app', ...fields } });
			expectInputError(sandbox, result, expect.stringContaining(message));
		},
	);
});

describe('credential › update', () => {
	test('entity flags set true and false are sent; unset ones are omitted; the credential comes back', async () => {
		const result = await updateCredential({
			parameters: {
				credentialToUpdate: 'cred-other',
				entitiesToSync: { borrowers: true, documents: false, ponds: true },
			},
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
		expectRequest(sandbox, sandbox.requests[0], {
			...UPDATE_REQUEST,
			url: '/api/credentials/cred-other',
			body: { entitiesToSync: { borrowers: true, documents: false, ponds: true } },
		});
		expect(result.items).toEqual([
			{
				json: seededConnection('cred-other', { borrowers: true, documents: false, ponds: true }),
				pairedItem: { item: 0 },
			},
		]);
	});

	test('only the required fields: the ID and a single flag', async () => {
		const result = await updateCredential({
			parameters: {
				credentialToUpdate: 'cred-default',
				entitiesToSync: { loans: false },
			},
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
		expectRequest(sandbox, sandbox.requests[0], {
			...UPDATE_REQUEST,
			url: '/api/credentials/cred-default',
			body: { entitiesToSync: { loans: false } },
		});
		expect(result.items).toEqual([
			{ json: seededConnection('cred-default', { loans: false }), pairedItem: { item: 0 } },
		]);
	});

	test('a credential created by Create can be updated with the ID it returned', async () => {
		const created = await createCredential({
			parameters: { appKey: 'crm-app', userInputs: '{"apiKey": "k"}' },
		});
		const id = created.items[0].json.id as string;
		const updated = await updateCredential({
			items: [{ id }],
			parameters: {
				credentialToUpdate: '={{ $json.id }}',
				entitiesToSync: { notes: true },
			},
		});
		expect(updated.error).toBeUndefined();
		expect(sandbox.requests[1].url).toBe(`/api/credentials/${id}`);
		expect(updated.items[0].json).toMatchObject({
			id,
			appKey: 'crm-app',
			data: { entitiesToSync: { notes: true } },
		});
	});

	test.each([
		['a/b-like ID "team/a"', 'team/a', '/api/credentials/team%2Fa'],
		['an ID "x/../y"', 'x/../y', '/api/credentials/x%2F..%2Fy'],
	])('%s stays one path segment and reaches that credential', async (_case, id, url) => {
		const result = await updateCredential({
			parameters: { credentialToUpdate: id, entitiesToSync: { teams: true } },
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0].url).toBe(url);
		expect(sandbox.requests[0].status).toBe(200);
		expect(result.items).toEqual([
			{ json: seededConnection(id, { teams: true }), pairedItem: { item: 0 } },
		]);
	});

	test.each([
		[
			'an ID of ".."',
			{ credentialToUpdate: '..' },
			'Credential ID: ".." is not a valid ID (item 0)',
		],
		['an ID of "."', { credentialToUpdate: '.' }, 'Credential ID: "." is not a valid ID (item 0)'],
		[
			'an ID whose expression is empty',
			{ credentialToUpdate: "={{ '' }}" },
			'Credential ID: is required but empty (item 0)',
		],
		[
			'no entity flag at all',
			{ entitiesToSync: {} },
			'Entities to Sync: add at least one flag (the service requires this field) (item 0)',
		],
	])(
		'%s is an input error naming the field, and nothing is sent',
		async (_case, fields, message) => {
			const result = await updateCredential({
				parameters: {
					credentialToUpdate: 'cred-default',
					entitiesToSync: { loans: true },
					...fields,
				},
			});
			expectInputError(sandbox, result, expect.stringContaining(message));
		},
	);

	test("an unknown credential is the service's 404, reported with the item", async () => {
		const result = await updateCredential({
			parameters: { credentialToUpdate: 'nope', entitiesToSync: { loans: true } },
		});
		expect(sandbox.requests).toHaveLength(1);
		expect(result.error?.message).toBe('Not found (HTTP 404): credential not found (item 0)');
	});
});
