/**
 * Max Time per Item: one item's operation (every attempt, wait and page together) never outlives the
 * caller who waits for it. Attacked as an AI agent and an MCP client drive the node as a tool (a 429
 * whose Retry-After is past the caller's patience) and in a workflow with the option set (a create that
 * does not answer, a GET retried forever, an endless slow list), against a scripted service.
 *
 * Load on the machine can only make things later, so "gave up in time" is checked by its cause (the
 * error names the bound that ended it, and what was sent) and, where a time is compared, against what
 * the request would have taken without the deadline: a bound that holds at any speed. That no attempt
 * starts after the deadline is test/unit/deadline.test.ts, on a fake clock.
 */
import type { INodeParameters } from 'n8n-workflow';

import { join } from 'path';

import { runNode, type RunResult } from '../harness/engine';
import { packageRoot } from '../harness/package-root';
import { callAsTool } from '../harness/tool';
import { credentialsFor, sendJson, useHostile } from './server';

const service = useHostile();

const CREATE: INodeParameters = {
	resource: 'person',
	operation: 'create',
	mappingMode: 'defineBelow',
	firstName: "={{ $fromAI('firstName', 'The first name', 'string') }}",
	lastName: 'Tool',
};

async function timed<T>(work: Promise<T>): Promise<T & { ms: number }> {
	const started = Date.now();
	const result = await work;
	return { ...result, ms: Date.now() - started };
}

const posts = () => service.received.filter((request) => request.method === 'POST');

describe('as a tool, an operation ends well before the caller gives up (45 s; the MCP client waits 60 s)', () => {
	it.each(['mcp', 'agent'] as const)(
		'%s: a create answered 429 with Retry-After: 50 gives up now, naming the bound and the wait, and is sent once',
		async (via) => {
			service.script((_request, res) =>
				sendJson(res, 429, { error: 'slow down' }, { 'Retry-After': '50' }),
			);

			const call = await timed(
				callAsTool(
					via,
					{ parameters: CREATE, credentials: credentialsFor(service.origin) },
					{ firstName: 'Ada' },
				),
			);

			expect(call.response).toBeUndefined();
			expect(call.error).toContain(
				'Rate limited by the service (HTTP 429): slow down (gave up: the service asked to wait 50 s, which would pass the Max Time per Item of 45 s)',
			);
			expect(posts()).toHaveLength(1);
			expect(JSON.parse(posts()[0].body)).toEqual({ firstName: 'Ada', lastName: 'Tool' });
			// Without the bound it sleeps the 50 s (within Max Total Retry Wait) and sends again.
			expect(call.ms).toBeLessThan(50_000);
		},
		90_000,
	);

	it('mcp: the next call after a 429 with Retry-After: 50 that the first call gave up on is not held: it is sent at once', async () => {
		service.script((_request, res) =>
			sendJson(res, 429, { error: 'slow down' }, { 'Retry-After': '50' }),
		);
		const tool = { parameters: CREATE, credentials: credentialsFor(service.origin) };
		const first = await callAsTool(
			'mcp',
			{ ...tool, credentialId: 'gave-up' },
			{ firstName: 'Ada' },
		);
		expect(first.error).toContain('HTTP 429');
		service.script((_request, res) => sendJson(res, 201, { id: 'p_1', firstName: 'Bea' }));

		// The same credential: a pause the first call did not wait out itself holds no one (decisions.md).
		const second = await callAsTool(
			'mcp',
			{ ...tool, credentialId: 'gave-up' },
			{ firstName: 'Bea' },
		);

		expect(second.error).toBeUndefined();
		expect(JSON.parse(second.response ?? '[]')).toEqual([{ id: 'p_1', firstName: 'Bea' }]);
		expect(posts()).toHaveLength(2);
	});

	it("mcp: a call held by the tenant's pause that another run waits out is not sent with no time left: it fails at once, nothing sent", async () => {
		let held: import('http').ServerResponse | undefined;
		service.script((request, res) => {
			const { firstName } = JSON.parse(request.body) as { firstName: string };
			if (firstName === 'a-0')
				return sendJson(res, 429, { error: 'slow down' }, { 'Retry-After': '40' });
			if (firstName === 'a-1') return void (held = res);
			sendJson(res, 201, { id: 'p_1', firstName });
		});
		// A workflow run of the same tenant waits the 40 s out (no Max Time per Item, 60 s to wait).
		const workflow = runNode({
			parameters: { ...CREATE, firstName: '={{ $json.name }}', requestOptions: { concurrency: 2 } },
			credentials: credentialsFor(service.origin),
			credentialId: 'paused',
			items: [{ name: 'a-0' }, { name: 'a-1' }],
		});
		// The call starts once the run has read the 429 and sleeps through it (the pace the harness
		// loaded with the node from dist/).
		const pace = require(
			join(packageRoot(), 'dist/nodes/IntegrationService/transport/pace.js'),
		) as {
			tenantKey(credential: string, connectionId: string | undefined, origin: string): string;
			pausedUntil(tenant: string): number;
		};
		const tenant = pace.tenantKey('paused', 'cred-1', service.origin);
		const givenUpAt = Date.now() + 10_000;
		while ((pace.pausedUntil(tenant) <= Date.now() || !held) && Date.now() < givenUpAt)
			await new Promise((resolve) => setTimeout(resolve, 5));

		const second = await timed(
			callAsTool(
				'mcp',
				{ parameters: CREATE, credentials: credentialsFor(service.origin), credentialId: 'paused' },
				{ firstName: 'Bea' },
			),
		);
		sendJson(held!, 400, { error: 'bad name' });
		await workflow;

		expect(second.response).toBeUndefined();
		expect(second.error).toMatch(
			/^Rate limited by the service \(HTTP 429\): the run is paused \(gave up: waiting \d+(\.\d)? s more would pass the Max Time per Item of 45 s, less the 10 s a request is given after a wait; not sent\)/,
		);
		expect(second.error).toContain('The service is limiting the rate: wait a minute');
		expect(second.error).not.toContain('may have been processed');
		expect(posts().map((request) => JSON.parse(request.body).firstName)).toEqual(['a-0', 'a-1']);
	}, 90_000);

	it('mcp: a create answered 429 with Retry-After: 2 waits and is created, once', async () => {
		let limited = false;
		service.script((_request, res) => {
			if (limited) return sendJson(res, 201, { id: 'p_1', firstName: 'Ada' });
			limited = true;
			sendJson(res, 429, { error: 'slow down' }, { 'Retry-After': '2' });
		});

		const call = await callAsTool(
			'mcp',
			{ parameters: CREATE, credentials: credentialsFor(service.origin) },
			{ firstName: 'Ada' },
		);

		expect(call.error).toBeUndefined();
		expect(JSON.parse(call.response ?? '[]')).toEqual([{ id: 'p_1', firstName: 'Ada' }]);
		expect(posts()).toHaveLength(2);
	});
});

