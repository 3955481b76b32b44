/**
 * The Integration Service Trigger's webhook through n8n-core's real WebhookContext and HookContext:
 * each delivery is a real HTTP request on 127.0.0.1; the tests assert the status the sender gets, the
 * items the trigger starts the workflow with, and what reached the sandbox (and what did not).
 */
import { createHmac } from 'crypto';

import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { sandboxCredentials, signedJwtCredentials, useSandbox } from '../harness/fixtures';
import { credentialsFor, sendJson, startHostile, type HostileServer } from '../hostile/server';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { startReceiver, type Receiver } from './receiver';

const SECRET = 'whsec-test-signing-secret';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), { people: 0 });

let receivers: Receiver[] = [];
afterEach(async () => {
	await Promise.all(receivers.map(async (r) => await r.close()));
	receivers = [];
});

async function receiver(
	parameters: INodeParameters,
	credentials: ICredentialDataDecryptedObject = sandboxCredentials(sandbox, {
		signingSecret: SECRET,
	}),
): Promise<Receiver> {
	const started = await startReceiver(
		{ events: ['peopleCreated'], fetchRecords: false, ...parameters },
		credentials,
	);
	receivers.push(started);
	return started;
}

type Form = 'hex(base64 body)' | 'base64(base64 body)' | 'hex(raw body)' | 'base64(raw body)';
const FORMS: Form[] = [
	'hex(base64 body)',
	'base64(base64 body)',
	'hex(raw body)',
	'base64(raw body)',
];

/** Our own reading of decisions.md's signature, independent of the node's code. */
function sign(body: string | Buffer, form: Form = 'hex(base64 body)', secret = SECRET): string {
	const raw = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
	const input = form.includes('base64 body') ? raw.toString('base64') : raw;
	return createHmac('sha256', secret)
		.update(input)
		.digest(form.startsWith('hex') ? 'hex' : 'base64');
}

function signed(body: string | Buffer, form?: Form, secret?: string): Record<string, string> {
	return { 'Content-Type': 'application/json', 'X-Service-Signature': sign(body, form, secret) };
}

let eventCounter = 0;
function eventBody(fields: IDataObject = {}): string {
	eventCounter++;
	return JSON.stringify({
		eventId: `evt-${eventCounter}`,
		eventCreated: '2026-11-22T10:00:00Z',
		event: 'peopleCreated',
		resourceIds: ['p_1'],
		uri: `${sandbox.urls.crm}/api/people?ids=p_1`,
		...fields,
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
		body: JSON.stringify({ firstName, lastName: 'Tester' }),
	});
	expect(answer.status).toBe(200);
	const person = (await answer.json()) as IDataObject;
	sandbox.requests.length = 0;
	return person;
}

