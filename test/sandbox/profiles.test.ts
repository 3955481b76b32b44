/**
 * The sandbox's connection profiles (profiles.ts) over real HTTP: the same `GET /people` in the
 * three shapes, numeric IDs and UUIDs accepted back in paths and `ids`, the 422 `{errors}` of a
 * refused appointment create, and notes, tasks and calls empty until the connection opts in.
 */
import { useSandbox } from '../harness/use-sandbox';
import type { HostName, Sandbox } from './server';

// Loose JSON shape for assertions on response bodies (eslint.tools.config.mjs allows `any` in tests).
type J = Record<string, any>;

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), {
	people: 2,
	connections: {
		'cred-numeric': { profile: 'numeric', entitiesToSync: { tasks: true } },
		'cred-uuid': { profile: 'uuid' },
	},
});

async function send(
	cred: string,
	method: string,
	path: string,
	body?: unknown,
	host: HostName = 'crm',
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
	return { status: res.status, json: (await res.json()) as J };
}

test('GET /people: text IDs, numeric IDs with 1/0 booleans, UUIDs with createdAt/updatedAt', async () => {
	const plain = (await send('cred-default', 'GET', 'people')).json.people[0];
	const numeric = (await send('cred-numeric', 'GET', 'people')).json.people[0];
	const uuid = (await send('cred-uuid', 'GET', 'people')).json.people[0];
	expect(plain).toMatchObject({ id: 'p_1', created: expect.any(String) });
	expect(plain.emails[0].isPrimary).toBe(true);
	expect(numeric).toMatchObject({ id: 1, created: plain.created, updated: plain.updated });
	expect(numeric.emails[0].isPrimary).toBe(1);
	expect(uuid.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
	expect(uuid).toMatchObject({ createdAt: plain.created, updatedAt: plain.updated });
	expect(uuid).not.toHaveProperty('created');
	expect(uuid.emails[0].isPrimary).toBe(true);
});

test('the shown IDs are accepted back: in a path, in ids, in a body; an unknown one is a 404', async () => {
	const id = sandbox.shownId('cred-numeric', 'p_2');
	expect((await send('cred-numeric', 'GET', `people/${id}`)).json).toMatchObject({ id });
	const listed = await send('cred-numeric', 'GET', `people?ids=${id}`);
	expect(listed.json.people.map((person: J) => person.id)).toEqual([id]);
	const task = await send('cred-numeric', 'POST', 'tasks', { personId: id, name: 'Call' });
	expect(task.status).toBe(201);
	expect(task.json.personId).toBe(id);
	expect(typeof task.json.id).toBe('number');
	const uuid = sandbox.shownId('cred-uuid', 'p_1');
	expect((await send('cred-uuid', 'GET', `people/${uuid}`)).json.id).toBe(uuid);
	expect((await send('cred-numeric', 'GET', 'people/999')).status).toBe(404);
});

test('a refused CRM create answers 422 {errors: [{path, message}]} on a profiled connection only', async () => {
	const body = { personId: 'p_1', title: 'Showing' };
	const profiled = await send('cred-numeric', 'POST', 'appointments', body);
	expect(profiled).toEqual({
		status: 422,
		json: { errors: [{ path: 'appointmentTypeId', message: 'is required' }] },
	});
	const unknown = await send('cred-uuid', 'PUT', 'appointments/x', { colour: 'red' });
	expect(unknown.status).toBe(422);
	expect(unknown.json.errors).toEqual([{ path: 'colour', message: 'is not a known field' }]);
	const plain = await send('cred-default', 'POST', 'appointments', body);
	expect(plain).toEqual({
		status: 400,
		json: { errorMessage: "field 'appointmentTypeId' is required" },
	});
});

test('notes, tasks and calls are empty (404 on get) until the connection opts in', async () => {
	const notes = await send('cred-numeric', 'GET', 'notes');
	expect(notes.json.notes).toEqual([]);
	expect(notes.json._metadata.total).toBe(0);
	expect((await send('cred-numeric', 'GET', 'tasks')).json.tasks).toHaveLength(3);
	expect((await send('cred-uuid', 'GET', 'calls')).json.calls).toEqual([]);
	const call = sandbox.shownId('cred-uuid', 'call-seed-1');
	expect((await send('cred-uuid', 'GET', `calls/${call}`)).status).toBe(404);
	expect((await send('cred-default', 'GET', 'notes')).json.notes).toHaveLength(3);
	const update = await send(
		'',
		'PUT',
		'credentials/cred-uuid',
		{ entitiesToSync: { calls: true } },
		'universal',
	);
	expect(update.status).toBe(200);
	expect((await send('cred-uuid', 'GET', 'calls')).json.calls).toHaveLength(3);
	expect((await send('cred-uuid', 'GET', `calls/${call}`)).json.id).toBe(call);
});
