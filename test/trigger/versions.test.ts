/**
 * The trigger's versions side by side, through n8n-core's real HookContext and WebhookContext against
 * the sandbox: a workflow saved with version 1 or 1.1 runs as it did (its wire and its output, pinned
 * here), and version 1.2's parameters (events by name, Filters as fields or JSON) make the same
 * registration wire and the same event matching as 1.1's JSON.
 */
import { createHmac } from 'crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { sandboxCredentials, useSandbox } from '../harness/fixtures';
import type { Sandbox } from '../sandbox/server';
import { startReceiver, type Receiver } from './receiver';

const SECRET = 'whsec-versions-secret';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), { people: 0 });

let receivers: Receiver[] = [];
afterEach(async () => {
	await Promise.all(receivers.map(async (r) => await r.close()));
	receivers = [];
});

async function trigger(typeVersion: number, parameters: INodeParameters): Promise<Receiver> {
	const started = await startReceiver(
		parameters,
		sandboxCredentials(sandbox, { signingSecret: SECRET }),
		{ typeVersion },
	);
	receivers.push(started);
	return started;
}

/** Every request the sandbox received, the receiver's own URL written as <url>; the log is emptied. */
function takeWire(receiver: Receiver): string[] {
	const wire = sandbox.requests.map((r) =>
		`${r.method} ${r.host} ${r.url} ${r.status} ${r.rawBody ?? ''}`
			.trim()
			.split(JSON.stringify(receiver.url).slice(1, -1))
			.join('<url>'),
	);
	sandbox.requests.length = 0;
	return wire;
}

let eventCounter = 0;
async function deliver(receiver: Receiver, event: string, uri?: string) {
	eventCounter++;
	const body = JSON.stringify({
		eventId: `evt-v-${eventCounter}`,
		eventCreated: '2026-11-22T10:00:00Z',
		event,
		resourceIds: ['p_1'],
		...(uri ? { uri } : {}),
	});
	const signature = createHmac('sha256', SECRET)
		.update(Buffer.from(body).toString('base64'))
		.digest('hex');
	return await receiver.deliver(body, {
		'Content-Type': 'application/json',
		'X-Service-Signature': signature,
	});
}

async function createPerson(firstName: string): Promise<IDataObject> {
	const answer = await fetch(`${sandbox.urls.crm}/api/people`, {
		method: 'POST',
		headers: {
			Authorization: `Bearer ${sandbox.token}`,
			'X-Service-Credential-Id': sandbox.defaultCredentialId,
			'Content-Type': 'application/json',
		},
		body: JSON.stringify({ firstName }),
	});
	const person = (await answer.json()) as IDataObject;
	sandbox.requests.length = 0;
	return person;
}

/** The trigger of examples/person-created-task.json as saved (version 1.1), with a second CRM event and Filters. */
const SAVED_1_1: INodeParameters = {
	events: ['peopleCreated', 'notesCreated'],
	fetchRecords: true,
	verifySignature: true,
	manageWebhooks: true,
	filters: '{"stage": "Lead", "minPrice": 450000}',
};

describe('saved workflows run unchanged', () => {
	test('version 1.1: activation, a delivery with its records, an unselected event, deactivation: the same wire and output as before', async () => {
		const person = await createPerson('Ada');
		const receiver = await trigger(1.1, SAVED_1_1);

		expect(await receiver.activate()).toEqual({ created: true });
		const filters = '"filters":{"stage":"Lead","minPrice":450000}';
		expect(takeWire(receiver)).toEqual([
			'GET crm /api/webhooks?limit=100&offset=0 200',
			'GET crm /api/webhooks?limit=100&offset=0 200',
			`POST crm /api/webhooks 201 {"url":"<url>","event":"peopleCreated",${filters}}`,
			`POST crm /api/webhooks 201 {"url":"<url>","event":"notesCreated",${filters}}`,
		]);

		const uri = `${sandbox.urls.crm}/api/people?ids=${String(person.id)}`;
		const started = await deliver(receiver, 'peopleCreated', uri);
		expect(started.status).toBe(200);
		expect(started.workflowData).toEqual([[{ json: person }]]);
		expect(takeWire(receiver)).toEqual([`GET crm /api/people?ids=${String(person.id)} 200`]);
		const ignored = await deliver(receiver, 'peopleUpdated', uri);
		expect(ignored).toMatchObject({
			status: 200,
			body: { started: false, reason: 'event peopleUpdated is not selected' },
		});
		expect(takeWire(receiver)).toEqual([]);

		expect(await receiver.deactivate()).toBe(true);
		expect(takeWire(receiver)).toEqual([
			'DELETE crm /api/webhooks/wh-1 200',
			'DELETE crm /api/webhooks/wh-2 200',
		]);
	});

	test('version 1: Register Webhook on Activation with JSON Filters sends the same PUT; at its defaults activation sends nothing', async () => {
		const registering = await trigger(1, {
			events: ['borrowersUpdated'],
			registerWebhook: true,
			webhookId: 'w-1',
			filters: '{"stage": "Lead"}',
		});
		expect(await registering.activate()).toEqual({ created: true });
		expect(takeWire(registering)).toEqual([
			'PUT calendar /api/webhooks/w-1 200 {"url":"<url>","event":"borrowersUpdated","filters":{"stage":"Lead"}}',
		]);

		const atDefaults = await trigger(1, { events: ['peopleCreated'] });
		expect(await atDefaults.activate()).toEqual({ created: false });
		expect(takeWire(atDefaults)).toEqual([]);
	});
});