describe('signature', () => {
	test.each(FORMS)('a delivery signed as %s starts the workflow with the event', async (form) => {
		const trigger = await receiver({});
		const body = eventBody();

		const delivery = await trigger.deliver(body, signed(body, form));

		expect(delivery.status).toBe(200);
		expect(delivery.workflowData).toEqual([[{ json: JSON.parse(body) }]]);
		expect(trigger.started).toHaveLength(1);
	});

	test.each(FORMS)(
		'a delivery signed as %s with another secret gets 401 and starts nothing',
		async (form) => {
			const trigger = await receiver({});
			const body = eventBody();

			const delivery = await trigger.deliver(body, signed(body, form, 'not-the-secret'));

			expect(delivery.status).toBe(401);
			expect(delivery.body).toEqual({ error: 'Invalid X-Service-Signature' });
			expect(trigger.started).toHaveLength(0);
		},
	);

	test('an unsigned delivery gets 401 and starts nothing', async () => {
		const trigger = await receiver({});

		const delivery = await trigger.deliver(eventBody(), { 'Content-Type': 'application/json' });

		expect(delivery).toMatchObject({ status: 401, body: { error: 'Missing X-Service-Signature' } });
		expect(trigger.started).toHaveLength(0);
	});

	test('the signature covers the exact bytes: the same JSON sent re-serialised or altered is refused', async () => {
		const trigger = await receiver({});
		const body = eventBody();
		const pretty = JSON.stringify(JSON.parse(body), null, 2);
		const altered = body.replace('p_1', 'p_2');

		expect(
			(await trigger.deliver(pretty, { ...signed(body), 'Content-Type': 'application/json' }))
				.status,
		).toBe(401);
		expect((await trigger.deliver(altered, signed(body))).status).toBe(401);
		// The same signature with the body it was made for passes: the refusals above were for the bytes.
		expect((await trigger.deliver(body, signed(body))).status).toBe(200);
		expect(trigger.started).toHaveLength(1);
	});

	test('only the four forms are accepted: prefixed, truncated, doubled or url-safe digests are refused', async () => {
		const trigger = await receiver({});
		const body = eventBody();
		const hex = sign(body);
		// A body whose raw-body base64 digest contains "+" or "/", so its url-safe form differs.
		let variant = body;
		let b64 = sign(variant, 'base64(raw body)');
		for (let n = 0; !/[+/]/.test(b64); n++) {
			variant = eventBody({ eventId: `evt-variant-${n}` });
			b64 = sign(variant, 'base64(raw body)');
		}
		const urlSafe = b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=$/, '');

		for (const [text, bytes] of [
			[`sha256=${hex}`, body],
			[hex.slice(0, 63), body],
			[`${hex}${hex}`, body],
			[urlSafe, variant],
			['', body],
		] as const) {
			const delivery = await trigger.deliver(bytes, {
				'Content-Type': 'application/json',
				'X-Service-Signature': text,
			});
			expect(delivery.status).toBe(401);
		}
		expect(trigger.started).toHaveLength(0);
	});

	test('Access Token mode without a Webhook Signing Secret refuses every delivery and says why', async () => {
		const trigger = await receiver({}, sandboxCredentials(sandbox, { signingSecret: '' }));
		const body = eventBody();

		const delivery = await trigger.deliver(body, signed(body));

		expect(delivery.status).toBe(401);
		expect((delivery.body as IDataObject).error).toMatch(/no Webhook Signing Secret/);
		expect(trigger.started).toHaveLength(0);
	});

	test('Client ID and Secret mode verifies with the client secret, not a signing secret', async () => {
		const credentials = signedJwtCredentials(sandbox, { signingSecret: SECRET });
		const trigger = await receiver({}, credentials);
		const body = eventBody();

		expect((await trigger.deliver(body, signed(body))).status).toBe(401);
		const delivery = await trigger.deliver(
			body,
			signed(body, 'hex(base64 body)', credentials.clientSecret as string),
		);
		expect(delivery.status).toBe(200);
		expect(trigger.started).toHaveLength(1);
	});

	test('with Verify Signature off, an unsigned delivery starts the workflow', async () => {
		const trigger = await receiver({ verifySignature: false }, sandboxCredentials(sandbox));
		const body = eventBody();

		const delivery = await trigger.deliver(body);

		expect(delivery.status).toBe(200);
		expect(delivery.workflowData).toEqual([[{ json: JSON.parse(body) }]]);
	});
});

