/**
 * The trigger's own webhooks on the CRM host (Create and Delete Webhooks, version 1.1): activation and
 * deactivation through n8n-core's real HookContext against the sandbox's `GET`/`POST /api/webhooks` and
 * `DELETE /api/webhooks/{id}`. Each test asserts the wire. A hostile CRM host: webhooks-hostile.test.ts.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { sandboxCredentials, useSandbox } from '../harness/fixtures';
import type { Sandbox } from '../sandbox/server';
import { startReceiver, type Receiver } from './receiver';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), { people: 0 });

let receivers: Receiver[] = [];
afterEach(async () => {
	await Promise.all(receivers.map(async (r) => await r.close()));
	receivers = [];
});

const TWO_EVENTS = { events: ['peopleCreated', 'notesCreated'] };

async function trigger(
	parameters: INodeParameters,
	options: {
		workflowId?: string;
		port?: number;
		credentials?: ICredentialDataDecryptedObject;
	} = {},
): Promise<Receiver> {
	const started = await startReceiver(
		{ fetchRecords: false, ...parameters },
		options.credentials ?? sandboxCredentials(sandbox),
		{ typeVersion: 1.1, workflowId: options.workflowId, port: options.port },
	);
	receivers.push(started);
	return started;
}

/** The connection's webhooks as the sandbox lists them (calendar and CRM are one collection); not logged. */
async function webhooks(): Promise<IDataObject[]> {
	const logged = sandbox.requests.length;
	const answer = await fetch(`${sandbox.urls.crm}/api/webhooks?limit=100`, {
		headers: {
			Authorization: `Bearer ${sandbox.token}`,
			'X-Service-Credential-Id': sandbox.defaultCredentialId,
		},
	});
	const page = (await answer.json()) as { webhooks: IDataObject[] };
	sandbox.requests.length = logged;
	return page.webhooks;
}

const wire = () =>
	sandbox.requests.map((r) => `${r.method} ${r.host} ${r.url.replace(/\?.*$/, '')} ${r.status}`);

const owned = (receiver: Receiver) =>
	(receiver.storedStaticData['node:Integration Service Trigger'] as IDataObject | undefined)
		?.crmWebhooks;