async function run(
	parameters: INodeParameters,
	requestOptions: INodeParameters,
	items?: Array<Record<string, string>>,
): Promise<RunResult & { ms: number }> {
	return await timed(
		runNode({
			parameters: { ...parameters, requestOptions: { maxRequestsPerSecond: 0, ...requestOptions } },
			credentials: credentialsFor(service.origin),
			items,
		}),
	);
}

const CREATE_IN_WORKFLOW: INodeParameters = {
	...CREATE,
	firstName: '={{ $json.name ?? "Ada" }}',
};

describe('in a workflow with Max Time per Item set', () => {
	it('a create whose answer does not come is cut off at the deadline (not at the 30 s Timeout), reported as may have been processed, and never sent again', async () => {
		service.script(() => undefined);

		const result = await run(CREATE_IN_WORKFLOW, { maxTimePerItem: 2 });

		// The attempt's Timeout was cut to the time left: about 2 s.
		expect(result.error?.message).toMatch(
			/^The service did not answer within (2|2\.0|1\.\d) s \(timeout\) \(gave up: the Max Time per Item of 2 s has passed; not sent twice: the service may already have processed it; check before running it again\) \(item 0\)$/,
		);
		expect(posts()).toHaveLength(1);
		// Cut by the deadline, not the 30 s Timeout: at any speed sooner than that Timeout.
		expect(result.ms).toBeLessThan(30_000);
	}, 60_000);

	it('a GET retried on 503 starts no attempt past the deadline and waits no wait that would pass it', async () => {
		service.script((_request, res) =>
			sendJson(res, 503, { error: 'busy' }, { 'Retry-After': '1' }),
		);

		const result = await run(
			{ resource: 'person', operation: 'getAll', returnAll: false, limit: 5 },
			{ maxTimePerItem: 3, maxAttempts: 20, maxTotalWait: 3600 },
		);

		expect(result.error?.message).toMatch(
			/^The service had an internal error \(HTTP 503\): busy \(after \d attempts; gave up: (the service asked to wait 1 s, which would pass|the Max Time per Item of 3 s has passed)/,
		);
		// At most three attempts fit in 3 s with 1 s between them (load only makes fewer); the arrival
		// times at the service come later than the starts, so "none starts after the deadline" is
		// test/unit/deadline.test.ts, on a fake clock.
		expect(service.received.length).toBeGreaterThanOrEqual(1);
		expect(service.received.length).toBeLessThanOrEqual(3);
		// Without the deadline: 20 attempts 1 s apart. Sooner than that at any speed.
		expect(result.ms).toBeLessThan(19_000);
	}, 60_000);

	it('Return All of an endless list whose pages are slow stops at the deadline instead of reading on', async () => {
		service.script((request, res) => {
			const page = Number(new URL(request.url, service.origin).searchParams.get('page') ?? '0');
			const people = Array.from({ length: 100 }, (_, i) => ({ id: `p_${page}_${i}` }));
			setTimeout(
				() =>
					sendJson(res, 200, {
						people,
						_metadata: { nextLink: `/api/people?page=${page + 1}` },
					}),
				300,
			);
		});

		const result = await run(
			{ resource: 'person', operation: 'getAll', returnAll: true },
			{ maxTimePerItem: 2 },
		);

		expect(result.error?.message).toMatch(
			/^(Not sent: the Max Time per Item of 2 s has passed|The service did not answer within [\d.]+ m?s \(timeout\) \(gave up: the Max Time per Item of 2 s has passed\)) \(item 0\)$/,
		);
		expect(result.items).toHaveLength(0);
		// About 2 s of 300 ms pages (load only makes fewer); without the bound it reads 2,500 pages.
		expect(service.received.length).toBeLessThanOrEqual(8);
	});

	it("each item's time counts from when its operation starts: items that wait for their turn are not cut short", async () => {
		// Each answer takes 1.6 s, a quarter of the 6 s an item may take: the margin holds on a busy machine.
		service.script((request, res) => {
			const { firstName } = JSON.parse(request.body) as { firstName: string };
			setTimeout(() => sendJson(res, 201, { id: `p_${firstName}` }), 1600);
		});

		const result = await run(CREATE_IN_WORKFLOW, { maxTimePerItem: 6, concurrency: 1 }, [
			{ name: 'a' },
			{ name: 'b' },
			{ name: 'c' },
			{ name: 'd' },
		]);

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual(['p_a', 'p_b', 'p_c', 'p_d']);
		// The run took longer than one item may.
		expect(result.ms).toBeGreaterThan(6000);
	});
});