describe('deduplication', () => {
	test('a redelivered eventId is acknowledged and starts nothing; another eventId starts again', async () => {
		const trigger = await receiver({});
		const first = eventBody();
		const second = eventBody();

		const deliveries = [];
		for (const body of [first, first, second, first])
			deliveries.push(await trigger.deliver(body, signed(body)));

		expect(deliveries.map((d) => d.status)).toEqual([200, 200, 200, 200]);
		expect(deliveries.map((d) => d.workflowData !== undefined)).toEqual([true, false, true, false]);
		expect(deliveries[1].body).toEqual({
			received: true,
			started: false,
			reason: 'duplicate eventId',
		});
		expect(trigger.started.map((items) => items[0].json.eventId)).toEqual([
			JSON.parse(first).eventId,
			JSON.parse(second).eventId,
		]);
		expect(trigger.storedStaticData).toEqual({
			'node:Integration Service Trigger': {
				recentEventIds: [JSON.parse(first).eventId, JSON.parse(second).eventId],
			},
		});
	});

	test('memory is capped at 1,000 ids: the oldest is forgotten when a new one arrives', async () => {
		const trigger = await receiver({});
		const ids = Array.from({ length: 1000 }, (_, n) => `old-${n}`);
		trigger.seedStaticData({ 'node:Integration Service Trigger': { recentEventIds: ids } });

		const fresh = eventBody({ eventId: 'new-1' });
		expect((await trigger.deliver(fresh, signed(fresh))).workflowData).toBeDefined();
		const kept = (trigger.storedStaticData['node:Integration Service Trigger'] as IDataObject)
			.recentEventIds as string[];
		expect(kept).toHaveLength(1000);
		expect(kept[0]).toBe('old-1');
		expect(kept[999]).toBe('new-1');

		// Still remembered: old-1; forgotten (beyond the cap): old-0, which would start again.
		const remembered = eventBody({ eventId: 'old-1' });
		expect((await trigger.deliver(remembered, signed(remembered))).workflowData).toBeUndefined();
		const forgotten = eventBody({ eventId: 'old-0' });
		expect((await trigger.deliver(forgotten, signed(forgotten))).workflowData).toBeDefined();
	});

	test('concurrent deliveries of one eventId start one execution (claimed before the records are read)', async () => {
		const trigger = await receiver({ fetchRecords: true });
		const person = await createPerson('Concurrent');
		const body = eventBody({
			resourceIds: [person.id],
			uri: `${sandbox.urls.crm}/api/people?ids=${String(person.id)}`,
		});

		// Reading the records takes a while, so all four are in the trigger at once; sent straight to the webhook
		// URL, each loads the static data as stored before any of them answered (as n8n does).
		sandbox.inject({ delayMs: 300, match: { host: 'crm', method: 'GET' }, count: 4 });
		const answers = await Promise.all(
			Array.from(
				{ length: 4 },
				async () =>
					await fetch(trigger.url, {
						method: 'POST',
						headers: { 'Content-Type': 'application/json', ...signed(body) },
						body,
					}),
			),
		);

		expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
		expect(trigger.started).toHaveLength(1);
		// One read of the records: the other three were answered as duplicates before reading anything.
		expect(sandbox.requests.filter((request) => request.method === 'GET')).toHaveLength(1);
	});

	test('a forged delivery with a known eventId changes nothing: the genuine event still starts once', async () => {
		const trigger = await receiver({});
		const body = eventBody();

		expect((await trigger.deliver(body, signed(body, 'hex(base64 body)', 'forger'))).status).toBe(
			401,
		);
		expect((await trigger.deliver(body, signed(body))).workflowData).toBeDefined();
		expect(trigger.started).toHaveLength(1);
	});
});

describe('memory across an n8n restart', () => {
	test('the trigger answers a delivery that starts the workflow itself, so n8n saves the static data before the run starts: after a restart no redelivery starts again', async () => {
		const trigger = await receiver({});
		const bodies = [eventBody(), eventBody(), eventBody()];
		for (const body of bodies) {
			const delivery = await trigger.deliver(body, signed(body));
			expect(delivery.status).toBe(200);
			expect(delivery.body).toEqual({ message: 'Workflow was started' });
			expect(delivery.workflowData).toBeDefined();
		}

		// The same workflow after a restart: the stored static data, no process memory.
		const restarted = await startReceiver(
			{ events: ['peopleCreated'], fetchRecords: false },
			sandboxCredentials(sandbox, { signingSecret: SECRET }),
			{ workflowId: 'trigger-workflow-after-restart' },
		);
		receivers.push(restarted);
		restarted.seedStaticData(trigger.storedStaticData);
		for (const body of bodies) {
			const again = await restarted.deliver(body, signed(body));
			expect(again.status).toBe(200);
			expect(again.body).toEqual({ received: true, started: false, reason: 'duplicate eventId' });
		}
		expect(restarted.started).toHaveLength(0);
		const fresh = eventBody();
		expect((await restarted.deliver(fresh, signed(fresh))).workflowData).toBeDefined();
	});

	test('an eventId of 100,000 characters is remembered by its SHA-256 (71 characters), and still refused after a restart', async () => {
		const trigger = await receiver({});
		const body = eventBody({ eventId: 'e'.repeat(100_000) });
		expect((await trigger.deliver(body, signed(body))).workflowData).toBeDefined();
		const kept = (trigger.storedStaticData['node:Integration Service Trigger'] as IDataObject)
			.recentEventIds as string[];
		expect(kept).toHaveLength(1);
		expect(kept[0]).toMatch(/^sha256:[0-9a-f]{64}$/);

		const restarted = await startReceiver(
			{ events: ['peopleCreated'], fetchRecords: false },
			sandboxCredentials(sandbox, { signingSecret: SECRET }),
			{ workflowId: 'trigger-workflow-long-id' },
		);
		receivers.push(restarted);
		restarted.seedStaticData(trigger.storedStaticData);
		expect((await restarted.deliver(body, signed(body))).workflowData).toBeUndefined();
	});
});

