/**
 * The people index over real HTTP (nodes/IntegrationService/search), in n8n's real engine against the
 * sandbox: a probe node runs what Person › Find and Create or Update will run, with a real context,
 * credential and transport, every item side by side as the router runs them. The wire shows one scan
 * of the people list per run, shared by concurrent items; the early stop; the lookalike people
 * (mixed-case and duplicate emails, phones in several formats) matched; two rows with one new email
 * making one person; and a connection with numeric IDs keeping them numbers.
 */
import type { IDataObject, IExecuteFunctions, INodeType } from 'n8n-workflow';

import type { Connection } from '../../nodes/IntegrationService/transport';
import {
	CREDENTIAL_DEFAULT,
	DEFAULT_SETTINGS,
	newRun,
	serviceRequest,
	startItem,
} from '../../nodes/IntegrationService/transport';
import type { MatchKind, PersonId } from '../../nodes/IntegrationService/search/matchKeys';
import { keysOf, personIdOf, personKeys } from '../../nodes/IntegrationService/search/matchKeys';
import { peopleIndexOf, peoplePages } from '../../nodes/IntegrationService/search/peopleIndex';
import { decideUpsert } from '../../nodes/IntegrationService/search/upsert';
import { registerNodeType, runNode } from '../harness/engine';
import { sandboxCredentials, useSandbox } from '../harness/fixtures';
import { LOOKALIKES } from '../sandbox/lookalikes';
import type { Sandbox } from '../sandbox/server';

const PROBE = 'harness.peopleIndexProbe';

interface Job {
	find?: { kind: MatchKind; value: string; limit?: number };
	upsert?: { email?: string; phone?: string; firstName: string };
}

/** Create or Update as phase 2 will run it: claim the keys, find by email then phone, decide, write, remember. */
async function upsert(
	ctx: IExecuteFunctions,
	itemIndex: number,
	row: NonNullable<Job['upsert']>,
	connection: Connection,
	run: ReturnType<typeof newRun>,
): Promise<IDataObject> {
	const index = peopleIndexOf(run, connection);
	const read = peoplePages(ctx, itemIndex, run, connection);
	const keys = { email: keysOf('email', [row.email]), phone: keysOf('phone', [row.phone]) };
	const claims = [...keys.email.map((k) => `email:${k}`), ...keys.phone.map((k) => `phone:${k}`)];
	return await index.exclusive(claims, async () => {
		const steps = [];
		for (const kind of ['email', 'phone'] as const)
			steps.push({ kind, keys: keys[kind], ids: await index.find(read, kind, keys[kind]) });
		const decision = decideUpsert(steps);
		if (decision.action !== 'create' && decision.action !== 'update') return { decision };
		const body: IDataObject = { firstName: row.firstName };
		if (row.email) body.emails = [{ value: row.email }];
		if (row.phone) body.phones = [{ value: row.phone }];
		const path =
			decision.action === 'create'
				? ['people']
				: ['people', { id: String(decision.id), field: 'Person ID' }];
		const method = decision.action === 'create' ? 'POST' : 'PUT';
		const answer = await serviceRequest.call(
			ctx,
			itemIndex,
			{ method, host: 'crm', connection, path, body },
			run,
		);
		index.remember(personIdOf(answer) as PersonId, personKeys(answer));
		return { decision, id: answer.id };
	});
}

const probe: INodeType = {
	description: {
		displayName: 'People Index Probe',
		name: PROBE,
		group: ['transform'],
		version: 1,
		description: 'Runs finds and upserts through one run of the people index, all items at once',
		defaults: { name: 'People Index Probe' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'integrationServiceApi', required: true }],
		properties: [{ displayName: 'Connection', name: 'connection', type: 'string', default: '' }],
	},
	async execute(this) {
		const run = newRun({ ...DEFAULT_SETTINGS, maxRequestsPerSecond: 0 });
		const id = this.getNodeParameter('connection', 0) as string;
		const connection = id === '' ? CREDENTIAL_DEFAULT : ({ credentialId: id } as Connection);
		const out = await Promise.all(
			this.getInputData().map(async (item, itemIndex) => {
				const job = item.json as Job;
				const itemRun = startItem(run);
				if (job.upsert) return await upsert(this, itemIndex, job.upsert, connection, itemRun);
				const { kind, value, limit } = job.find!;
				const index = peopleIndexOf(itemRun, connection);
				const read = peoplePages(this, itemIndex, itemRun, connection);
				return { ids: await index.find(read, kind, keysOf(kind, [value]), limit ?? Infinity) };
			}),
		);
		return [out.map((json, item) => ({ json: json as IDataObject, pairedItem: { item } }))];
	},
};
registerNodeType(probe);

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), {
	people: 250,
	connections: { 'cred-numeric': { profile: 'numeric' } },
});

