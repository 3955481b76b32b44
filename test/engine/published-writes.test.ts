/**
 * Create, Update and Delete of every published resource (issue 30), and List › Add People and Remove
 * People, through n8n's engine against the sandbox, driven from the catalogue: each test is built
 * from the entry's host, path, ID and fields, and asserts the whole wire (method, URL, headers, body)
 * and the output items.
 */
import type { IDataObject, INodeParameters, NodeParameterValueType } from 'n8n-workflow';

import type { FieldSpec, ResourceSpec } from '../../nodes/shared/catalogue';
import { fieldsFor } from '../../nodes/shared/catalogue';
import { resourceSpec, RESOURCES } from '../../nodes/shared/catalogue';
import { expectRequest, operationRunner, useSandbox } from '../harness/fixtures';
import { ENTITIES } from '../sandbox/entityTable';
import type { HostName, Sandbox } from '../sandbox/server';

/** The entries of the service's CRM, LOS and calendar pages (crm-endpoints.md and the pages decisions.md cites). */
const PUBLISHED_RESOURCES = RESOURCES.filter((resource) => resource.source !== undefined);

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), { people: 5 });

const CONNECTION = 'cred-other';
const FAST = { initialRetryDelay: 10 };
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** A parameter value of each field type, and what the wire carries for it. */
function sample(field: FieldSpec): { parameter: NodeParameterValueType; wire: unknown } {
	switch (field.type) {
		case 'number':
			return { parameter: 2, wire: 2 };
		case 'boolean':
			return { parameter: true, wire: true };
		case 'stringList':
			return { parameter: ['a', 'b'], wire: ['a', 'b'] };
		case 'json':
			return {
				parameter: '{"name": "Ann", "email": "ann@example.test"}',
				wire: { name: 'Ann', email: 'ann@example.test' },
			};
		case 'jsonArray':
			// A Loan's borrower's lists as JSON parts: read as Borrower › Create reads its lists.
			if (field.name === 'emails' || field.name === 'phones')
				return {
					parameter: '[{"value": "bo@example.test"}]',
					wire: [{ value: 'bo@example.test' }],
				};
			if (field.name === 'addresses')
				return { parameter: '[{"city": "Austin"}]', wire: [{ city: 'Austin' }] };
			return {
				parameter: '[{"name": "Bo", "email": "bo@example.test"}]',
				wire: [{ name: 'Bo', email: 'bo@example.test' }],
			};
		case 'emails':
		case 'phones':
			return {
				parameter: { values: [{ value: 'ann@example.test', type: 'work' }] },
				wire: [{ value: 'ann@example.test', type: 'work' }],
			};
		case 'addresses':
			return { parameter: { values: [{ city: 'Austin' }] }, wire: [{ city: 'Austin' }] };
		case 'objectList':
		case 'conditionGroups': {
			// One entry of the `values` collection, each part sampled as its own field.
			const parts = (field.items ?? []).map((part) => [part.name, sample(part)] as const);
			const entry = Object.fromEntries(parts.map(([name, value]) => [name, value.parameter]));
			const wire = Object.fromEntries(parts.map(([name, value]) => [name, value.wire]));
			return field.type === 'objectList'
				? { parameter: { values: [entry] }, wire: [wire] }
				: { parameter: { values: [{ group: 1, ...entry }] }, wire: [[wire]] };
		}
		default:
			return { parameter: `${field.name} text`, wire: `${field.name} text` };
	}
}

/**
 * The published operations of the specification's own entities, from the same catalogue entries:
 * Borrower › Create and Document › Update (their other operations have their own suites).
 */
const OF_SPEC_ENTITIES: Record<string, string[]> = { create: ['borrower'], update: ['document'] };
const specEntity = (value: string) => ({
	...(resourceSpec(value) as ResourceSpec),
	source: "the service's public pages",
});
/** The CRM's webhooks live with the calendar's in the sandbox, not its entity table: crm-webhook.test.ts. */
const offered = (operation: string) =>
	[
		...PUBLISHED_RESOURCES.filter(
			(resource) => resource.operations.includes(operation) && resource.value !== 'crmWebhook',
		),
		...(OF_SPEC_ENTITIES[operation] ?? []).map(specEntity),
	].map((resource) => [resource.value, resource] as const);
