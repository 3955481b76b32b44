/**
 * The Changes Trigger through n8n-core's real PollContext against the sandbox over real HTTP on
 * 127.0.0.1: the first poll starts nothing, each change starts one execution, a failed poll keeps the
 * state, a restart repeats nothing, and every profile's IDs and time fields work.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { sandboxCredentials, useSandbox } from '../harness/fixtures';
import type { Sandbox } from '../sandbox/server';
import { startPoller, type Poller } from './poller';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), {
	people: 3,
	connections: { 'conn-numeric': { profile: 'numeric' }, 'conn-uuid': { profile: 'uuid' } },
});

async function poller(parameters: INodeParameters = {}): Promise<Poller> {
	return await startPoller(
		{ resource: 'person', event: 'newOrUpdated', ...parameters },
		sandboxCredentials(sandbox),
	);
}

/** A call to the sandbox as another app would make it (not through the node). */
async function api(
	method: string,
	path: string,
	body?: IDataObject,
	connection = sandbox.defaultCredentialId,
	host: 'crm' | 'los' = 'crm',
): Promise<IDataObject> {
	const answer = await fetch(`${sandbox.urls[host]}/api/${path}`, {
		method,
		headers: {
			Authorization: `Bearer ${sandbox.token}`,
			'X-Service-Credential-Id': connection,
			'Content-Type': 'application/json',
		},
		...(body ? { body: JSON.stringify(body) } : {}),
	});
	expect(answer.status).toBe(200);
	return (await answer.json()) as IDataObject;
}

/** The sandbox stamps times in ms: the next change gets a later time than the last (at any speed). */
async function nextMillisecond(): Promise<void> {
	const now = Date.now();
	while (Date.now() <= now) await new Promise((resolve) => setImmediate(resolve));
}

const createPerson = async (firstName: string, connection?: string) =>
	await api('POST', 'people', { firstName, lastName: 'Poll' }, connection);
const updatePerson = async (id: unknown, firstName: string, connection?: string) => {
	await nextMillisecond();
	return await api('PUT', `people/${String(id)}`, { firstName }, connection);
};

describe('new and updated records', () => {
	test('the first poll starts nothing for the records already there, and saves its state', async () => {
		const trigger = await poller();
		expect(await trigger.activate()).toEqual({});
		expect(trigger.state).toEqual(expect.objectContaining({ gen: 1, floor: expect.any(Number) }));
		expect(await trigger.poll()).toEqual({});
		expect(trigger.executions).toEqual([]);
	});

	test('a created record starts one execution, once', async () => {
		const trigger = await poller();
		await trigger.activate();
		const person = await createPerson('Ann');

		const first = await trigger.poll();
		expect(first.items).toEqual([expect.objectContaining({ id: person.id, firstName: 'Ann' })]);
		expect(await trigger.poll()).toEqual({});
		trigger.restart();
		expect(await trigger.poll()).toEqual({});
		expect(trigger.executions).toHaveLength(1);
	});

	test('"New or Updated": an updated record fires once per change', async () => {
		const trigger = await poller();
		await trigger.activate();
		await updatePerson('p_2', 'Changed');
		expect((await trigger.poll()).items).toEqual([
			expect.objectContaining({ id: 'p_2', firstName: 'Changed' }),
		]);
		expect(await trigger.poll()).toEqual({});
		await updatePerson('p_2', 'Again');
		expect((await trigger.poll()).items).toEqual([
			expect.objectContaining({ id: 'p_2', firstName: 'Again' }),
		]);
		expect(await trigger.poll()).toEqual({});
	});

	test('"New": an update never fires, a creation fires once', async () => {
		const trigger = await poller({ event: 'new' });
		await trigger.activate();
		const person = await createPerson('Bea');
		expect((await trigger.poll()).items).toEqual([expect.objectContaining({ id: person.id })]);
		await updatePerson(person.id, 'Bea2');
		await updatePerson('p_1', 'Old one');
		expect(await trigger.poll()).toEqual({});
		trigger.restart();
		expect(await trigger.poll()).toEqual({});
		expect(trigger.executions).toHaveLength(1);
	});

	test('a failed poll (the list refused) keeps the state: the next one covers the same ground', async () => {
		const trigger = await poller();
		await trigger.activate();
		const before = JSON.stringify(trigger.saved);
		await createPerson('Cid');
		sandbox.inject({ status: 400, count: 1, match: { pathPrefix: '/api/people' } });
		const failed = await trigger.poll();
		expect(failed.error).toBeDefined();
		expect(JSON.stringify(trigger.saved)).toBe(before);

		const next = await trigger.poll();
		expect(next.items).toEqual([expect.objectContaining({ firstName: 'Cid' })]);
		expect(await trigger.poll()).toEqual({});
	});

	test('a manual test run returns the latest few records and saves nothing', async () => {
		const trigger = await poller();
		await createPerson('Newest');
		const sample = await trigger.manual();
		expect(sample?.[0].length).toBeGreaterThan(0);
		expect(sample?.[0].length).toBeLessThanOrEqual(5);
		expect(sample?.[0][0].json).toEqual(expect.objectContaining({ firstName: 'Newest' }));
		expect(trigger.saved).toEqual({});
		// The workflow's first activation still starts nothing.
		expect(await trigger.activate()).toEqual({});
	});
});

describe('output', () => {
	test('Fields to Return, Simplify and one item per poll', async () => {
		const trigger = await poller({ output: { fields: 'id, firstName' }, items: 'perPoll' });
		await trigger.activate();
		await createPerson('Dee');
		await createPerson('Eve');
		const { items } = await trigger.poll();
		expect(items).toHaveLength(1);
		const { records, count } = items![0] as { records: IDataObject[]; count: number };
		expect(count).toBe(2);
		expect(records.map((record) => Object.keys(record).sort())).toEqual([
			['firstName', 'id'],
			['firstName', 'id'],
		]);
	});

	test('Simplify on leaves "original" out; off keeps the record as sent', async () => {
		for (const simplify of [true, false]) {
			const trigger = await poller({ simplify });
			await trigger.activate();
			await createPerson(`S${String(simplify)}`);
			const [record] = (await trigger.poll()).items!;
			expect('original' in record).toBe(!simplify);
		}
	});
});

describe('connected systems', () => {
	test.each(['conn-numeric', 'conn-uuid'])(
		'%s: IDs and time fields as that system writes them',
		async (connection) => {
			const trigger = await poller({ credentialId: connection });
			await trigger.activate();
			const person = await createPerson('Fay', connection);
			expect((await trigger.poll()).items).toEqual([expect.objectContaining({ id: person.id })]);
			await updatePerson(person.id, 'Fay2', connection);
			expect((await trigger.poll()).items).toEqual([
				expect.objectContaining({ id: person.id, firstName: 'Fay2' }),
			]);
			expect(await trigger.poll()).toEqual({});
			const wire = sandbox.requests.filter((request) => request.path === '/api/people');
			expect(
				wire.every((request) => request.headers['x-service-credential-id'] === connection),
			).toBe(true);
		},
	);

	test('loans and borrowers on the LOS host', async () => {
		const trigger = await poller({ resource: 'borrower' });
		await trigger.activate();
		await nextMillisecond();
		await api('PUT', 'borrowers/b-1', { name: 'Renamed' }, undefined, 'los');
		expect((await trigger.poll()).items).toEqual([expect.objectContaining({ id: 'b-1' })]);
	});
});