describe('event filter', () => {
	test('an event that is not selected is acknowledged with 200 and starts nothing, fetching nothing', async () => {
		const trigger = await receiver({
			events: ['peopleCreated', 'borrowersUpdated'],
			fetchRecords: true,
		});
		const body = eventBody({ event: 'peopleUpdated' });

		const delivery = await trigger.deliver(body, signed(body));

		expect(delivery).toMatchObject({
			status: 200,
			body: { started: false, reason: 'event peopleUpdated is not selected' },
		});
		expect(delivery.workflowData).toBeUndefined();
		expect(sandbox.requests).toHaveLength(0);
		// Not remembered either: selecting the event later would let a redelivery through.
		expect(trigger.storedStaticData).toEqual({});
	});

	test('a selected event among several, and any event with Any Event, start the workflow', async () => {
		const several = await receiver({ events: ['peopleCreated', 'borrowersUpdated'] });
		const borrowers = eventBody({ event: 'borrowersUpdated' });
		expect((await several.deliver(borrowers, signed(borrowers))).workflowData).toBeDefined();

		const any = await receiver({ events: ['*'] });
		const unusual = eventBody({ event: 'pondsDeleted' });
		expect((await any.deliver(unusual, signed(unusual))).workflowData).toEqual([
			[{ json: JSON.parse(unusual) }],
		]);
	});
});