describe('activation and deactivation on the CRM host', () => {
	test('activating with two CRM events creates two webhooks at the production URL with the filters; deactivating deletes exactly those', async () => {
		const receiver = await trigger({ ...TWO_EVENTS, filters: '{"stage": "Lead"}' });

		expect(await receiver.activate()).toEqual({ created: true });

		expect(wire()).toEqual([
			'GET crm /api/webhooks 200',
			'GET crm /api/webhooks 200',
			'POST crm /api/webhooks 201',
			'POST crm /api/webhooks 201',
		]);
		for (const request of sandbox.requests) {
			expect(request.headers.authorization).toBe(`Bearer ${sandbox.token}`);
			expect(request.headers['x-service-credential-id']).toBe(sandbox.defaultCredentialId);
		}
		const posts = sandbox.requests.filter((r) => r.method === 'POST');
		expect(posts.map((r) => r.body)).toEqual([
			{ url: receiver.url, event: 'peopleCreated', filters: { stage: 'Lead' } },
			{ url: receiver.url, event: 'notesCreated', filters: { stage: 'Lead' } },
		]);
		expect(posts[0].headers['content-type']).toBe('application/json');
		expect(owned(receiver)).toEqual({ peopleCreated: 'wh-1', notesCreated: 'wh-2' });

		sandbox.requests.length = 0;
		expect(await receiver.deactivate()).toBe(true);
		expect(wire()).toEqual([
			'DELETE crm /api/webhooks/wh-1 200',
			'DELETE crm /api/webhooks/wh-2 200',
		]);
		expect(sandbox.requests[0].headers['x-service-credential-id']).toBe(
			sandbox.defaultCredentialId,
		);
		expect((await webhooks()).map((w) => w.id)).toEqual(['w-1']);
		expect(owned(receiver)).toEqual({});
	});

	test('Filters with a number beyond ±(2^53 − 1) fail activation, naming where; nothing is created', async () => {
		const receiver = await trigger({ ...TWO_EVENTS, filters: '{"minPrice": 9007199254740993}' });

		await expect(receiver.activate()).rejects.toThrow(
			'Filters: holds at minPrice a number beyond ±9007199254740991, where a number loses digits; it is not sent rounded (give it as text)',
		);
		expect(sandbox.requests.filter((r) => r.method !== 'GET')).toEqual([]);
	});

	test('a hand-made webhook survives: one at our URL for a selected event is used, never created twice nor deleted; one for another event is left alone', async () => {
		const receiver = await trigger(TWO_EVENTS);
		sandbox.addWebhook(sandbox.defaultCredentialId, 'hand-1', {
			url: receiver.url,
			event: 'peopleCreated',
		});
		sandbox.addWebhook(sandbox.defaultCredentialId, 'hand-2', {
			url: receiver.url,
			event: 'tasksCreated',
		});

		expect(await receiver.activate()).toEqual({ created: true });
		const posts = sandbox.requests.filter((r) => r.method === 'POST');
		expect(posts.map((r) => (r.body as IDataObject).event)).toEqual(['notesCreated']);
		expect(owned(receiver)).toEqual({ notesCreated: 'wh-1' });

		sandbox.requests.length = 0;
		await receiver.deactivate();
		expect(wire()).toEqual(['DELETE crm /api/webhooks/wh-1 200']);
		expect((await webhooks()).map((w) => w.id)).toEqual(['w-1', 'hand-1', 'hand-2']);
	});

	test('re-activating after an n8n restart lists, finds its webhooks and creates no duplicate; the restarted workflow still deletes them', async () => {
		const first = await trigger(TWO_EVENTS);
		await first.activate();
		// n8n stops (without deactivating) and starts again on the same URL, with the stored static data.
		const port = Number(new URL(first.url).port);
		await first.close();
		receivers = receivers.filter((r) => r !== first);
		const restarted = await trigger(TWO_EVENTS, { workflowId: 'after-restart', port });
		expect(restarted.url).toBe(first.url);
		restarted.seedStaticData(first.storedStaticData);
		sandbox.requests.length = 0;

		expect(await restarted.activate('trigger', 'init')).toEqual({ created: false });
		expect(wire()).toEqual(['GET crm /api/webhooks 200']);
		expect(await webhooks()).toHaveLength(3);

		sandbox.requests.length = 0;
		await restarted.deactivate();
		expect(wire()).toEqual([
			'DELETE crm /api/webhooks/wh-1 200',
			'DELETE crm /api/webhooks/wh-2 200',
		]);
	});

	test('"Listen for test event" registers its own webhook at the test URL and deletes only that; the production one stays', async () => {
		const receiver = await trigger({ events: ['peopleCreated'] });
		await receiver.activate();
		const production = receiver.storedStaticData;

		await receiver.activate('manual', 'manual');
		const testPost = sandbox.requests.filter((r) => r.method === 'POST')[1];
		expect(testPost.body).toEqual({ url: receiver.testUrl, event: 'peopleCreated' });
		// Kept apart from the production IDs, which stay as they were.
		const stored = receiver.storedStaticData['node:Integration Service Trigger'] as IDataObject;
		expect(stored.crmTestWebhooks).toEqual({ peopleCreated: 'wh-2' });
		expect(stored.crmWebhooks).toEqual({ peopleCreated: 'wh-1' });

		sandbox.requests.length = 0;
		await receiver.deactivate('manual');
		expect(wire()).toEqual(['DELETE crm /api/webhooks/wh-2 200']);
		expect((await webhooks()).map((w) => [w.id, w.url])).toEqual([
			['w-1', 'https://hooks.example.test/w-1'],
			['wh-1', receiver.url],
		]);
		// The production registration is still known to the production static data.
		expect((production['node:Integration Service Trigger'] as IDataObject).crmWebhooks).toEqual({
			peopleCreated: 'wh-1',
		});
	});

	test('a POST answered 500 after it created the webhook: activation fails, and the webhook is found by listing and deleted; nothing stays registered', async () => {
		const receiver = await trigger(TWO_EVENTS);
		sandbox.inject({
			status: 500,
			afterProcessing: true,
			count: 1,
			match: { host: 'crm', method: 'POST' },
		});

		await expect(receiver.activate()).rejects.toThrow(
			"Could not create the trigger's webhooks on the CRM host",
		);
		expect(wire()).toEqual([
			'GET crm /api/webhooks 200',
			'GET crm /api/webhooks 200',
			'POST crm /api/webhooks 500',
			'GET crm /api/webhooks 200',
			'DELETE crm /api/webhooks/wh-1 200',
		]);
		expect((await webhooks()).map((w) => w.id)).toEqual(['w-1']);
		expect(owned(receiver) ?? {}).toEqual({});
	});

	test('Any Event cannot be registered: a clear error, nothing sent; events the CRM host cannot register (borrowers) send nothing', async () => {
		const any = await trigger({ events: ['*'] });
		await expect(any.activate()).rejects.toThrow(
			'Create and Delete Webhooks needs the events listed, not Any Event',
		);
		const los = await trigger({ events: ['borrowersUpdated'] });
		expect(await los.activate()).toEqual({ created: false });
		expect(await los.deactivate()).toBe(true);
		expect(sandbox.requests).toHaveLength(0);
	});

	test('version 1 (a saved workflow) keeps Create and Delete Webhooks off: activation sends nothing', async () => {
		const v1 = await startReceiver({ events: ['peopleCreated'] }, sandboxCredentials(sandbox));
		receivers.push(v1);
		expect(await v1.activate()).toEqual({ created: false });
		expect(sandbox.requests).toHaveLength(0);
	});
});