/** Activation, a selected and an unselected event, deactivation: the wire (webhook IDs as wh-n) and what started. */
async function scenario(typeVersion: number, parameters: INodeParameters) {
	const person = await createPerson('Grace');
	const uri = `${sandbox.urls.crm}/api/people?ids=${String(person.id)}`;
	const receiver = await trigger(typeVersion, parameters);
	const activated = await receiver.activate();
	const answers = [];
	for (const event of ['peopleCreated', 'borrowersUpdated', 'peopleDeleted']) {
		const { status, body, workflowData } = await deliver(receiver, event, uri);
		answers.push({ event, status, body, started: workflowData?.[0].length });
	}
	await receiver.deactivate();
	const wire = takeWire(receiver).map((line) =>
		line.replace(/wh-\d+/g, 'wh-n').replace(/p_\d+/g, 'p_n'),
	);
	return { activated, answers, wire };
}

/** Version 1.2's Filters as fields: one entry per condition, as the editor stores them. */
const fields = (...filter: IDataObject[]): INodeParameters => ({
	filtersMode: 'fields',
	filterFields: { filter } as INodeParameters,
});

describe('version 1.2 makes the same wire and matching as 1.1', () => {
	test('events by name and Filters as fields (text and number): the same webhooks, the same deliveries started', async () => {
		const before = await scenario(1.1, SAVED_1_1);
		const after = await scenario(1.2, {
			events: ['peopleCreated', 'notesCreated'],
			...fields(
				{ field: 'stage', valueType: 'string', value: 'Lead' },
				{ field: 'minPrice', valueType: 'number', numberValue: 450000 },
			),
		});
		expect(after).toEqual(before);
		expect(before.wire.filter((line) => line.startsWith('POST'))).toHaveLength(2);
		expect(before.answers.map((a) => a.started)).toEqual([1, undefined, undefined]);
	});

	test('the JSON mode sends the object as 1.1 did, nested values and __proto__ included', async () => {
		const filters = '{"__proto__":{"x":1},"stage":{"in":["Lead","Hot"]}}';
		const before = await scenario(1.1, { events: ['peopleCreated'], filters });
		const after = await scenario(1.2, { events: ['peopleCreated'], filtersMode: 'json', filters });
		expect(after).toEqual(before);
		expect(before.wire.join('\n')).toContain(`"filters":${filters}`);
	});

	test('Register Webhook on Activation with fields (a boolean among them) sends the PUT 1.1 sends with JSON', async () => {
		const register = { events: ['borrowersUpdated'], registerWebhook: true, webhookId: 'w-1' };
		const before = await scenario(1.1, { ...register, filters: '{"vip": true, "stage": "5"}' });
		const after = await scenario(1.2, {
			...register,
			...fields(
				{ field: 'vip', valueType: 'boolean', booleanValue: true },
				{ field: 'stage', value: '5' },
			),
		});
		expect(after).toEqual(before);
		expect(after.wire[0]).toBe(
			'PUT calendar /api/webhooks/w-1 200 {"url":"<url>","event":"borrowersUpdated","filters":{"vip":true,"stage":"5"}}',
		);
	});

	test('no filter entered (fields or JSON) sends no filters, as 1.1 at {}', async () => {
		const before = await scenario(1.1, { events: ['peopleCreated'] });
		expect(before.wire.find((line) => line.startsWith('POST'))).toBe(
			'POST crm /api/webhooks 201 {"url":"<url>","event":"peopleCreated"}',
		);
		expect(await scenario(1.2, { events: ['peopleCreated'] })).toEqual(before);
		expect(await scenario(1.2, { events: ['peopleCreated'], ...fields() })).toEqual(before);
		const json = { events: ['peopleCreated'], filtersMode: 'json', filters: ' ' };
		expect(await scenario(1.2, json)).toEqual(before);
	});

	test('Filters as fields that cannot be sent exactly fail activation naming the field; nothing is created', async () => {
		const refused: Array<[IDataObject[], string]> = [
			[
				[{ field: 'minPrice', valueType: 'number', numberValue: Number.MAX_SAFE_INTEGER + 2 }],
				'Filters: holds at minPrice a number beyond ±9007199254740991, where a number loses digits; it is not sent rounded (give it as text)',
			],
			[[{ field: ' ', value: 'Lead' }], 'Filters: filter 1 has no Field'],
			[
				[
					{ field: 'stage', value: 'Lead' },
					{ field: 'stage', value: 'Hot' },
				],
				'Filters: the field "stage" is given twice; give each field once',
			],
			[
				[{ field: 'rating', valueType: 'number', numberValue: '={{ "high" }}' }],
				'Filters: the Value of "rating" is not a number',
			],
			[[{ field: 'stage', value: '={{ { a: 1 } }}' }], 'Filters: the Value of "stage" is not text'],
		];
		for (const [filter, message] of refused) {
			const receiver = await trigger(1.2, { events: ['peopleCreated'], ...fields(...filter) });
			await expect(receiver.activate()).rejects.toThrow(message);
		}
		// The same number in the JSON mode is refused with the same words.
		const json = await trigger(1.2, {
			events: ['peopleCreated'],
			filtersMode: 'json',
			filters: '{"minPrice": 9007199254740993}',
		});
		await expect(json.activate()).rejects.toThrow(refused[0][1]);
		expect(sandbox.requests.filter((r) => r.method !== 'GET')).toEqual([]);
	});

	test('JSON Filters that would be sent changed fail activation in every version, naming the field; nothing is sent', async () => {
		const changed = 'a number that a number cannot keep exactly (too many digits, or too small)';
		const refused: Array<[number, string, string]> = [
			[1.2, '{"stage":"Lead","stage":"Closed"}', 'the field "stage" is given twice'],
			[1.2, '{"stage":"Lead","st\\u0061ge":"Closed"}', 'the field "stage" is given twice'],
			[1.1, '{"stage":{"in":["Lead"],"in":["Hot"]}}', 'the field "stage.in" is given twice'],
			[1, '{"minPrice": 1e400}', 'holds at minPrice a number beyond ±9007199254740991'],
			[1.1, '{"minPrice": 1.00000000000000001}', `holds at minPrice ${changed}`],
			[1.2, '{"price": {"gt": [1, 1e-400]}}', `holds at price.gt[1] ${changed}`],
		];
		for (const [version, filters, problem] of refused) {
			const parameters = {
				events: ['peopleCreated'],
				manageWebhooks: true,
				filtersMode: 'json',
				filters,
			};
			const receiver = await trigger(version, parameters);
			await expect(receiver.activate()).rejects.toThrow(`Filters: ${problem}`);
		}
		expect(sandbox.requests.filter((r) => r.method !== 'GET')).toEqual([]);

		// Numbers written otherwise but kept exactly are sent as their value.
		const exact = '{"a":1.0,"b":1e2,"c":0.1,"d":-2.50,"e":0.30000000000000004}';
		const { wire } = await scenario(1.2, {
			events: ['peopleCreated'],
			filtersMode: 'json',
			filters: exact,
		});
		expect(wire.join('\n')).toContain(
			'"filters":{"a":1,"b":100,"c":0.1,"d":-2.5,"e":0.30000000000000004}',
		);
	});

	test('a new trigger gets version 1.2, and its events at their default are the wire names 1.1 stored', async () => {
		const { loadPackage } = await import('../harness/engine');
		const { nodeTypes } = await loadPackage();
		const type = nodeTypes.getByNameAndVersion(`${(await import('./receiver')).TRIGGER_TYPE}`);
		expect(type.description.defaultVersion).toBe(1.2);
		const atDefaults = await scenario(1.2, {});
		expect(atDefaults).toEqual(await scenario(1.1, {}));
		expect(atDefaults.wire.find((line) => line.startsWith('POST'))).toContain(
			'"event":"peopleCreated"',
		);
	});
});
