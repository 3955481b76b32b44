/** Authorization Link › Create through n8n's engine against the sandbox (POST {universal}/api/oauth/authorize-url). */
import { expectInputError, expectRequest, operationRunner, useSandbox } from '../harness/fixtures';
import type { Sandbox } from '../sandbox/server';

/**
 * Where every request of Authorization Link › Create goes: the universal host,
 * which never gets X-Service-Credential-Id (decisions.md).
 */
const AUTHORIZE_URL = {
	host: 'universal',
	method: 'POST',
	url: '/api/oauth/authorize-url',
	credentialId: null,
} as const;

/** What the sandbox answers to the n-th authorization request since the last reset. */
function link(n: number) {
	return { url: `https://auth.example.test/authorize?request=req_${n}`, requestId: `req_${n}` };
}

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started));
const createLink = operationRunner(() => sandbox, 'authorizationLink', 'create');

describe('authorization link › create', () => {
	test('every field: plan, custom params, entity flags set true and false (unset ones omitted), return URI', async () => {
		const result = await createLink({
			parameters: {
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
		expectRequest(sandbox, sandbox.requests[0], {
			...AUTHORIZE_URL,
			body: {
				appKey: 'crm-app',
				plan: 'premium',
				customParams: { tenant: 'acme', seats: 3, nested: { a: [1, 2] } },
				entitiesToSync: { borrowers: true, documents: false, peopleRelationships: true },
				returnURI: 'https://example.com/connected?x=1',
			},
		});
		expect(result.items).toEqual([{ json: link(1), pairedItem: { item: 0 } }]);
	});

	test('only the required App Key: the body holds nothing else', async () => {
		const result = await createLink({ parameters: { appKey: 'crm-app' } });
		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
		expectRequest(sandbox, sandbox.requests[0], { ...AUTHORIZE_URL, body: { appKey: 'crm-app' } });
		expect(result.items).toEqual([{ json: link(1), pairedItem: { item: 0 } }]);
	});

	test('added but empty optional fields are not sent; an entity flags control with no flag is not sent', async () => {
		const result = await createLink({
			parameters: {
				appKey: 'crm-app',
				additionalFields: { plan: '', returnURI: '', customParams: '', entitiesToSync: {} },
			},
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.body)).toEqual([{ appKey: 'crm-app' }]);
	});

	test('one request per item, each paired with its item, values read per item', async () => {
		const result = await createLink({
			items: [
				{ app: 'app-a', on: true },
				{ app: 'app-b', on: false },
			],
			parameters: {
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
			{ json: link(1), pairedItem: { item: 0 } },
			{ json: link(2), pairedItem: { item: 1 } },
		]);
	});

	test.each([
		// A literal empty required field is refused by n8n itself; an expression can still give one.
		[
			'an App Key whose expression is empty',
			{ appKey: "={{ '' }}" },
			'App Key: is required but empty (item 0)',
		],
		[
			'an App Key that is an object',
			{ appKey: '={{ { a: 1 } }}' },
			'App Key: must be text, not an object or a list (item 0)',
		],
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
	])(
		'%s is an input error naming the field, and nothing is sent',
		async (_case, fields, message) => {
			const result = await createLink({ parameters: fields });
			expectInputError(sandbox, result, expect.stringContaining(message));
		},
	);
});
