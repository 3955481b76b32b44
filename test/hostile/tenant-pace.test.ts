/**
 * Runs of the node that use one tenant (the same n8n credential, Connection ID and host) share one
 * request budget and one 429 pause in the process: concurrent executions together keep Max Requests
 * Per Second. Checked through n8n's real engine, several executions started at once, against a
 * scripted service that records when each request arrived.
 *
 * Load on the machine can only slow requests down, so time is checked as a lower bound (a shared
 * budget of `cap` per second needs at least (n - 1) / cap seconds for n requests). The busiest second
 * at the service is checked exactly: a request counts against the cap from its start until a second
 * after its answer, so neither a stalled process nor a proxy that holds requests and releases them
 * together can put more than the cap into one second.
 */
import * as net from 'net';
import type { ICredentialDataDecryptedObject, INodeParameters } from 'n8n-workflow';
import { join } from 'path';

import { busiestSecond } from '../harness/busiest-second';
import { runNode, type RunResult } from '../harness/engine';
import { packageRoot } from '../harness/package-root';
import { credentialsFor, sendJson, startHostile, type HostileServer } from './server';

let service: HostileServer;
let other: HostileServer;
beforeAll(async () => {
	[service, other] = await Promise.all([startHostile(), startHostile()]);
});
afterAll(async () => await Promise.all([service.close(), other.close()]));
beforeEach(() => {
	service.received.length = 0;
	other.received.length = 0;
});

const CREATE: INodeParameters = {
	resource: 'person',
	operation: 'create',
	mappingMode: 'defineBelow',
	firstName: '={{ $json.name }}',
	lastName: 'Tenant',
};

function created(server: HostileServer): void {
	server.script((request, res) =>
		sendJson(res, 201, { id: `p_${JSON.parse(request.body || '{}').firstName as string}` }),
	);
}

async function createPeople(
	runName: string,
	count: number,
	requestOptions: INodeParameters,
	credentials: ICredentialDataDecryptedObject = credentialsFor(service.origin),
	connectionId?: string,
): Promise<RunResult> {
	const items = Array.from({ length: count }, (_, index) => ({ name: `${runName}-${index}` }));
	return await runNode({
		parameters: {
			...CREATE,
			requestOptions,
			...(connectionId ? { credentialId: connectionId } : {}),
		},
		credentials,
		credentialId: 'one-tenant',
		items,
	});
}

/** Names the service received, each as often as it arrived. */
const namesReceived = (server: HostileServer) =>
	server.received.map((request) => JSON.parse(request.body).firstName as string);

/**
 * How many requests a limiter of `rate` per second with a burst of `rate` (a token bucket, the usual
 * way a service counts its limit) would have refused, given when they arrived.
 */
function refusedByTokenBucket(server: HostileServer, rate: number): number {
	let tokens = rate;
	let last = -Infinity;
	let refused = 0;
	for (const t of server.received.map((request) => request.at).sort((a, b) => a - b)) {
		tokens = Math.min(rate, tokens + ((t - last) / 1000) * rate);
		last = t;
		if (tokens >= 1) tokens -= 1;
		else refused++;
	}
	return refused;
}

/** Most requests that arrived at the server within any one second. */
const busiestSecondAt = (server: HostileServer) =>
	busiestSecond(server.received.map((request) => request.at));

test('four executions of one tenant started at once share Max Requests Per Second, and every person is created once', async () => {
	created(service);
	const cap = 20;
	const perRun = 15;
	const runs = ['a', 'b', 'c', 'd'];
	const started = Date.now();
	const results = await Promise.all(
		runs.map((name) => createPeople(name, perRun, { maxRequestsPerSecond: cap, concurrency: 16 })),
	);

	for (const [index, result] of results.entries()) {
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual(
			Array.from({ length: perRun }, (_, i) => `p_${runs[index]}-${i}`),
		);
	}
	const names = namesReceived(service);
	expect(names).toHaveLength(runs.length * perRun);
	expect(new Set(names).size).toBe(runs.length * perRun);
	// 60 requests at a shared 20 per second start no sooner than 2.95 s after the first could; four
	// separate budgets would be done in about 0.7 s.
	const lastArrival = Math.max(...service.received.map((request) => request.at));
	expect(lastArrival - started).toBeGreaterThanOrEqual(((runs.length * perRun - 1) * 1000) / cap);
	expect(busiestSecondAt(service)).toBeLessThanOrEqual(cap);
	expect(refusedByTokenBucket(service, cap)).toBe(0);
	console.info(
		`tenant pace: ${names.length} requests, busiest second ${busiestSecondAt(service)} (cap ${cap})`,
	);
});

/**
 * A TCP proxy in front of `upstream` that holds what a client sends on some connections for `holdMs`
 * before passing it on, as a buffering proxy or a stalled network does. n8n opens a connection per
 * request, so every `every`-th request reaches the service late, together with later ones.
 */