describe('Fetch Records', () => {
	test('reads the record at the event uri through the transport and outputs it as the item', async () => {
		const person = await createPerson('Grace');
		const trigger = await receiver({ fetchRecords: true });
		const uri = `${sandbox.urls.crm}/api/people?ids=${String(person.id)}`;
		const body = eventBody({ resourceIds: [person.id], uri });

		const delivery = await trigger.deliver(body, signed(body));

		expect(delivery.status).toBe(200);
		expect(delivery.workflowData).toEqual([[{ json: person }]]);
		expect(sandbox.requests).toHaveLength(1);
		const [request] = sandbox.requests;
		expect(request).toMatchObject({
			host: 'crm',
			method: 'GET',
			url: `/api/people?ids=${String(person.id)}`,
			status: 200,
		});
		expect(request.headers.authorization).toBe(`Bearer ${sandbox.token}`);
		expect(request.headers['x-service-credential-id']).toBe(sandbox.defaultCredentialId);
	});

	test('follows nextLink pages of the uri: one item per record', async () => {
		const people = [await createPerson('A'), await createPerson('B'), await createPerson('C')];
		sandbox.setPaging('nextLink');
		const trigger = await receiver({ fetchRecords: true });
		const body = eventBody({ uri: `${sandbox.urls.crm}/api/people?limit=2` });

		const delivery = await trigger.deliver(body, signed(body));

		expect(delivery.workflowData?.[0].map((item) => item.json.id)).toEqual(people.map((p) => p.id));
		expect(sandbox.requests.map((r) => r.method + ' ' + r.host)).toEqual(['GET crm', 'GET crm']);
	});

	test.each([
		['another port on the same address', (foreign: string) => `${foreign}/api/people?ids=p_1`],
		[
			'a configured host as user name of another origin',
			(foreign: string) => `${sandbox.urls.crm}@${foreign.replace('http://', '')}/api/people`,
		],
	])(
		'a uri on %s is refused with 422 naming its origin; nothing is sent anywhere',
		async (_label, uriOf) => {
			const foreign = await startSandbox();
			try {
				const trigger = await receiver({ fetchRecords: true });
				const body = eventBody({ uri: uriOf(foreign.urls.crm) });

				const delivery = await trigger.deliver(body, signed(body));

				expect(delivery.status).toBe(422);
				expect((delivery.body as IDataObject).error).toContain(new URL(foreign.urls.crm).origin);
				expect(delivery.workflowData).toBeUndefined();
				expect(foreign.requests).toHaveLength(0);
				expect(sandbox.requests).toHaveLength(0);
			} finally {
				await foreign.close();
			}
		},
	);

	test.each([
		['an encoded ".." segment', '/api/%2e%2e/__sandbox/counts', 'it has a "." or ".." segment'],
		['a ".." segment', '/api/people/../../__sandbox/requests', 'it has a "." or ".." segment'],
		['a mixed-case ".%2E" segment', '/api/people/.%2E/.%2e/__sandbox/counts', 'it has a'],
		['a double-encoded segment', '/api/people/%252e%252e/x', 'it has a "." or ".." segment'],
		['an encoded separator', '/api/people%2F..%2F..%2F__sandbox', 'it has a "." or ".." segment'],
		[
			'a dot segment without /api',
			'/people/%2e%2e/__sandbox/counts',
			'it has a "." or ".." segment',
		],
	])(
		'a uri on the right origin with %s is refused with 422; nothing is sent',
		async (_label, path, reason) => {
			const trigger = await receiver({ fetchRecords: true });
			const body = eventBody({ uri: `${sandbox.urls.crm}${path}` });

			const delivery = await trigger.deliver(body, signed(body));

			expect(delivery.status).toBe(422);
			const error = (delivery.body as IDataObject).error as string;
			expect(error).toContain(`The event's uri on ${new URL(sandbox.urls.crm).origin} is refused`);
			expect(error).toContain(reason);
			expect(error).not.toContain('__sandbox');
			expect(delivery.workflowData).toBeUndefined();
			expect(sandbox.requests).toHaveLength(0);
		},
	);

	test("a uri on the CRM host's origin beside its base path is refused with 422; nothing is sent", async () => {
		const trigger = await receiver(
			{ fetchRecords: true },
			sandboxCredentials(sandbox, { signingSecret: SECRET, crmUrl: `${sandbox.urls.crm}/base` }),
		);
		const body = eventBody({ uri: `${sandbox.urls.crm}/__sandbox/counts` });

		const delivery = await trigger.deliver(body, signed(body));

		expect(delivery).toMatchObject({
			status: 422,
			body: {
				error: `The event's uri on ${new URL(sandbox.urls.crm).origin} is refused: its path is not under /base/; it is not read with your token`,
			},
		});
		expect(sandbox.requests).toHaveLength(0);
	});

	test('a Deleted event is not fetched: the event itself is the item', async () => {
		const trigger = await receiver({ events: ['peopleDeleted'], fetchRecords: true });
		const body = eventBody({ event: 'peopleDeleted' });

		const delivery = await trigger.deliver(body, signed(body));

		expect(delivery.workflowData).toEqual([[{ json: JSON.parse(body) }]]);
		expect(sandbox.requests).toHaveLength(0);
	});

	test('when the records cannot be read the sender gets 5xx, and its redelivery (same eventId) still starts the workflow', async () => {
		const person = await createPerson('Hedy');
		const trigger = await receiver({ fetchRecords: true });
		const body = eventBody({ uri: `${sandbox.urls.crm}/api/people?ids=${String(person.id)}` });
		sandbox.inject({ status: 503, match: { host: 'crm', method: 'GET' }, count: 3 });

		const failed = await trigger.deliver(body, signed(body));
		expect(failed.status).toBe(500);
		expect(failed.workflowData).toBeUndefined();
		expect(sandbox.requests.map((r) => r.status)).toEqual([503, 503, 503]);

		const retried = await trigger.deliver(body, signed(body));
		expect(retried.workflowData).toEqual([[{ json: person }]]);
		expect(trigger.started).toHaveLength(1);
	});
});

