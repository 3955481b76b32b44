/**
 * The trigger's own webhooks against a CRM host that writes IDs as numbers, lists entries that are no
 * webhook, or lists late (docs/decisions.md, threats). Through n8n-core's real HookContext.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { webhookIdOf } from '../../nodes/IntegrationServiceTrigger/webhooks';
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

async function trigger(origin: string): Promise<Receiver> {
	const started = await startReceiver(
		{ fetchRecords: false, events: ['peopleCreated', 'notesCreated'] },
		credentialsFor(origin),
		{ typeVersion: 1.1 },
	);
	receivers.push(started);
	return started;
}

const owned = (receiver: Receiver) =>
	(receiver.storedStaticData['node:Integration Service Trigger'] as IDataObject | undefined)
		?.crmWebhooks;

describe('a CRM host with numeric IDs, odd listings or a lagging listing', () => {
	async function hostile(): Promise<HostileServer> {
		const server = await startHostile();
		hostiles.push(server);
		return server;
	}
	const page = (webhooks: unknown[]) => ({
		_metadata: {
			collection: 'webhooks',
			offset: 0,
			limit: 100,
			total: webhooks.length,
			next: null,
		},
		webhooks,
	});
	const wire = (service: HostileServer) =>
		service.received.map((r) => `${r.method} ${r.url.replace(/\?.*$/, '')}`);

	test('numeric IDs: a hand-made webhook {id: 7} at our URL and event is used, a create answered {"id": 12} is kept as "12" and deleted by it', async () => {
		const service = await hostile();
		const receiver = await trigger(service.origin);
		service.script((request, res) => {
			if (request.method === 'GET')
				return sendJson(res, 200, page([{ id: 7, event: 'peopleCreated', url: receiver.url }]));
			if (request.method === 'DELETE') return sendJson(res, 200, '');
			sendJson(res, 201, { id: 12, ...(JSON.parse(request.body) as IDataObject) });
		});

		expect(await receiver.activate()).toEqual({ created: true });
		expect(owned(receiver)).toEqual({ notesCreated: '12' });
		const posts = service.received.filter((r) => r.method === 'POST');
		expect(posts.map((r) => JSON.parse(r.body) as IDataObject)).toEqual([
			{ url: receiver.url, event: 'notesCreated' },
		]);
		service.received.length = 0;
		await receiver.deactivate();
		expect(wire(service)).toEqual(['DELETE /api/webhooks/12']);
	});

	test('a create answered 201 with no readable ID: activation fails, and the webhook it made (listed with a numeric ID) is deleted; the error counts it', async () => {
		const service = await hostile();
		const receiver = await trigger(service.origin);
		let made = false;
		service.script((request, res) => {
			if (request.method === 'GET')
				return sendJson(
					res,
					200,
					page(made ? [{ id: 12, event: 'peopleCreated', url: receiver.url }] : []),
				);
			if (request.method === 'DELETE') return sendJson(res, 200, '');
			made = true;
			sendJson(res, 201, { id: 1.5, url: receiver.url });
		});

		const failure = receiver.activate();
		await expect(failure).rejects.toThrow('answered no webhook ID for peopleCreated');
		await failure.catch((error: { description?: string }) =>
			expect(error.description).toBe(
				'The 1 webhook(s) it had created were deleted again: nothing is left registered',
			),
		);
		expect(wire(service)).toEqual([
			'GET /api/webhooks',
			'GET /api/webhooks',
			'POST /api/webhooks',
			'GET /api/webhooks',
			'DELETE /api/webhooks/12',
		]);
		expect(owned(receiver) ?? {}).toEqual({});
	});

	test('a lagging listing: clean-up deletes the ID the create returned and, for the failed event only, what is new at our URL; a hand-made webhook for the created event survives', async () => {
		const service = await hostile();
		const receiver = await trigger(service.origin);
		let posts = 0;
		service.script((request, res) => {
			if (request.method === 'GET') {
				const late = [
					{ id: 'h-1', event: 'peopleCreated', url: receiver.url },
					{ id: 'hand-p', event: 'peopleCreated', url: receiver.url },
					{ id: 'hand-n', event: 'notesCreated', url: receiver.url },
					{ id: 'hand-t', event: 'tasksCreated', url: receiver.url },
				];
				return sendJson(res, 200, page(posts === 0 ? [] : late));
			}
			if (request.method === 'DELETE') return sendJson(res, 200, '');
			if (++posts === 1) return sendJson(res, 201, { id: 'h-1' });
			sendJson(res, 500, { errorMessage: 'boom' });
		});

		const failure = receiver.activate();
		await expect(failure).rejects.toThrow(
			"Could not create the trigger's webhooks on the CRM host",
		);
		await failure.catch((error: { description?: string }) =>
			expect(error.description).toBe(
				'The 2 webhook(s) it had created were deleted again: nothing is left registered',
			),
		);
		const deletes = wire(service).filter((r) => r.startsWith('DELETE'));
		expect(deletes).toEqual(['DELETE /api/webhooks/h-1', 'DELETE /api/webhooks/hand-n']);
	});

	test('the failed create cannot be checked (the second listing refused): the error says so instead of "Nothing was registered"', async () => {
		const service = await hostile();
		const receiver = await trigger(service.origin);
		let posted = false;
		service.script((request, res) => {
			if (request.method === 'GET' && posted)
				return sendJson(res, 400, { errorMessage: 'no listing' });
			if (request.method === 'GET') return sendJson(res, 200, page([]));
			posted = true;
			sendJson(res, 500, { errorMessage: 'boom' });
		});

		const failure = receiver.activate();
		await expect(failure).rejects.toThrow(
			"Could not create the trigger's webhooks on the CRM host",
		);
		await failure.catch((error: { description?: string }) =>
			expect(error.description).toBe(
				'The CRM host could not be listed to find a webhook the failed create for peopleCreated may have made (0 deleted again); check its webhooks',
			),
		);
		expect(wire(service)).toEqual([
			'GET /api/webhooks',
			'GET /api/webhooks',
			'POST /api/webhooks',
			'GET /api/webhooks',
		]);
	});

	test('entries that are no object (null, a number, text, a list) are skipped: activation creates ours, no internal error', async () => {
		const service = await hostile();
		const receiver = await trigger(service.origin);
		let created = 0;
		service.script((request, res) => {
			if (request.method === 'GET')
				return sendJson(
					res,
					200,
					page([null, 5, 'w', [], { id: 'f-1', event: 'tasksCreated', url: receiver.url }]),
				);
			sendJson(res, 201, { id: `h-${++created}` });
		});

		expect(await receiver.activate()).toEqual({ created: true });
		expect(owned(receiver)).toEqual({ peopleCreated: 'h-1', notesCreated: 'h-2' });
		expect(wire(service)).toEqual([
			'GET /api/webhooks',
			'GET /api/webhooks',
			'POST /api/webhooks',
			'POST /api/webhooks',
		]);
	});
});

test('webhookIdOf (property): a whole number is its decimal text, text is itself, anything else no ID', () => {
	fc.assert(
		fc.property(fc.maxSafeInteger(), fc.string({ minLength: 1 }), fc.double(), (n, text, x) => {
			expect(webhookIdOf(n)).toBe(String(n));
			expect(webhookIdOf(text)).toBe(text.trim() === '' ? undefined : text);
			if (!Number.isSafeInteger(x)) expect(webhookIdOf(x)).toBeUndefined();
			for (const other of [null, undefined, true, {}, [n], { id: n }])
				expect(webhookIdOf(other)).toBeUndefined();
		}),
		{ seed: 31, numRuns: 200 },
	);
});
