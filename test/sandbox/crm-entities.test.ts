/**
 * The sandbox's published endpoints beyond the specification (entityTable.ts, crmEntities.ts), over
 * real HTTP: every entity's list, get, create, update and delete as its table row says, the
 * published answers (201 on create, `{errorMessage}` with 400 and 404, `_metadata` paging under the
 * list key) and the required fields each create checks.
 */
import { useSandbox } from '../harness/use-sandbox';
import { ENTITIES, parseFields, type EntityDef } from './entityTable';
import { DOCUMENT_REQUIRED } from './schema';
import type { HostName, Sandbox } from './server';

// Loose JSON shape for assertions on response bodies (eslint.tools.config.mjs allows `any` in tests).
type J = Record<string, any>;

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), { people: 5 });

async function send(
	host: HostName,
	method: string,
	path: string,
	body?: unknown,
	cred = sandbox.defaultCredentialId,
): Promise<{ status: number; json: J }> {
	const headers: Record<string, string> = {
		authorization: `Bearer ${sandbox.token}`,
		'x-service-credential-id': cred,
	};
	if (body !== undefined) headers['content-type'] = 'application/json';
	const res = await fetch(`${sandbox.urls[host]}/api/${path}`, {
		method,
		headers,
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	// The published membership and tag changes answer 200 with no body.
	const text = await res.text();
	return { status: res.status, json: (text === '' ? null : JSON.parse(text)) as J };
}

/** A value of each field type the table uses. */
const SAMPLE: Record<string, unknown> = {
	string: 'x',
	number: 1,
	boolean: true,
	object: {},
	objectArray: [{}],
	stringArray: ['a'],
	any: [[]],
};

function requiredBody(def: EntityDef): J {
	const { types, required } = parseFields(def.create ?? '');
	return Object.fromEntries(required.map((field) => [field, SAMPLE[types[field]]]));
}

const firstSeed = (def: EntityDef): string =>
	def.path === 'loans' ? 'loan-1' : `${def.idPrefix}-seed-1`;
const having = (op: string) => ENTITIES.filter((def) => def.ops.includes(op as never));
const name = (def: EntityDef) => `${def.host} ${def.path}`;
/** The CRM host answers `{errorMessage}` (crm-endpoints.md); LOS and calendar pages show no error body. */
const refusal = (def: EntityDef, message: string): J => ({
	[def.host === 'crm' ? 'errorMessage' : 'error']: message,
});

describe('every published entity', () => {
	test.each(having('list').map((def) => [name(def), def] as const))(
		'%s: the list answers _metadata and the seeded records under its list key',
		async (_name, def) => {
			const r = await send(def.host, 'GET', `${def.path}?limit=2`);
			expect(r.status).toBe(200);
			const total = def.seedCount ?? 3;
			expect(r.json._metadata).toMatchObject({
				collection: def.listKey,
				offset: 0,
				limit: 2,
				total,
			});
			expect(r.json[def.listKey]).toHaveLength(2);
			expect(r.json[def.listKey][0].id).toBe(firstSeed(def));
			const rest = await send(def.host, 'GET', `${def.path}?offset=2&limit=100`);
			expect(rest.json[def.listKey]).toHaveLength(Math.min(100, total - 2));
		},
	);

	test.each(having('get').map((def) => [name(def), def] as const))(
		'%s: get by id, and 404 {errorMessage} for an unknown id',
		async (_name, def) => {
			const r = await send(def.host, 'GET', `${def.path}/${firstSeed(def)}`);
			expect(r.status).toBe(200);
			expect(r.json.id).toBe(firstSeed(def));
			const missing = await send(def.host, 'GET', `${def.path}/nope`);
			expect(missing).toEqual({ status: 404, json: refusal(def, `${def.noun} not found`) });
		},
	);

	test.each(having('create').map((def) => [name(def), def] as const))(
		'%s: create answers 201 with the record; each required field is checked',
		async (_name, def) => {
			const body = requiredBody(def);
			const r = await send(def.host, 'POST', def.path, body);
			expect(r.status).toBe(201);
			expect(r.json).toMatchObject({ ...body, id: `${def.idPrefix}-1` });
			expect((await send(def.host, 'GET', def.path)).json._metadata.total).toBe(
				(def.seedCount ?? 3) + 1,
			);
			for (const field of Object.keys(body)) {
				const { [field]: _dropped, ...without } = body;
				void _dropped;
				const refused = await send(def.host, 'POST', def.path, without);
				expect(refused).toEqual({
					status: 400,
					json: refusal(def, `field '${field}' is required`),
				});
			}
			if (def.create !== undefined) {
				const unknown = await send(def.host, 'POST', def.path, { ...body, nope: 1 });
				expect(unknown.status).toBe(400);
				expect(JSON.stringify(unknown.json)).toContain("unknown field 'nope'");
			}
		},
	);

	test.each(having('update').map((def) => [name(def), def] as const))(
		'%s: update merges the fields given; 404 for an unknown id',
		async (_name, def) => {
			const { types } = parseFields(def.update ?? def.create ?? 'title');
			const [field] = Object.keys(types).filter((f) => types[f] === 'string');
			const r = await send(def.host, 'PUT', `${def.path}/${firstSeed(def)}`, { [field]: 'new' });
			expect(r.status).toBe(200);
			expect(r.json).toMatchObject({ id: firstSeed(def), [field]: 'new' });
			expect((await send(def.host, 'GET', `${def.path}/${firstSeed(def)}`)).json[field]).toBe(
				'new',
			);
			const missing = await send(def.host, 'PUT', `${def.path}/nope`, {});
			expect(missing.status).toBe(404);
		},
	);

	test.each(having('delete').map((def) => [name(def), def] as const))(
		'%s: delete answers 200, then the record is gone (404 on get and on a second delete)',
		async (_name, def) => {
			const path = `${def.path}/${firstSeed(def)}`;
			expect(await send(def.host, 'DELETE', path)).toEqual({ status: 200, json: {} });
			expect((await send(def.host, 'GET', path)).status).toBe(404);
			expect(await send(def.host, 'DELETE', path)).toEqual({
				status: 404,
				json: refusal(def, `${def.noun} not found`),
			});
			// Per connection: the other connection still has it.
			expect((await send(def.host, 'GET', path, undefined, 'cred-other')).status).toBe(200);
		},
	);
});

describe('people, lists, borrowers and documents', () => {
	test('people: get, tags apply and delete, delete', async () => {
		const person = await send('crm', 'GET', 'people/p_2');
		expect(person.status).toBe(200);
		expect(person.json).toMatchObject({ id: 'p_2' });
		const applied = await send('crm', 'POST', 'people/p_2/tags/apply', { tags: ['vip', 'new'] });
		expect(applied).toEqual({ status: 200, json: null });
		const tagsOf = async () => (await send('crm', 'GET', 'people/p_2')).json.tags as string[];
		expect(await tagsOf()).toEqual(expect.arrayContaining(['vip', 'new']));
		const removed = await send('crm', 'POST', 'people/p_2/tags/delete', { tags: ['new'] });
		expect(removed).toEqual({ status: 200, json: null });
		expect(await tagsOf()).not.toContain('new');
		expect((await send('crm', 'POST', 'people/p_2/tags/apply', {})).json).toEqual({
			errorMessage: "field 'tags' is required",
		});
		expect(await send('crm', 'DELETE', 'people/p_2')).toEqual({ status: 200, json: {} });
		expect((await send('crm', 'GET', 'people/p_2')).status).toBe(404);
		const list = await send('crm', 'GET', 'people');
		expect(list.json._metadata.total).toBe(4);
		expect(list.json.people.map((p: J) => p.id)).toEqual(['p_1', 'p_3', 'p_4', 'p_5']);
		expect((await send('crm', 'DELETE', 'people/p_2')).json).toEqual({
			errorMessage: 'person not found',
		});
		expect(sandbox.count('people', 'cred-default')).toBe(4);
	});

	test('lists: add and remove people (DELETE with a body)', async () => {
		const added = await send('crm', 'POST', 'lists/list-seed-2/people', {
			personIds: ['p_1', 'p_3'],
		});
		expect(added).toEqual({ status: 200, json: null });
		const membersOf = async () =>
			(await send('crm', 'GET', 'lists/list-seed-2')).json.peopleParticipantIds as string[];
		expect(await membersOf()).toEqual(['p_2', 'p_1', 'p_3']);
		const removed = await send('crm', 'DELETE', 'lists/list-seed-2/people', { personIds: ['p_2'] });
		expect(removed).toEqual({ status: 200, json: null });
		expect(await membersOf()).toEqual(['p_1', 'p_3']);
		expect((await send('crm', 'POST', 'lists/nope/people', { personIds: [] })).status).toBe(404);
		expect(
			(await send('crm', 'POST', 'lists/list-seed-2/people', { personIds: 'p_1' })).status,
		).toBe(400);
	});

	test('borrowers: create (201), get and delete; documents: get, update and delete', async () => {
		const created = await send('los', 'POST', 'borrowers', {
			name: 'New Borrower',
			type: 'individual',
		});
		expect(created.status).toBe(201);
		expect(created.json).toMatchObject({ id: 'borrower-1', name: 'New Borrower' });
		expect((await send('los', 'GET', 'borrowers/borrower-1')).json.name).toBe('New Borrower');
		expect((await send('los', 'POST', 'borrowers', { ssn: '1' })).status).toBe(400);
		expect(await send('los', 'DELETE', 'borrowers/b-1')).toEqual({ status: 200, json: {} });
		expect((await send('los', 'GET', 'borrowers/b-1')).json).toEqual({
			error: 'borrower not found',
		});
		expect(sandbox.count('borrowers', 'cred-default')).toBe(1);

		const document = Object.fromEntries(DOCUMENT_REQUIRED.map((f) => [f, `${f}-1`]));
		expect((await send('los', 'POST', 'documents', document)).status).toBe(201);
		expect((await send('los', 'GET', 'documents/doc_1')).json).toMatchObject(document);
		const updated = await send('los', 'PUT', 'documents/doc_1', { status: 'signed' });
		expect(updated.json).toMatchObject({ id: 'doc_1', status: 'signed' });
		expect((await send('los', 'PUT', 'documents/doc_1', { id: 'x' })).status).toBe(400);
		expect((await send('los', 'DELETE', 'documents/doc_1')).status).toBe(200);
		expect((await send('los', 'GET', 'documents/doc_1')).status).toBe(404);
	});

	test('a created loan joins the list after the generated ones and can be read and updated', async () => {
		const created = await send('los', 'POST', 'loans', { amount: 250000, purpose: 'Purchase' });
		expect(created).toMatchObject({ status: 201, json: { id: 'loan-new-1', amount: 250000 } });
		const last = await send('los', 'GET', 'loans?offset=230');
		expect(last.json.loans.map((loan: J) => loan.id)).toEqual(['loan-new-1']);
		const updated = await send('los', 'PUT', 'loans/loan-7', { status: 'closed' });
		expect(updated.json).toMatchObject({ id: 'loan-7', status: 'closed', amount: 107000 });
		expect((await send('los', 'PUT', 'loans/loan-7', { borrowers: [] })).status).toBe(400);
	});
});