describe('a uri without /api (shared spec: a full URL on a service host, read as given)', () => {
	let hosts: HostileServer[] = [];
	afterEach(async () => {
		await Promise.all(hosts.map(async (h) => await h.close()));
		hosts = [];
	});

	/** The CRM and LOS hosts on their own origins, each answering a list of the ids its uri names. */
	async function crmAndLos(): Promise<{ crm: HostileServer; los: HostileServer }> {
		const [crm, los] = await Promise.all([startHostile(), startHostile()]);
		hosts.push(crm, los);
		for (const [server, list] of [
			[crm, 'people'],
			[los, 'borrowers'],
		] as const) {
			server.script((request, res) => {
				const ids = new URL(request.url, server.origin).searchParams.get('ids') ?? '';
				const records = ids.split(',').map((id) => ({ id, from: list }));
				sendJson(res, 200, {
					_metadata: { collection: list, offset: 0, total: records.length },
					[list]: records,
				});
			});
		}
		return { crm, los };
	}

	test.each([
		['CRM', 'crm', '/people?ids=a,b', 'people'],
		['LOS', 'los', '/borrowers?ids=a,b', 'borrowers'],
	] as const)(
		'a delivery whose uri is on the %s host without /api fetches exactly that URL there with the token, and starts the workflow with its records',
		async (_label, name, pathAndQuery, list) => {
			const servers = await crmAndLos();
			const trigger = await receiver(
				{ events: ['peopleCreated', 'borrowersCreated'], fetchRecords: true },
				credentialsFor(servers.crm.origin, {
					losUrl: servers.los.origin,
					signingSecret: SECRET,
				}),
			);
			const body = eventBody({
				event: name === 'crm' ? 'peopleCreated' : 'borrowersCreated',
				resourceIds: ['a', 'b'],
				uri: `${servers[name].origin}${pathAndQuery}`,
			});

			const delivery = await trigger.deliver(body, signed(body));

			expect(delivery.status).toBe(200);
			expect(delivery.workflowData).toEqual([
				[{ json: { id: 'a', from: list } }, { json: { id: 'b', from: list } }],
			]);
			const other = name === 'crm' ? servers.los : servers.crm;
			expect(other.received).toHaveLength(0);
			expect(servers[name].received).toHaveLength(1);
			const [request] = servers[name].received;
			expect(request).toMatchObject({ method: 'GET', url: pathAndQuery });
			expect(request.headers.authorization).toBe('Bearer token-123456');
			expect(request.headers['x-service-credential-id']).toBe('cred-1');
		},
	);
});

describe('a delivery answers within 20 s', () => {
	test('an endless list at the uri (new records on every page, no total) fails the delivery once 20 s of reading have passed: 500 naming the bound, nothing started, nothing more sent', async () => {
		const service = await startHostile();
		// The pages are slow: each takes 3 s on the clock the node reads, so the test need not wait 20 s.
		// That clock moves only by those 3 s: the real time a page takes on a loaded machine does not count.
		const startedAt = Date.now();
		let skew = 0;
		const clock = jest.spyOn(Date, 'now').mockImplementation(() => startedAt + skew);
		try {
			service.script((request, res) => {
				const page = Number(new URL(request.url, service.origin).searchParams.get('page'));
				skew += 3000;
				sendJson(res, 200, {
					people: Array.from({ length: 100 }, (_, i) => ({ id: `p_${page}_${i}` })),
					_metadata: { nextLink: `/api/people?page=${page + 1}` },
				});
			});
			const trigger = await receiver(
				{ fetchRecords: true },
				credentialsFor(service.origin, { signingSecret: SECRET }),
			);
			const body = eventBody({ uri: `${service.origin}/api/people?page=0` });

			const delivery = await trigger.deliver(body, signed(body));

			expect(delivery.status).toBe(500);
			expect(delivery.body).toEqual({
				message: "Not sent: the 20 s limit for reading a delivery's records has passed",
			});
			expect(delivery.workflowData).toBeUndefined();
			expect(trigger.started).toHaveLength(0);
			// 20 s at 3 s a page is 7 pages; without the bound it reads 2,500 (MAX_RECORDS).
			expect(service.received.length).toBeGreaterThanOrEqual(5);
			expect(service.received.length).toBeLessThanOrEqual(7);
		} finally {
			clock.mockRestore();
			await service.close();
		}
	});
});

