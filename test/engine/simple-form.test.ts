/**
 * Simplify means simple (version 2): a list keeps, of each record, exactly the fields the catalogue
 * names for its entity (`simple`: about ten a user reads, a contact list as its primary value), in
 * that order, whatever the connected system's spelling of IDs, times and flags. Fields to Return and
 * Simplify off still give what they name. Version 1's Simplify is unchanged: the record without
 * `original`. Driven from the catalogue, on the sandbox, through n8n's engine.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { RESOURCES, type ResourceSpec, type SimpleKey } from '../../nodes/shared/catalogue';
import { runNode } from '../harness/engine';
import { sandboxCredentials, useSandbox } from '../harness/fixtures';
import type { Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
const SYNCED = { notes: true, tasks: true, calls: true };
useSandbox((started) => (sandbox = started), {
	people: 5,
	connections: {
		'cred-numeric': { profile: 'numeric', entitiesToSync: SYNCED },
		'cred-uuid': { profile: 'uuid', entitiesToSync: SYNCED },
	},
});

const LISTED = RESOURCES.filter((resource) => resource.operations.includes('getAll')).map(
	(resource) => [resource.value, resource] as const,
);

async function run(resource: string, operation: string, parameters: INodeParameters, version = 2) {
	const result = await runNode({
		typeVersion: version,
		credentials: sandboxCredentials(sandbox),
		parameters: { resource, operation, ...parameters },
	});
	expect(result.error).toBeUndefined();
	return result.items.map((item) => item.json);
}

/** The simple form, written out here on its own: the keys a record has, a contact list's primary value. */
function expectedSimple(record: IDataObject, keys: readonly SimpleKey[]): IDataObject {
	const result: IDataObject = {};
	for (const key of keys) {
		if (typeof key === 'string') {
			if (key in record) result[key] = record[key];
			continue;
		}
		const list = (record[key.primaryOf] ?? []) as IDataObject[];
		const chosen = list.find((e) => e.isPrimary === true || e.isPrimary === 1) ?? list[0];
		if (chosen && 'value' in chosen) result[key.name] = chosen.value;
	}
	return result;
}

const nameOf = (key: SimpleKey) => (typeof key === 'string' ? key : key.name);

/** The sandbox seeds no documents: one made the way a user would. */
async function seed(resource: string) {
	if (resource !== 'document') return;
	const fields = ['name', 'category', 'status', 'type', 'fileUrl', 'mimeType', 'fileSignature'];
	await run('document', 'create', {
		...Object.fromEntries(fields.map((name) => [name, `${name} 1`])),
		folderId: 'folder-1',
		additionalFields: { loanId: 'loan-1', borrowerId: 'b-1' },
	});
}

describe('version 2: Simplify keeps exactly the catalogue’s fields of each entity', () => {
	test.each(LISTED)('%s › Get Many', async (value, resource: ResourceSpec) => {
		await seed(value);
		const full = await run(value, 'getAll', { limit: 3, simplify: false });
		const simple = await run(value, 'getAll', { limit: 3 });

		expect(full.length).toBeGreaterThan(0);
		expect(simple).toEqual(full.map((record) => expectedSimple(record, resource.simple!)));
		for (const record of simple) {
			// In the declared order, and never a key the catalogue does not name.
			const order = resource.simple!.map(nameOf).filter((name) => name in record);
			expect(Object.keys(record)).toEqual(order);
		}
	});

	test('a person: ID, names, the primary email and phone, stage, owner and dates', async () => {
		const [ada] = await run('person', 'getAll', { limit: 1 });
		const stored = sandbox.people()[0] as IDataObject;
		const [email] = stored.emails as IDataObject[];
		const [phone] = stored.phones as IDataObject[];
		expect(ada).toEqual({
			id: 'p_1',
			name: stored.name,
			firstName: stored.firstName,
			lastName: stored.lastName,
			email: email.value,
			phone: phone.value,
			stage: stored.stage,
			assignedUserId: stored.assignedUserId,
			created: stored.created,
			updated: stored.updated,
		});
	});

	test.each([
		['cred-numeric', 'created'],
		['cred-uuid', 'createdAt'],
	])(
		'connection %s: its own ID kind, times (%s) and primary flag',
		async (credentialId, created) => {
			// Version 2 takes Connection ID, Fields to Return and Form in its one Options collection.
			const options = { credentialId };
			const [person] = await run('person', 'getAll', { limit: 1, options });
			const [full] = await run('person', 'getAll', { limit: 1, options, simplify: false });
			expect(person.id).toBe(full.id);
			expect(person).toHaveProperty(created, full[created]);
			expect(person.email).toBe((full.emails as IDataObject[])[0].value);
			expect(person.email).toEqual(expect.any(String));
		},
	);

	test('Fields to Return wins over Simplify: a field outside the simple form comes back', async () => {
		const [ada] = await run('person', 'getAll', { limit: 1, options: { fields: 'id, tags' } });
		expect(ada).toEqual({ id: 'p_1', tags: (sandbox.people()[0] as IDataObject).tags });
	});

	test('Get, Create and Update: Form Compact is the simple form, Automatic the whole record', async () => {
		const [compact] = await run('person', 'get', { personId: 'p_2', options: { form: 'compact' } });
		const [whole] = await run('person', 'get', { personId: 'p_2' });
		expect(compact).toEqual(expectedSimple(whole, RESOURCES[0].simple!));
		expect(whole).toHaveProperty('original');
		const [created] = await run('person', 'create', {
			firstName: 'Ada',
			lastName: 'Lovelace',
			options: { form: 'compact' },
		});
		expect(Object.keys(created).sort()).toEqual(
			['id', 'name', 'firstName', 'lastName', 'created', 'updated'].sort(),
		);
	});
});

describe('version 1: Simplify is unchanged', () => {
	test.each(LISTED)(
		'%s › Get Many: every field but "original"',
		async (value, resource: ResourceSpec) => {
			await seed(value);
			const full = await run(value, 'getAll', { limit: 3, simplify: false }, 1);
			const simplified = await run(value, 'getAll', { limit: 3 }, 1);
			expect(simplified).toEqual(full.map(({ original: _original, ...rest }) => rest));
			expect(full.length).toBeGreaterThan(0);
			if (resource.value === 'person') expect(simplified[0]).toHaveProperty('tags');
		},
	);

	test('Get with Form Compact: without "original" only', async () => {
		const [compact] = await run(
			'person',
			'get',
			{ personId: 'p_2', output: { form: 'compact' } },
			1,
		);
		const { original: _original, ...rest } = sandbox.people()[1] as IDataObject;
		expect(compact).toEqual(rest);
	});
});
