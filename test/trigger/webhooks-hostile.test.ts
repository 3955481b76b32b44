/**
 * The trigger's own webhooks against a hostile CRM host (docs/decisions.md, threats): forged and
 * endless listings, a create refused midway or answered with another integration's ID, deletes
 * answered 500 (numeric IDs, odd and lagging listings: webhooks-ids.test.ts). Through n8n-core's real
 * HookContext.
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

	describe('a create answered with an ID the first listing showed (issue 39, finding 2)', () => {
		const PARTNER = 'https://partner.example/hooks/in?token=partner-secret-42';
		const wire = (service: HostileServer) =>
			service.received.map((r) => `${r.method} ${r.url.replace(/\?.*$/, '')}`);

		test("another integration's ID (listed at its URL): activation fails naming the ID, the partner's webhook is never deleted, ours are deleted again, nothing is kept", async () => {
			const service = await hostile();
			const receiver = await trigger(service.origin);
			const partner = { id: 'w-foreign', event: 'notesCreated', url: PARTNER };
			let posts = 0;
			service.script((request, res) => {
				if (request.method === 'GET')
					return sendJson(
						res,
						200,
						page(
							posts < 2
								? [partner]
								: [partner, { id: 'h-2', event: 'notesCreated', url: receiver.url }],
						),
					);
				if (request.method === 'DELETE') return sendJson(res, 200, '');
				// The second create (notesCreated) made h-2 at our URL but answered the partner's ID.
				sendJson(res, 201, { id: ++posts === 1 ? 'h-1' : 'w-foreign' });
			});

			const failure = receiver.activate();
			await expect(failure).rejects.toThrow(
				"Could not create the trigger's webhooks on the CRM host: The CRM host answered the create for notesCreated with webhook ID w-foreign, which it had listed at another URL before: another integration's webhook, which the trigger does not take or delete",
			);
			await failure.catch((error: { message: string; description?: string }) => {
				expect(error.description).toBe(
					'The 2 webhook(s) it had created were deleted again: nothing is left registered',
				);
				for (const text of [error.message, error.description ?? '']) {
					expect(text).not.toContain('partner');
					expect(text).not.toContain('token-123456');
				}
			});
			expect(wire(service)).toEqual([
				'GET /api/webhooks',
				'GET /api/webhooks',
				'POST /api/webhooks',
				'POST /api/webhooks',
				'GET /api/webhooks',
				'DELETE /api/webhooks/h-1',
				'DELETE /api/webhooks/h-2',
			]);
			expect(owned(receiver) ?? {}).toEqual({});

			service.received.length = 0;
			expect(await receiver.deactivate()).toBe(true);
			expect(service.received.filter((r) => r.method === 'DELETE')).toEqual([]);
		});

		// Whatever else its entry lacks or holds, an ID the first listing held and did not show at our URL
		// is not ours. Each create is answered with it; later listings claim it is at our URL for the
		// event, so the clean-up of a failed create is attacked too.
		const OTHER = 'https://other.example/h';
		const OURS = 'our URL'; // replaced by the trigger's URL
		test.each<[string, IDataObject[], string | number, string]>([
			[
				'without an event, at another URL',
				[{ id: 'w-noevent', url: OTHER }],
				'w-noevent',
				'w-noevent',
			],
			[
				'with its URL under another key',
				[{ id: 'w-target', event: 'peopleCreated', target: OTHER }],
				'w-target',
				'w-target',
			],
			['with no URL at all', [{ id: 'w-nourl', event: 'peopleCreated' }], 'w-nourl', 'w-nourl'],
			[
				'as 11 (no event, URL under another key), answered as "11"',
				[{ id: 11, target: OTHER }],
				'11',
				'11',
			],
			[
				'as "11" (its event a list, at another URL), answered as 11',
				[{ id: '11', event: ['peopleCreated'], url: OTHER }],
				11,
				'11',
			],
			[
				'as a number past 2^53 (its digits lost in the listing), answered as the text it was',
				// 12345678901234567890 in the listing's JSON: the trigger reads 12345678901234567000.
				[{ id: JSON.parse('12345678901234567890') as number, event: 'peopleCreated', url: OTHER }],
				'12345678901234567890',
				'12345678901234567890',
			],
			[
				'twice, once at our URL and once with no URL',
				[{ id: 'w-twice', event: 'tasksCreated', url: OURS }, { id: 'w-twice' }],
				'w-twice',
				'w-twice',
			],
		])(
			'the first listing held the ID %s: activation fails naming it, and it is never deleted',
			async (_case, entries, answered, id) => {
				const service = await hostile();
				const receiver = await trigger(service.origin);
				const first = entries.map((e) => (e.url === OURS ? { ...e, url: receiver.url } : e));
				let posts = 0;
				service.script((request, res) => {
					if (request.method === 'GET')
						return sendJson(
							res,
							200,
							page(
								posts === 0 ? first : [{ id: answered, event: 'peopleCreated', url: receiver.url }],
							),
						);
					if (request.method === 'DELETE') return sendJson(res, 200, '');
					posts++;
					sendJson(res, 201, { id: answered, url: receiver.url, event: 'peopleCreated' });
				});

				await expect(receiver.activate()).rejects.toThrow(
					`The CRM host answered the create for peopleCreated with webhook ID ${id}, which it had listed at another URL before`,
				);
				expect(owned(receiver) ?? {}).toEqual({});
				expect(await receiver.deactivate()).toBe(true);
				expect(wire(service)).toEqual([
					'GET /api/webhooks',
					'GET /api/webhooks',
					'POST /api/webhooks',
					'GET /api/webhooks',
				]);
			},
		);

		test('an ID the first listing showed at our URL with no event, as 7: it points here, is taken as "7", and deleted on deactivation', async () => {
			const service = await hostile();
			const receiver = await trigger(service.origin);
			let posts = 0;
			service.script((request, res) => {
				if (request.method === 'GET')
					return sendJson(res, 200, page([{ id: 7, url: receiver.url }]));
				if (request.method === 'DELETE') return sendJson(res, 200, '');
				sendJson(res, 201, { id: ++posts === 1 ? '7' : 'h-2' });
			});

			expect(await receiver.activate()).toEqual({ created: true });
			expect(owned(receiver)).toEqual({ peopleCreated: '7', notesCreated: 'h-2' });
			service.received.length = 0;
			await receiver.deactivate();
			expect(wire(service)).toEqual(['DELETE /api/webhooks/7', 'DELETE /api/webhooks/h-2']);
		});

		test('an ID the first listing showed at our URL (for another event) points here: it is taken, and deleted on deactivation', async () => {
			const service = await hostile();
			const receiver = await trigger(service.origin);
			const listed = [
				{ id: 'w-ours', event: 'tasksCreated', url: receiver.url },
				{ id: 'w-foreign', event: 'peopleCreated', url: PARTNER },
			];
			let posts = 0;
			service.script((request, res) => {
				if (request.method === 'GET') return sendJson(res, 200, page(listed));
				if (request.method === 'DELETE') return sendJson(res, 200, '');
				sendJson(res, 201, { id: ++posts === 1 ? 'w-ours' : 'h-2' });
			});

			expect(await receiver.activate()).toEqual({ created: true });
			expect(owned(receiver)).toEqual({ peopleCreated: 'w-ours', notesCreated: 'h-2' });
			service.received.length = 0;
			await receiver.deactivate();
			expect(wire(service)).toEqual(['DELETE /api/webhooks/w-ours', 'DELETE /api/webhooks/h-2']);
		});
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