describe('bad deliveries', () => {
	test.each([
		[
			'a body that is not JSON (text/plain)',
			'eventId=1&event=peopleCreated',
			'text/plain',
			400,
			'The body is not valid JSON',
		],
		[
			'a JSON array',
			'[{"eventId":"e","event":"peopleCreated"}]',
			'application/json',
			400,
			'The body is not a JSON object',
		],
		[
			'no eventId',
			'{"event":"peopleCreated","uri":"x"}',
			'application/json',
			400,
			'The event has no "eventId"',
		],
		[
			'an empty eventId',
			'{"eventId":" ","event":"peopleCreated"}',
			'application/json',
			400,
			'The event has no "eventId"',
		],
		['no event', '{"eventId":"e-1"}', 'application/json', 400, 'The event has no "event"'],
		['an empty body', '', 'application/json', 400, 'The body is not valid JSON'],
	])(
		'%s (signed) gets %#: 4xx and starts nothing',
		async (_label, body, contentType, status, error) => {
			const trigger = await receiver({});

			const delivery = await trigger.deliver(body, {
				...signed(body),
				'Content-Type': contentType,
			});

			expect(delivery.status).toBe(status);
			expect(delivery.body).toEqual({ error });
			expect(trigger.started).toHaveLength(0);
		},
	);

	test('invalid JSON declared as application/json is answered 422 by n8n before the trigger runs', async () => {
		const trigger = await receiver({});
		const body = '{"eventId": "e-1", "event": ';

		const delivery = await trigger.deliver(body, signed(body));

		expect(delivery.status).toBe(422);
		expect(trigger.started).toHaveLength(0);
	});

	test('a body over 1 MiB gets 413 even when signed, and starts nothing', async () => {
		const trigger = await receiver({});
		const body = eventBody({ padding: 'x'.repeat(1024 * 1024) });

		const delivery = await trigger.deliver(body, signed(body));

		expect(delivery.status).toBe(413);
		expect(trigger.started).toHaveLength(0);
	});
});

describe('Register Webhook on Activation', () => {
	test('activation updates the webhook with the production URL, the event and the filters', async () => {
		const trigger = await receiver({
			registerWebhook: true,
			webhookId: 'w-1',
			filters: '{"stage": "Lead"}',
		});

		expect(await trigger.activate()).toEqual({ created: true });

		expect(sandbox.requests).toHaveLength(1);
		const [request] = sandbox.requests;
		expect(request).toMatchObject({
			host: 'calendar',
			method: 'PUT',
			url: '/api/webhooks/w-1',
			status: 200,
		});
		expect(request.body).toEqual({
			url: trigger.url,
			event: 'peopleCreated',
			filters: { stage: 'Lead' },
		});
		expect(request.headers.authorization).toBe(`Bearer ${sandbox.token}`);
		expect(request.headers['x-service-credential-id']).toBe(sandbox.defaultCredentialId);
	});

	test('a key of the Filters is sent as written, __proto__ and constructor included', async () => {
		const filters = '{"__proto__":{"x":1},"constructor":"c","stage":"Lead"}';
		const trigger = await receiver({ registerWebhook: true, webhookId: 'w-1', filters });

		expect(await trigger.activate()).toEqual({ created: true });

		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0].rawBody).toContain(`"filters":${filters}`);
	});

	test('with several events (or Any Event) activation fails with a clear error and sends nothing', async () => {
		for (const events of [['peopleCreated', 'peopleUpdated'], ['*']]) {
			const trigger = await receiver({ registerWebhook: true, webhookId: 'w-1', events });
			await expect(trigger.activate()).rejects.toThrow(
				'Register Webhook on Activation needs exactly one event selected (not Any Event)',
			);
		}
		expect(sandbox.requests).toHaveLength(0);
	});

	test('a test listen (manual), registration off, and deactivation send nothing', async () => {
		const registering = await receiver({ registerWebhook: true, webhookId: 'w-1' });
		expect(await registering.activate('manual', 'manual')).toEqual({ created: false });
		expect(await registering.deactivate()).toBe(true);
		const off = await receiver({});
		expect(await off.activate()).toEqual({ created: false });
		expect(sandbox.requests).toHaveLength(0);
	});

	test('a webhook ID that is not a plain ID is refused before anything is sent', async () => {
		const trigger = await receiver({ registerWebhook: true, webhookId: '..' });
		await expect(trigger.activate()).rejects.toThrow('Webhook ID: ".." is not a valid ID');
		expect(sandbox.requests).toHaveLength(0);
	});

	test('a Webhook ID given as a number past 2^53 is refused, not sent rounded as another webhook', async () => {
		const trigger = await receiver({
			registerWebhook: true,
			webhookId: '={{ 12345678901234567890 }}',
		});
		await expect(trigger.activate()).rejects.toThrow(
			'Webhook ID: is a number beyond ±9007199254740991, where a number loses digits; it is not sent rounded (give it as text)',
		);
		expect(sandbox.requests).toHaveLength(0);
	});
});
