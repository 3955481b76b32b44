/**
 * Person › Add Tags and Remove Tags, List › Add People and Remove People output what they changed,
 * built as Delete's output is: `{ id, tagsAdded | tagsRemoved | peopleAdded | peopleRemoved }`
 * (decisions.md, "Create, Update and Delete of the published entities"). The published endpoints
 * answer 200 with no body (the sandbox's answers: person-published.test.ts, published-writes.test.ts);
 * here a CRM answers 204, or a body of its own, which is not output. Through n8n's engine against a
 * scripted server on 127.0.0.1, the wire and the output items asserted.
 */
import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../harness/engine';
import { credentialsFor, sendJson, useHostile } from '../hostile/server';

const service = useHostile();

/** Each operation: its resource, ID parameter and ID, the names' parameter, the request and the output key. */
const CHANGES = [
	[
		'person',
		'addTags',
		'personId',
		'p_2',
		'tags',
		'POST',
		'/api/people/p_2/tags/apply',
		'tagsAdded',
	],
	[
		'person',
		'removeTags',
		'personId',
		'p_2',
		'tags',
		'POST',
		'/api/people/p_2/tags/delete',
		'tagsRemoved',
	],
	[
		'list',
		'addPeople',
		'listId',
		'list-1',
		'personIds',
		'POST',
		'/api/lists/list-1/people',
		'peopleAdded',
	],
	[
		'list',
		'removePeople',
		'listId',
		'list-1',
		'personIds',
		'DELETE',
		'/api/lists/list-1/people',
		'peopleRemoved',
	],
] as const;

const NAMES = ['vip', 'p_7'];

async function change(
	resource: string,
	operation: string,
	idName: string,
	id: string,
	field: string,
) {
	return await runNode({
		credentials: credentialsFor(service.origin),
		parameters: {
			resource,
			operation,
			[idName]: id,
			[field]: [...NAMES],
			credentialId: 'conn-9',
			requestOptions: { maxAttempts: 1 },
		},
	});
}

describe.each(CHANGES)('%s › %s', (resource, operation, idName, id, field, method, url, key) => {
	test(`answered 204 with no body: ${method} ${url} once, the output { id, ${key} }`, async () => {
		service.script((_request, res) => {
			res.writeHead(204);
			res.end();
		});
		const result = await change(resource, operation, idName, id, field);

		expect(result.error).toBeUndefined();
		expect(service.received).toHaveLength(1);
		const [request] = service.received;
		expect(request).toMatchObject({ method, url });
		expect(request.headers['x-service-credential-id']).toBe('conn-9');
		expect(request.headers['content-type']).toBe('application/json');
		expect(JSON.parse(request.body)).toEqual({ [field]: NAMES });
		expect(result.items).toEqual([{ json: { id, [key]: NAMES }, pairedItem: { item: 0 } }]);
	});

	test('answered 200 with a body of its own: the same output, the body not output', async () => {
		service.script((_request, res) =>
			sendJson(res, 200, { id: 'other', ok: true, [field]: ['something-else'] } as IDataObject),
		);
		const result = await change(resource, operation, idName, id, field);

		expect(service.received).toHaveLength(1);
		expect(result.items).toEqual([{ json: { id, [key]: NAMES }, pairedItem: { item: 0 } }]);
	});

	test('answered 404: an error of the item, nothing output as changed', async () => {
		service.script((_request, res) => sendJson(res, 404, { errorMessage: 'not found' }));
		const result = await change(resource, operation, idName, id, field);

		expect(service.received).toHaveLength(1);
		expect(result.error?.message).toMatch(/^Not found \(HTTP 404\): not found/);
		expect(result.items).toEqual([]);
	});
});
