/**
 * Every operation of the node, once per sandbox connection profile (test/sandbox/profiles.ts), walked
 * from the catalogue: the default shape, a connected system with numeric IDs (`"id": 11`, booleans as
 * 1/0) and one with UUIDs and `createdAt`/`updatedAt`. Each run gives the record's ID from the input
 * item (`{{ $json.id }}`), as a workflow passes on an ID another node output; the wire must name it
 * as its decimal digits (or its UUID) in one segment, and the output must keep it as the service
 * wrote it: 11 stays the number 11. The universal host's resources (Credential, Authorization Link)
 * take no X-Service-Credential-Id, so no profile applies to them: their own suites run them.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { RESOURCES, type ResourceSpec } from '../../nodes/shared/catalogue';
import { fieldsFor, type FieldSpec } from '../../nodes/shared/catalogue';
import { operationRunner, useSandbox } from '../harness/fixtures';
import { ENTITIES, seedRecord } from '../sandbox/entityTable';
import type { ProfileName } from '../sandbox/profiles';
import type { HostName, Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
const SYNCED = { notes: true, tasks: true, calls: true };
useSandbox((started) => (sandbox = started), {
	people: 3,
	connections: {
		'cred-numeric': { profile: 'numeric', entitiesToSync: SYNCED },
		'cred-uuid': { profile: 'uuid', entitiesToSync: SYNCED },
	},
});

/** The connection each profile is tried on: the default one is an ordinary sandbox connection. */
const CONNECTION: Record<ProfileName, string> = {
	default: 'cred-default',
	numeric: 'cred-numeric',
	uuid: 'cred-uuid',
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A value of each field type as an input item carries it (Map Automatically sends it as it is). */
function sample(field: FieldSpec): unknown {
	switch (field.type) {
		case 'number':
			return 2;
		case 'boolean':
			return true;
		case 'stringList':
			return ['a', 'b'];
		case 'json':
			return { name: 'Ann' };
		case 'jsonArray':
		case 'objectList':
			return [Object.fromEntries((field.items ?? []).map((part) => [part.name, sample(part)]))];
		case 'conditionGroups':
			return [[Object.fromEntries((field.items ?? []).map((part) => [part.name, sample(part)]))]];
		case 'emails':
		case 'phones':
			return [{ value: 'ann@example.test', type: 'work' }];
		case 'addresses':
			return [{ city: 'Austin' }];
		default:
			return `${field.name} text`;
	}
}

const def = (resource: ResourceSpec) =>
	ENTITIES.find(
		(entity) => entity.path === resource.path.join('/') && entity.host === resource.host,
	);

/** A record every connection starts with (a document: put there by the case). */
function storedId(resource: ResourceSpec): string {
	if (resource.value === 'person' || resource.value === 'customApiCall') return 'p_1';
	if (resource.value === 'borrower') return 'b-1';
	if (resource.value === 'webhook' || resource.value === 'crmWebhook') return 'w-1';
	if (resource.value === 'document') return 'doc-seed-1';
	if (resource.value === 'loan') return 'loan-7';
	return `${def(resource)?.idPrefix}-seed-1`;
}

interface Case {
	parameters: INodeParameters;
	item?: IDataObject;
	method: string;
	/** Path segments after /api, the record's ID where it goes (ID). */
	path: Array<string | typeof ID>;
	status: number;
}
const ID = Symbol('the record ID');

const DOCUMENT = {
	name: 'W-2.pdf',
	category: 'income',
	status: 'received',
	type: 'W2',
	fileUrl: 'https://files.example.test/w2.pdf',
	mimeType: 'application/pdf',
	fileSignature: 'sha256:9f86',
	folderId: 'folder-42',
};

/** Create or Update by Map Automatically: the required fields (or one) from the input item. */
function mapped(resource: ResourceSpec, operation: 'create' | 'update'): IDataObject {
	const fields = fieldsFor(resource, operation);
	const chosen = fields.filter((field) => field.required);
	if (chosen.length === 0)
		chosen.push(fields.find((field) => field.type === 'string') ?? fields[0]);
	return Object.fromEntries(chosen.map((field) => [field.name, sample(field)])) as IDataObject;
}

/** How an operation of a resource is run once, and the request it must send. */
function caseOf(resource: ResourceSpec, operation: string): Case | undefined {
	const idName = resource.id?.name ?? '';
	const byId = { [idName]: '={{ $json.id }}' };
	const path = [...resource.path];
	switch (`${resource.value} ${operation}`) {
		case 'person create':
			return { parameters: { firstName: 'Ada' }, method: 'POST', path, status: 200 };
		case 'borrower update':
			return {
				parameters: { ...byId, updateFields: { name: 'Jane' } },
				method: 'PUT',
				path: [...path, ID],
				status: 200,
			};
		case 'webhook update':
			return {
				parameters: { ...byId, updateFields: { event: 'peopleCreated' } },
				method: 'PUT',
				path: [...path, ID],
				status: 200,
			};
		case 'document create':
			return { parameters: { ...DOCUMENT }, method: 'POST', path, status: 201 };
		case 'person addTags':
		case 'person removeTags':
			return {
				parameters: { ...byId, tags: ['vip'] },
				method: 'POST',
				path: [...path, ID, 'tags', operation === 'addTags' ? 'apply' : 'delete'],
				status: 200,
			};
		case 'list addPeople':
		case 'list removePeople':
			return {
				parameters: { ...byId, personIds: '={{ [String($json.person)] }}' },
				method: operation === 'addPeople' ? 'POST' : 'DELETE',
				path: [...path, ID, 'people'],
				status: 200,
			};
		case 'customApiCall send':
			return {
				parameters: { host: 'crm', method: 'GET', path: '=people/{{ $json.id }}' },
				method: 'GET',
				path: ['people', ID],
				status: 200,
			};
	}
	switch (operation) {
		case 'getAll':
			return { parameters: { limit: 2 }, method: 'GET', path, status: 200 };
		case 'get':
			return { parameters: byId, method: 'GET', path: [...path, ID], status: 200 };
		case 'delete':
			return { parameters: byId, method: 'DELETE', path: [...path, ID], status: 200 };
		case 'create':
		case 'update': {
			const json = (resource as { jsonBody?: boolean }).jsonBody;
			const body = json ? { label: 'Closing date', type: 'date' } : mapped(resource, operation);
			const parameters: INodeParameters = json
				? { jsonBody: JSON.stringify(body) }
				: { mappingMode: 'autoMapInputData' };
			const update = operation === 'update';
			return {
				parameters: update ? { ...parameters, ...byId } : parameters,
				item: body,
				method: update ? 'PUT' : 'POST',
				path: update ? [...path, ID] : path,
				status: update ? 200 : 201,
			};
		}
	}
	return undefined;
}

/** Person › Find and Create or Update read the people list first, then send per item: their own cases below. */
const INDEXED = ['find', 'upsert'];

const CASES = RESOURCES.filter((resource) => resource.host !== 'universal').flatMap((resource) =>
	resource.operations
		.filter((operation) => !(resource.value === 'person' && INDEXED.includes(operation)))
		.map((operation) => [resource, operation] as const),
);
const PROFILES: ProfileName[] = ['default', 'numeric', 'uuid'];

/** The ID as the profile writes it: a number (numeric), a UUID, or the stored text. */
function expectIdOf(profile: ProfileName, id: unknown): void {
	if (profile === 'numeric') expect(typeof id).toBe('number');
	else if (profile === 'uuid') expect(id).toMatch(UUID);
	else expect(typeof id).toBe('string');
}

describe.each(PROFILES)('the %s profile', (profile) => {
	test.each(CASES.map(([resource, operation]) => [resource.value, operation, resource] as const))(
		'%s › %s: the ID as the service writes it, on the wire and in the output',
		async (_value, operation, resource) => {
			const connection = CONNECTION[profile];
			const stored = storedId(resource);
			if (resource.value === 'document') sandbox.addDocument(connection, stored, { name: 'a.pdf' });
			const id = sandbox.shownId(connection, stored);
			const person = sandbox.shownId(connection, 'p_3');
			const run = caseOf(resource, operation);
			if (!run) throw new Error(`no case for ${resource.value} › ${operation}`);
			const result = await operationRunner(
				() => sandbox,
				resource.value,
				operation,
			)({
				parameters: { ...run.parameters, credentialId: connection },
				items: [{ ...run.item, id, person }],
			});
			expect(result.error).toBeUndefined();
			expect(sandbox.requests).toHaveLength(1);
			const [request] = sandbox.requests;
			const segments = run.path.map((part) =>
				part === ID ? encodeURIComponent(String(id)) : part,
			);
			expect(request).toMatchObject({
				host: (resource.host === 'chosen' ? 'crm' : resource.host) as HostName,
				method: run.method,
				path: `/api/${segments.join('/')}`,
				status: run.status,
			});
			expect(request.headers['x-service-credential-id']).toBe(connection);
			if (run.item) expect(request.body).toEqual(run.item);
			const out = result.items.map((item) => item.json);
			expect(out.length).toBeGreaterThan(0);
			if (operation === 'delete') expect(out).toEqual([{ id, deleted: true }]);
			else if (operation === 'getAll') {
				const first = def(resource) ? seedRecord(def(resource)!, 1).id : stored;
				expectIdOf(profile, out[0].id);
				if (def(resource) || resource.value === 'person')
					expect(out[0].id).toEqual(sandbox.shownId(connection, String(first)));
			} else if (run.path.includes(ID)) expect(out[0].id).toEqual(id);
			else expectIdOf(profile, out[0].id);
			if (def(resource) && operation === 'get') {
				const seeded = resource.value === 'loan' ? seedRecord(def(resource)!, 7) : undefined;
				expect(out[0]).toEqual(sandbox.shown(connection, seeded ?? seedRecord(def(resource)!, 1)));
			}
		},
	);

	/** The seeded person p_3 as the connection shows it, by its ID and its email. */
	function seeded(connection: string) {
		const stored = sandbox.people(connection).find((person) => person.id === 'p_3')!;
		const [email] = stored.emails as IDataObject[];
		return { id: sandbox.shownId(connection, 'p_3'), email: String(email.value) };
	}

	/** The requests after the one read of the people list (3 people: one page), as `METHOD path`. */
	function afterTheList(connection: string): string[] {
		const [list, ...rest] = sandbox.requests;
		expect(list).toMatchObject({ method: 'GET', path: '/api/people' });
		for (const request of sandbox.requests)
			expect(request.headers['x-service-credential-id']).toBe(connection);
		return rest.map((request) => `${request.method} ${request.path}`);
	}

	test('person › find: the ID as the service writes it, on the wire and in the output', async () => {
		const connection = CONNECTION[profile];
		const { id, email } = seeded(connection);
		const result = await operationRunner(
			() => sandbox,
			'person',
			'find',
		)({
			parameters: { findBy: 'email', email: '={{ $json.email }}', credentialId: connection },
			items: [{ email: email.toUpperCase() }],
		});
		expect(result.error).toBeUndefined();
		expect(afterTheList(connection)).toEqual([`GET /api/people/${encodeURIComponent(String(id))}`]);
		expect(result.items.map((item) => item.json.id)).toEqual([id]);
	});

	test('person › upsert: the ID as the service writes it, on the wire and in the output', async () => {
		const connection = CONNECTION[profile];
		const { id, email } = seeded(connection);
		const result = await operationRunner(
			() => sandbox,
			'person',
			'upsert',
		)({
			parameters: {
				firstName: '={{ $json.first }}',
				additionalFields: { emailsJson: '={{ [{ value: $json.email }] }}' },
				credentialId: connection,
			},
			items: [
				{ first: 'Known', email },
				{ first: 'New', email: 'someone.new@example.test' },
			],
		});
		expect(result.error).toBeUndefined();
		// The two items run side by side: the update and the create in either order.
		expect(afterTheList(connection).sort()).toEqual(
			[`PUT /api/people/${encodeURIComponent(String(id))}`, 'POST /api/people'].sort(),
		);
		const [known, made] = result.items.map((item) => item.json);
		expect(known).toMatchObject({ id, isNew: false });
		expect(made.isNew).toBe(true);
		expectIdOf(profile, made.id);
		expect(made.id).not.toEqual(id);
	});
});
