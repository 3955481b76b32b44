/**
 * The trigger's own webhooks against a hostile CRM host (docs/decisions.md, threats): forged and
 * endless listings, a create refused midway, deletes answered 500 (numeric IDs, odd and lagging
 * listings: webhooks-ids.test.ts). Through n8n-core's real HookContext.
 */
import type { IDataObject } from 'n8n-workflow';

import { credentialsFor, sendJson, startHostile, type HostileServer } from '../hostile/server';
import { startReceiver, type Receiver } from './receiver';

let receivers: Receiver[] = [];
let hostiles: HostileServer[] = [];
afterEach(async () => {
	await Promise.all(receivers.map(async (r) => await r.close()));
	await Promise.all(hostiles.map(async (h) => await h.close()));
	receivers = [];
	hostiles = [];
});

const TWO_EVENTS = { events: ['peopleCreated', 'notesCreated'] };

async function trigger(origin: string): Promise<Receiver> {
	const started = await startReceiver(
		{ fetchRecords: false, ...TWO_EVENTS },
		credentialsFor(origin),
		{
			typeVersion: 1.1,
		},
	);
	receivers.push(started);
	return started;
}

const owned = (receiver: Receiver) =>
	(receiver.storedStaticData['node:Integration Service Trigger'] as IDataObject | undefined)
		?.crmWebhooks;

describe('a hostile CRM host', () => {
	async function hostile(): Promise<HostileServer> {
		const server = await startHostile();
		hostiles.push(server);
		return server;
	}
	const page = (
		webhooks: IDataObject[],
		nextLink: string | null = null,
		total = webhooks.length,
	) => ({
		_metadata: { collection: 'webhooks', offset: 0, limit: 100, total, next: null, nextLink },
		webhooks,
	});

	test('a listing with forged webhooks at our URL for other events, or with our event at another URL: ours are still created', async () => {
		const service = await hostile();
		const receiver = await trigger(service.origin);
		let created = 0;
		service.script((request, res) => {
			if (request.method === 'GET')
				return sendJson(
					res,
					200,
					page([
						{ id: 'f-1', event: 'tasksCreated', url: receiver.url, filters: {}, status: 'active' },
						{
							id: 'f-2',
							event: 'peopleCreated',
							url: `${receiver.url}/x`,
							filters: {},
							status: 'active',
						},
					]),
				);
			if (request.method === 'DELETE') return sendJson(res, 200, '');
			sendJson(res, 201, { id: `h-${++created}`, ...(JSON.parse(request.body) as IDataObject) });
		});

		expect(await receiver.activate()).toEqual({ created: true });
		expect(owned(receiver)).toEqual({ peopleCreated: 'h-1', notesCreated: 'h-2' });
		await receiver.deactivate();
		expect(service.received.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual([
			'/api/webhooks/h-1',
			'/api/webhooks/h-2',
		]);
	});

	test("a listing that never ends (new webhooks on every page, no total) fails activation with the pager's error, and nothing is created", async () => {
		const service = await hostile();
		const receiver = await trigger(service.origin);
		service.script((request, res) => {
			const n = Number(new URL(request.url, service.origin).searchParams.get('p'));
			const hooks = Array.from({ length: 100 }, (_, i) => ({
				id: `x-${n}-${i}`,
				event: 'e',
				url: 'u',
			}));
			sendJson(res, 200, { _metadata: { nextLink: `/api/webhooks?p=${n + 1}` }, webhooks: hooks });
		});

		await expect(receiver.activate()).rejects.toThrow('more than 10000 webhooks');
		expect(service.received.every((r) => r.method === 'GET')).toBe(true);
		expect(service.received.length).toBeLessThanOrEqual(101);
	});

	test('a failure midway (the second POST refused with 400) deletes the webhook the first POST created, and says so', async () => {
		const service = await hostile();
		const receiver = await trigger(service.origin);
		let posts = 0;
		service.script((request, res) => {
			if (request.method === 'GET') return sendJson(res, 200, page([]));
			if (request.method === 'DELETE') return sendJson(res, 200, '');
			if (++posts === 1) return sendJson(res, 201, { id: 'h-1' });
			sendJson(res, 400, { errorMessage: 'event not allowed' });
		});

		const failure = receiver.activate();
		await expect(failure).rejects.toThrow(
			"Could not create the trigger's webhooks on the CRM host",
		);
		await failure.catch((error: { description?: string }) =>
			expect(error.description).toBe(
				'The 1 webhook(s) it had created were deleted again: nothing is left registered',
			),
		);
		expect(service.received.map((r) => `${r.method} ${r.url.replace(/\?.*$/, '')}`)).toEqual([
			'GET /api/webhooks',
			'GET /api/webhooks',
			'POST /api/webhooks',
			'POST /api/webhooks',
			'GET /api/webhooks',
			'DELETE /api/webhooks/h-1',
		]);
		expect(owned(receiver) ?? {}).toEqual({});
	});

	test('a delete answered 500 (sent once): deactivation fails naming the webhook, which stays kept and is deleted on the next deactivation; 404 counts as deleted', async () => {
		const service = await hostile();
		const receiver = await trigger(service.origin);
		receiver.seedStaticData({
			'node:Integration Service Trigger': {
				crmWebhooks: { peopleCreated: 'h-1', notesCreated: 'h-2' },
			},
		});
		let failing = true;
		service.script((request, res) => {
			if (request.url.endsWith('/h-2')) return sendJson(res, 404, { errorMessage: 'not found' });
			sendJson(res, failing ? 500 : 200, failing ? { errorMessage: 'boom' } : '');
		});

		await expect(receiver.deactivate()).rejects.toThrow(
			"Could not delete the trigger's webhooks h-1 on the CRM host",
		);
		expect(owned(receiver)).toEqual({ peopleCreated: 'h-1' });
		const deletes = service.received.map((r) => `${r.method} ${r.url}`);
		// Sent once: a DELETE answered 5xx may have been processed, so it is not sent again (the transport's rule).
		expect(deletes.filter((d) => d === 'DELETE /api/webhooks/h-1')).toHaveLength(1);

		failing = false;
		expect(await receiver.deactivate()).toBe(true);
		expect(owned(receiver)).toEqual({});
	});
});
