/** Authorization Link › Create through n8n's engine against the sandbox (POST {universal}/api/oauth/authorize-url). */
import { startSandbox, type RecordedRequest, type Sandbox } from '../sandbox/server';
import { runNode } from '../harness/engine';

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox();
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
function expectUniversalRequest(request: RecordedRequest, body: unknown): void {
	expect(request.host).toBe('universal');
	expect(request.method).toBe('POST');
	expect(request.url).toBe('/api/oauth/authorize-url');
	expect(request.query).toEqual({});
	expect(request.headers.authorization).toBe(`Bearer ${sandbox.token}`);
	expect(request.headers['content-type']).toBe('application/json');
	expect(request.headers).not.toHaveProperty('x-service-credential-id');
	expect(request.body).toEqual(body);
	expect(request.status).toBe(200);
}

describe('authorization link › create', () => {
	test('every field: plan, custom params, entity flags set true and false (unset ones omitted), return URI', async () => {
		const result = await runNode({
			credentials: credentials(),
			parameters: {
				resource: 'authorizationLink',
				operation: 'create',
				appKey: 'crm-app',
				additionalFields: {
					plan: 'premium',
					customParams: '{"tenant": "acme", "seats": 3, "nested": {"a": [1, 2]}}',
					entitiesToSync: { borrowers: true, documents: false, peopleRelationships: true },
					returnURI: 'https://example.com/connected?x=1',
				},
			},
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
		expectUniversalRequest(sandbox.requests[0], {
			appKey: 'crm-app',
			plan: 'premium',
			customParams: { tenant: 'acme', seats: 3, nested: { a: [1, 2] } },
			entitiesToSync: { borrowers: true, documents: false, peopleRelationships: true },
			returnURI: 'https://example.com/connected?x=1',
		});
		expect(result.items).toEqual([
			{
				json: { url: 'https://auth.example.test/authorize?request=req_1', requestId: 'req_1' },
				pairedItem: { item: 0 },
			},
		]);
	});

	test('only the required App Key: the body holds nothing else', async () => {
		const result = await runNode({
			credentials: credentials(),
			parameters: { resource: 'authorizationLink', operation: 'create', appKey: 'crm-app' },
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
		expectUniversalRequest(sandbox.requests[0], { appKey: 'crm-app' });
		expect(result.items).toEqual([
			{
				json: { url: 'https://auth.example.test/authorize?request=req_1', requestId: 'req_1' },
				pairedItem: { item: 0 },
			},
		]);
	});

	test('added but empty optional fields are not sent; an entity flags control with no flag is not sent', async () => {
		const result = await runNode({
			credentials: credentials(),
			parameters: {
				resource: 'authorizationLink',
				operation: 'create',
				appKey: 'crm-app',
				additionalFields: { plan: '', returnURI: '', customParams: '', entitiesToSync: {} },
			},
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.body)).toEqual([{ appKey: 'crm-app' }]);
	});

	test('one request per item, each paired with its item, values read per item', async () => {
		const result = await runNode({
			credentials: credentials(),
			items: [{ app: 'app-a', on: true }, { app: 'app-b', on: false }],
			parameters: {
				resource: 'authorizationLink',
				operation: 'create',
				appKey: '={{ $json.app }}',
				additionalFields: { entitiesToSync: { loans: '={{ $json.on }}' } },
			},
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.body)).toEqual([
			{ appKey: 'app-a', entitiesToSync: { loans: true } },
			{ appKey: 'app-b', entitiesToSync: { loans: false } },
		]);
		expect(result.items).toEqual([
			{ json: { url: 'https://auth.example.test/authorize?request=req_1', requestId: 'req_1' }, pairedItem: { item: 0 } },
			{ json: { url: 'https://auth.example.test/authorize?request=req_2', requestId: 'req_2' }, pairedItem: { item: 1 } },
		]);
	});

	test.each([
		// A literal empty required field is refused by n8n itself; an expression can still give one.
		['an App Key whose expression is empty', { appKey: "={{ '' }}" }, 'App Key: is required but empty (item 0)'],
		['an App Key that is an object', { appKey: '={{ { a: 1 } }}' }, 'App Key: must be text, not an object or a list (item 0)'],
		[
			'Custom Params that are not JSON',
			{ appKey: 'crm-app', additionalFields: { customParams: '{tenant: acme}' } },
			'Custom Params: is not valid JSON',
		],
		[
			'Custom Params that are a list',
			{ appKey: 'crm-app', additionalFields: { customParams: '[{"a": 1}]' } },
			'Custom Params: must be a JSON object like {"key": "value"}, got a list (item 0)',
		],
		[
			'an entity flag that is not true or false',
			{ appKey: 'crm-app', additionalFields: { entitiesToSync: { loans: 'yes' } } },
			'Entities to Sync › Loans: must be true or false, got "yes" (item 0)',
		],
	])('%s is an input error naming the field, and nothing is sent', async (_case, fields, message) => {
		const result = await runNode({
			credentials: credentials(),
			parameters: { resource: 'authorizationLink', operation: 'create', ...fields },
		});
		expect(result.error?.message).toContain(message);
		expect(result.items).toEqual([]);
		expect(sandbox.requests).toHaveLength(0);
	});
});