/** The sandbox answers a record of the specification's entities with its service fields too. */
const isPublished = (resource: ResourceSpec) => PUBLISHED_RESOURCES.includes(resource);
const host = (resource: ResourceSpec) => resource.host as HostName;
/** A record every connection of the sandbox starts with (a document: put there for the test). */
function seededId(resource: ResourceSpec): string {
	if (resource.value === 'document') {
		sandbox.addDocument('cred-default', 'doc-seed-1', { name: 'W-2.pdf' });
		return 'doc-seed-1';
	}
	const def = ENTITIES.find((entity) => entity.path === resource.path.join('/'));
	return resource.value === 'loan' ? 'loan-7' : `${def?.idPrefix}-seed-1`;
}
const run = (resource: ResourceSpec, operation: string) =>
	operationRunner(() => sandbox, resource.value, operation);

describe('published resources: create', () => {
	test.each(offered('create'))(
		'%s › Create: POST with the required and one optional field, 201, the record',
		async (_v, resource) => {
			const fields = fieldsFor(resource, 'create');
			const required = fields.filter((field) => field.required);
			const optional = fields.find((field) => !field.required);
			const parameters: INodeParameters = { credentialId: CONNECTION };
			const body: Record<string, unknown> = {};
			for (const field of required) {
				parameters[field.name] = sample(field).parameter;
				body[field.name] = sample(field).wire;
			}
			if (resource.jsonBody) {
				parameters.jsonBody = '{"label": "Closing date", "type": "date"}';
				Object.assign(body, { label: 'Closing date', type: 'date' });
			} else if (optional) {
				parameters.additionalFields = { [optional.name]: sample(optional).parameter };
				body[optional.name] = sample(optional).wire;
			}
			const result = await run(resource, 'create')({ parameters });
			expect(result.error).toBeUndefined();
			expect(sandbox.requests).toHaveLength(1);
			expectRequest(sandbox, sandbox.requests[0], {
				host: host(resource),
				method: 'POST',
				url: `/api/${resource.path.join('/')}`,
				credentialId: CONNECTION,
				body,
				status: 201,
			});
			const record = { ...body, id: expect.any(String), created: expect.stringMatching(ISO_TIME) };
			expect(result.items).toEqual([
				{
					json: isPublished(resource) ? record : expect.objectContaining(record),
					pairedItem: { item: 0 },
				},
			]);
		},
	);
});

describe('published resources: a create is sent once, bad input never', () => {
	// A create is never re-sent after an answer that may mean it was processed (transport/errors.ts).
	test.each(offered('create'))(
		'%s › Create: a 500 after the service processed it is not sent again',
		async (_v, resource) => {
			sandbox.inject({ status: 500, count: 1, afterProcessing: true, match: { method: 'POST' } });
			const result = await run(
				resource,
				'create',
			)({
				parameters: {
					mappingMode: 'autoMapInputData',
					requestOptions: FAST,
					// A JSON-body entity's Body (JSON) left at {} is required but empty: never an empty record.
					...(resource.jsonBody ? { jsonBody: '{"label": "Closing date", "type": "date"}' } : {}),
				},
				items: [
					Object.fromEntries(
						fieldsFor(resource, 'create').map((f) => [f.name, sample(f).wire]),
					) as IDataObject,
				],
			});
			expect(sandbox.requests).toHaveLength(1);
			expect(result.error?.message).toMatch(
				/HTTP 500.*not sent twice: the service may already have processed it; check before running it again/,
			);
		},
	);

	test.each(offered('create').filter(([, resource]) => !resource.jsonBody))(
		'%s › Create: an input item without its fields is refused, nothing sent',
		async (_v, resource) => {
			const result = await run(
				resource,
				'create',
			)({ parameters: { mappingMode: 'autoMapInputData' }, items: [{ unrelated: 1 }] });
			// The first required field missing, or (none required) no field at all.
			expect(result.error?.message).toMatch(
				/^(Input Field "\w+": (is required but empty|add at least one \w+ \(the service requires this field\))|Map Automatically: the input item has none of the fields this operation sends)/,
			);
			expect(sandbox.requests).toHaveLength(0);
		},
	);

	test.each(offered('update').filter(([, resource]) => !resource.jsonBody))(
		'%s › Update: no field to change is refused, nothing sent',
		async (_v, resource) => {
			const result = await run(
				resource,
				'update',
			)({ parameters: { [resource.id?.name ?? '']: seededId(resource), updateFields: {} } });
			expect(result.error?.message).toMatch(/^Update Fields: add at least one field/);
			expect(sandbox.requests).toHaveLength(0);
		},
	);
});