async function holdingProxy(
	upstream: string,
	every: number,
	holdMs: number,
): Promise<{ origin: string; close: () => Promise<void> }> {
	const { port: upstreamPort } = new URL(upstream);
	const sockets = new Set<net.Socket>();
	let connections = 0;
	const server = net.createServer((client) => {
		const held = ++connections % every === 0;
		const target = net.connect(Number(upstreamPort), '127.0.0.1');
		for (const socket of [client, target]) {
			sockets.add(socket);
			socket.on('close', () => sockets.delete(socket));
			socket.on('error', () => undefined);
		}
		target.pipe(client);
		client.pause();
		setTimeout(() => client.pipe(target), held ? holdMs : 0);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		origin: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
		close: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

test('a proxy that holds some requests and releases them late cannot put more than the cap into one second at the service', async () => {
	created(service);
	const proxy = await holdingProxy(service.origin, 3, 400);
	try {
		const cap = 10;
		const [a, b] = await Promise.all(
			['a', 'b'].map((name) =>
				createPeople(
					name,
					15,
					{ maxRequestsPerSecond: cap, concurrency: 16 },
					credentialsFor(proxy.origin),
				),
			),
		);
		expect(a.error).toBeUndefined();
		expect(b.error).toBeUndefined();
		const names = namesReceived(service);
		expect(names).toHaveLength(30);
		expect(new Set(names).size).toBe(30);
		// Counting starts alone lets a held request land in the same second as the next ten.
		expect(busiestSecondAt(service)).toBeLessThanOrEqual(cap);
		console.info(
			`tenant pace behind a holding proxy: ${names.length} requests, busiest second ${busiestSecondAt(service)} (cap ${cap})`,
		);
	} finally {
		await proxy.close();
	}
});

test('each Connection ID and host keeps its own pace', async () => {
	created(service);
	created(other);
	const cap = 5;
	const perTenant = 2 * cap;
	const tenants = [
		{ origin: service.origin, connection: 'connection-a' },
		{ origin: service.origin, connection: 'connection-b' },
		{ origin: other.origin, connection: 'connection-a' },
		{ origin: other.origin, connection: 'connection-c' },
	];
	await Promise.all(
		tenants.map(({ origin, connection }, index) =>
			createPeople(
				`t${index}`,
				perTenant,
				{ maxRequestsPerSecond: cap, concurrency: perTenant },
				credentialsFor(origin),
				connection,
			),
		),
	);

	for (const server of [service, other]) expect(server.received).toHaveLength(2 * perTenant);
	for (const { origin, connection } of tenants) {
		const server = origin === service.origin ? service : other;
		const times = server.received
			.filter((request) => request.headers['x-service-credential-id'] === connection)
			.map((r) => r.at);
		expect(times).toHaveLength(perTenant);
		// Each tenant keeps its own pace: no second at the service holds more than its cap, however
		// late the machine lets requests go (the span of arrivals is no bound: a late first one shrinks it).
		expect(busiestSecond(times)).toBeLessThanOrEqual(cap);
	}
});

/** The pace the harness loaded with the node from dist/, to see when a pause is held. */
function loadedPace(): {
	tenantKey(credential: string, connectionId: string | undefined, origin: string): string;
	pausedUntil(tenant: string): number;
} {
	return require(join(packageRoot(), 'dist/nodes/IntegrationService/transport/pace.js'));
}

test('another Connection ID or another host is not held by the budget of the others', async () => {
	created(service);
	created(other);
	// One request each at one per 100 s: four budgets send all four at once; one shared budget would
	// hold the second for 100 s. So "sooner than 100 s" holds at any speed the machine can have.
	const spacingMs = 100_000;
	const tenants = [
		{ origin: service.origin, connection: 'spaced-a' },
		{ origin: service.origin, connection: 'spaced-b' },
		{ origin: other.origin, connection: 'spaced-a' },
		{ origin: other.origin, connection: 'spaced-c' },
	];
	const started = Date.now();
	const results = await Promise.all(
		tenants.map(({ origin, connection }, index) =>
			createPeople(
				`s${index}`,
				1,
				{ maxRequestsPerSecond: 1000 / spacingMs },
				credentialsFor(origin),
				connection,
			),
		),
	);

	for (const result of results) expect(result.error).toBeUndefined();
	expect(service.received).toHaveLength(2);
	expect(other.received).toHaveLength(2);
	expect(Date.now() - started).toBeLessThan(spacingMs);
}, 150_000);

test('a 429 answered to one execution pauses the other executions of the tenant, including one with no cap', async () => {
	let limited = false;
	service.script((request, res) => {
		const name = JSON.parse(request.body).firstName as string;
		if (name === 'first-0' && !limited) {
			limited = true;
			return sendJson(res, 429, { error: 'slow down' }, { 'Retry-After': '1' });
		}
		sendJson(res, 201, { id: `p_${name}` });
	});
	const first = createPeople('first', 1, { maxRequestsPerSecond: 0, initialRetryDelay: 10 });
	// The second execution starts once the first has read the 429, not when the service sent it: under
	// load a request of the second could otherwise go out before the answer is read, and no pause can
	// hold a request already sent. The pace is the one the harness loaded with the node from dist/.
	const pace = loadedPace();
	const tenant = pace.tenantKey('one-tenant', 'cred-1', service.origin);
	const givenUpAt = Date.now() + 5000;
	while (pace.pausedUntil(tenant) <= Date.now() && Date.now() < givenUpAt)
		await new Promise((resolve) => setTimeout(resolve, 5));
	expect(pace.pausedUntil(tenant)).toBeGreaterThan(Date.now());
	expect(limited).toBe(true);
	const limitedAt = service.received[0].at;
	const second = createPeople('second', 3, { maxRequestsPerSecond: 0 });
	const [firstResult, secondResult] = await Promise.all([first, second]);

	expect(firstResult.items.map((item) => item.json.id)).toEqual(['p_first-0']);
	expect(secondResult.items.map((item) => item.json.id)).toEqual([
		'p_second-0',
		'p_second-1',
		'p_second-2',
	]);
	const afterPause = service.received.slice(1);
	expect(afterPause).toHaveLength(4);
	// Nothing of either execution reached the service during the second of the pause.
	for (const request of afterPause) expect(request.at - limitedAt).toBeGreaterThanOrEqual(950);
});

// 20 digits are more seconds than a number of ms holds exactly: a wait longer than any, never ignored.
const ENDLESS = '99999999999999999999';
test.each([
	['9999999999', 'the defaults', {}, '9999999999 s'],
	['9999999999', 'a Max Time per Item of 45 s', { maxTimePerItem: 45 }, '9999999999 s'],
	[ENDLESS, 'the defaults', {}, 'over 9007199254740 s'],
	[ENDLESS, 'a Max Time per Item of 45 s', { maxTimePerItem: 45 }, 'over 9007199254740 s'],
])(
	'Retry-After: %s (with %s) fails that item at once and holds no later execution: the next one is sent at once',
	async (retryAfter, bound, options, told) => {
		let limited = false;
		service.script((request, res) => {
			const name = JSON.parse(request.body).firstName as string;
			if (!limited) {
				limited = true;
				return sendJson(res, 429, { error: 'go away' }, { 'Retry-After': retryAfter });
			}
			sendJson(res, 201, { id: `p_${name}` });
		});
		const forever = `connection-forever-${retryAfter}-${bound}`;

		const a = await createPeople(
			'a',
			1,
			{ ...options, maxRequestsPerSecond: 0 },
			undefined,
			forever,
		);
		expect(a.error?.message).toBe(
			`Rate limited by the service (HTTP 429): go away (gave up: waiting ${told} more would exceed the Max Total Retry Wait of 60 s) (item 0)`,
		);
		expect(service.received).toHaveLength(1);
		// B may wait for nothing (Max Total Retry Wait 0): any pause A had left behind would make it give
		// up unsent, at any speed of the machine.
		const b = await createPeople(
			'b',
			1,
			{ maxRequestsPerSecond: 0, maxTotalWait: 0 },
			undefined,
			forever,
		);

		expect(b.error).toBeUndefined();
		expect(b.items.map((item) => item.json.id)).toEqual(['p_b-0']);
		expect(namesReceived(service)).toEqual(['a-0', 'b-0']);
	},
);

test('a pause held by a run that stops is lifted: the next execution is sent at once', async () => {
	const connection = 'connection-stopped';
	let held: import('http').ServerResponse | undefined;
	service.script((request, res) => {
		const name = JSON.parse(request.body).firstName as string;
		if (name === 'a-0') return sendJson(res, 429, { error: 'slow down' }, { 'Retry-After': '30' });
		if (name === 'a-1') return void (held = res);
		sendJson(res, 201, { id: `p_${name}` });
	});
	const a = createPeople(
		'a',
		2,
		{ maxRequestsPerSecond: 0, concurrency: 2 },
		undefined,
		connection,
	);
	// A's first item sleeps through the 30 s pause it asked for; then its second item fails, which
	// stops the run (no Continue On Fail) and ends that wait.
	const pace = loadedPace();
	const tenant = pace.tenantKey('one-tenant', connection, service.origin);
	const givenUpAt = Date.now() + 10_000;
	while ((pace.pausedUntil(tenant) <= Date.now() || !held) && Date.now() < givenUpAt)
		await new Promise((resolve) => setTimeout(resolve, 5));
	expect(pace.pausedUntil(tenant)).toBeGreaterThan(Date.now());
	sendJson(held!, 400, { error: 'bad name' });
	expect((await a).error?.message).toMatch(/HTTP 400/);

	const b = await createPeople(
		'b',
		1,
		{ maxRequestsPerSecond: 0, maxTotalWait: 0 },
		undefined,
		connection,
	);
	expect(b.error).toBeUndefined();
	expect(namesReceived(service)).toEqual(['a-0', 'a-1', 'b-0']);
});
