/**
 * Person's published operations (issue 30): Get, Delete, Add Tags and Remove Tags through n8n's
 * engine against the sandbox, the whole wire and the output items asserted.
 */
import { expectRequest, operationRunner, useSandbox } from '../harness/fixtures';
import type { Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), { people: 5 });
const person = (operation: string) => operationRunner(() => sandbox, 'person', operation);

describe('person › published operations', () => {
	test.each([
		['addTags', 'apply', 'tagsAdded', ['vip', 'hot']],
		['removeTags', 'delete', 'tagsRemoved', ['vip']],
	] as const)(
		'%s: POST /api/people/{id}/tags/%s with tags; answered 200 with no body, { id, %s }',
		async (operation, path, key, tags) => {
			const before = (sandbox.people()[1].tags as string[]) ?? [];
			const result = await person(operation)({
				parameters: { personId: 'p_2', tags: [...tags], credentialId: 'cred-default' },
			});
			expect(result.error).toBeUndefined();
			expect(sandbox.requests).toHaveLength(1);
			expectRequest(sandbox, sandbox.requests[0], {
				host: 'crm',
				method: 'POST',
				url: `/api/people/p_2/tags/${path}`,
				credentialId: 'cred-default',
				body: { tags },
			});
			// Built as Delete's output: the ID and the tags changed, not the service's empty answer.
			expect(result.items).toEqual([{ json: { id: 'p_2', [key]: tags }, pairedItem: { item: 0 } }]);
			const after = sandbox.people()[1].tags as string[];
			if (operation === 'addTags') expect(after).toEqual(expect.arrayContaining([...tags]));
			else expect(after).toEqual(before.filter((tag) => tag !== 'vip'));
		},
	);

	test('Get reads one person; Delete removes it, a second Delete is a 404 error item', async () => {
		const got = await person('get')({ parameters: { personId: 'p_3' } });
		expect(got.error).toBeUndefined();
		expect(got.items[0].json).toMatchObject({ id: 'p_3' });
		expect(sandbox.requests[0]).toMatchObject({ method: 'GET', url: '/api/people/p_3' });
		const deleted = await person('delete')({ parameters: { personId: 'p_3' } });
		expect(deleted.items).toEqual([
			{ json: { id: 'p_3', deleted: true }, pairedItem: { item: 0 } },
		]);
		expect(sandbox.requests[1]).toMatchObject({
			method: 'DELETE',
			url: '/api/people/p_3',
			status: 200,
		});
		expect(sandbox.count('people', 'cred-default')).toBe(4);
		const again = await person('delete')({
			parameters: { personId: 'p_3' },
			onError: 'continueRegularOutput',
		});
		expect(String(again.items[0].json.error)).toMatch(/^Not found \(HTTP 404\).*person not found/);
	});

	test('Add Tags with no tags is an input error, and nothing is sent', async () => {
		const result = await person('addTags')({ parameters: { personId: 'p_2', tags: [] } });
		expect(result.error?.message).toMatch(/^Tags: add at least one value/);
		expect(sandbox.requests).toHaveLength(0);
	});
});