describe('published resources: update', () => {
	test.each(offered('update'))(
		'%s › Update: PUT of the fields added, the changed record',
		async (_v, resource) => {
			const id = seededId(resource);
			const field = fieldsFor(resource, 'update').find((spec) => spec.type === 'string');
			const changes = resource.jsonBody ? { label: 'Renamed' } : { [field?.name ?? '']: 'changed' };
			const parameters = resource.jsonBody
				? { jsonBody: JSON.stringify(changes) }
				: { updateFields: changes };
			const result = await run(
				resource,
				'update',
			)({
				parameters: { [resource.id?.name ?? '']: id, ...parameters },
			});
			expect(result.error).toBeUndefined();
			expect(sandbox.requests).toHaveLength(1);
			expectRequest(sandbox, sandbox.requests[0], {
				host: host(resource),
				method: 'PUT',
				url: `/api/${resource.path.join('/')}/${id}`,
				credentialId: 'cred-default',
				body: changes,
			});
			expect(result.items).toEqual([
				{
					json: expect.objectContaining({
						...changes,
						id,
						updated: expect.stringMatching(ISO_TIME),
					}),
					pairedItem: { item: 0 },
				},
			]);
		},
	);
});

describe('published resources: delete', () => {
	test.each(offered('delete'))(
		'%s › Delete: DELETE, { id, deleted }; a second one is a 404 error item',
		async (_v, resource) => {
			const id = seededId(resource);
			const url = `/api/${resource.path.join('/')}/${id}`;
			const parameters = { [resource.id?.name ?? '']: id };
			const first = await run(resource, 'delete')({ parameters });
			expect(first.error).toBeUndefined();
			expect(first.items).toEqual([{ json: { id, deleted: true }, pairedItem: { item: 0 } }]);
			expect(sandbox.requests).toHaveLength(1);
			const request = sandbox.requests[0];
			expect(request).toMatchObject({
				host: host(resource),
				method: 'DELETE',
				url,
				rawBody: '',
				status: 200,
			});
			expect(request.headers['x-service-credential-id']).toBe('cred-default');
			expect(request.headers.authorization).toBe(`Bearer ${sandbox.token}`);
			const again = await run(resource, 'delete')({ parameters, onError: 'continueRegularOutput' });
			expect(sandbox.requests).toHaveLength(2);
			expect(again.items).toHaveLength(1);
			// The service's own words, from its {errorMessage} (CRM) or {error} body, not the raw JSON.
			const noun = ENTITIES.find((entity) => entity.path === resource.path.join('/'))?.noun;
			expect(again.items[0].json.error).toBe(`Not found (HTTP 404): ${noun} not found (item 0)`);
		},
	);

	// A delete is never re-sent after an answer that may mean it was processed (transport/errors.ts).
	test.each(offered('delete'))(
		'%s › Delete: a 500 after the service processed it is not sent again',
		async (_v, resource) => {
			sandbox.inject({ status: 500, count: 1, afterProcessing: true, match: { method: 'DELETE' } });
			const result = await run(
				resource,
				'delete',
			)({
				parameters: { [resource.id?.name ?? '']: seededId(resource), requestOptions: FAST },
			});
			expect(sandbox.requests).toHaveLength(1);
			expect(result.error?.message).toMatch(
				/HTTP 500.*not sent twice: the service may already have processed it; check before running it again/,
			);
		},
	);
});

describe('list members', () => {
	test.each([
		['addPeople', 'POST', 'peopleAdded', ['p_1', 'p_3'], ['p_2', 'p_1', 'p_3']],
		['removePeople', 'DELETE', 'peopleRemoved', ['p_2'], []],
	] as const)(
		'List › %s: %s /api/lists/{id}/people with personIds; answered 200 with no body, { id, %s }',
		async (operation, method, key, ids, after) => {
			const result = await operationRunner(
				() => sandbox,
				'list',
				operation,
			)({
				parameters: { listId: 'list-seed-2', personIds: [...ids] },
			});
			expect(result.error).toBeUndefined();
			expectRequest(sandbox, sandbox.requests[0], {
				host: 'crm',
				method,
				url: '/api/lists/list-seed-2/people',
				credentialId: 'cred-default',
				body: { personIds: ids },
			});
			// Built as Delete's output: the ID and the people changed, not the service's empty answer.
			expect(result.items).toEqual([
				{ json: { id: 'list-seed-2', [key]: ids }, pairedItem: { item: 0 } },
			]);
			const list = await operationRunner(
				() => sandbox,
				'list',
				'get',
			)({ parameters: { listId: 'list-seed-2' } });
			expect(list.items[0].json.peopleParticipantIds).toEqual(after);
		},
	);

	test('no Person IDs is an input error, and nothing is sent', async () => {
		const result = await operationRunner(
			() => sandbox,
			'list',
			'addPeople',
		)({
			parameters: { listId: 'list-seed-2', personIds: [] },
		});
		expect(result.error?.message).toMatch(/^Person IDs: add at least one value/);
		expect(sandbox.requests).toHaveLength(0);
	});
});