async function probeRun(jobs: Job[], connection = '') {
	const result = await runNode({
		nodeType: PROBE,
		parameters: { connection },
		credentials: sandboxCredentials(sandbox),
		items: jobs as IDataObject[],
	});
	expect(result.error).toBeUndefined();
	const lists = sandbox.requests.filter((r) => r.method === 'GET' && r.path === '/api/people');
	return { out: result.items.map((item) => item.json), lists, requests: sandbox.requests };
}

const find = (kind: MatchKind, value: string, limit?: number): Job => ({
	find: { kind, value, ...(limit === undefined ? {} : { limit }) },
});

describe('the people index, over the wire', () => {
	let ids: Array<string | number>;
	beforeEach(() => (ids = sandbox.addPeople('cred-default', LOOKALIKES)));
	const [ada, adaAgain, grace, grace2, alan, kj, lead1, lead2, mary] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
	const id = (n: number) => ids[n];

	it('reads the people list once per run, shared by every item running at once', async () => {
		const { out, lists } = await probeRun([
			find('email', 'ADA.LOVELACE@example.test '),
			find('phone', '+1 555-010-0002'),
			find('name', 'grace   HOPPER'),
			find('email', 'nobody@example.test'),
			find('email', 'alan.t@bletchley.test'),
			find('phone', '0044 20 7946 0001'),
			find('email', 'noemail@EXAMPLE.test'),
			find('phone', '555 010 0003'),
			find('name', 'mary jackson'),
		]);
		expect(out).toEqual([
			{ ids: [id(ada), id(adaAgain)] },
			{ ids: [id(grace)] },
			{ ids: [id(grace), id(grace2)] },
			{ ids: [] },
			{ ids: [id(alan)] },
			{ ids: [id(alan)] },
			{ ids: [id(lead1), id(lead2)] },
			{ ids: [id(kj)] },
			{ ids: [id(mary)] },
		]);
		// 250 seeded + 9 lookalikes, pages of 100: each page once, however many items asked.
		expect(lists.map((r) => r.query.limit)).toEqual(['100', '100', '100']);
		expect(lists).toHaveLength(3);
	});

	it('stops early: a Find with a Limit reads only the pages it needs', async () => {
		const first = sandbox.people()[0] as { emails: Array<{ value: string }> };
		const { out, lists } = await probeRun([find('email', first.emails[0].value, 1)]);
		expect(out).toEqual([{ ids: ['p_1'] }]);
		expect(lists).toHaveLength(1);
	});

	it('a second run scans again: the index lives as long as its run', async () => {
		await probeRun([find('email', 'kj@nasa.test')]);
		const { lists } = await probeRun([find('email', 'kj@nasa.test')]);
		expect(lists).toHaveLength(6);
	});

	it('two rows with one new email make one person, then update it; an ambiguous email writes nothing', async () => {
		const { out, requests } = await probeRun([
			{ upsert: { email: 'new.lead@example.test', firstName: 'New' } },
			{ upsert: { email: ' NEW.LEAD@example.test', firstName: 'Newer' } },
			{ upsert: { email: 'noemail@example.test', firstName: 'Who' } },
			{ upsert: { email: 'fresh@example.test', phone: '(555) 010-0004', firstName: 'Mary' } },
		]);
		const writes = requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
		const created = sandbox.people().filter((p) => JSON.stringify(p).includes('new.lead@'));
		expect(created).toHaveLength(1);
		expect(writes.sort()).toEqual(
			[
				'POST /api/people',
				`PUT /api/people/${created[0].id as string}`,
				`PUT /api/people/${id(mary)}`,
			].sort(),
		);
		expect(out[2]).toEqual({
			decision: { action: 'ambiguous', ids: [id(lead1), id(lead2)], by: 'email' },
		});
		expect(requests.filter((r) => r.path === '/api/people' && r.method === 'GET')).toHaveLength(3);
	});
});

describe('numeric IDs', () => {
	it('finds by the numbers a connected system gives, and keeps them numbers', async () => {
		const ids = sandbox.addPeople('cred-numeric', LOOKALIKES);
		expect(typeof ids[0]).toBe('number');
		const { out, lists } = await probeRun(
			[find('email', 'ada.lovelace@example.test'), find('phone', '555.010.0002')],
			'cred-numeric',
		);
		expect(out).toEqual([{ ids: [ids[0], ids[1]] }, { ids: [ids[2]] }]);
		expect(lists.every((r) => r.headers['x-service-credential-id'] === 'cred-numeric')).toBe(true);
		expect(lists).toHaveLength(3);
	});
});
