/**
 * Faults on the wire, through n8n's real engine against the sandbox over real HTTP: what is retried
 * (decisions.md "Errors and retries": 429 and 409 on every method, 5xx and network errors on GET and
 * PUT only), the Max Attempts / Max Total Retry Wait bounds, backoff, bodies that are not JSON, paging
 * that retries only the failed page, nextLinks to other origins, repeated cursors, concurrency and the
 * shape of error items.
 */
import type { IDataObject } from 'n8n-workflow';

import { loadPackage, runNode, type RunResult } from '../harness/engine';
import { sandboxCredentials, signedJwtCredentials, useSandbox } from '../harness/fixtures';
import {
	signJwtForTest,
	startSandbox,
	type FaultSpec,
	type PagingStyle,
	type Sandbox,
} from '../sandbox/server';
import {
	EVERY_OPERATION,
	expectFaultOutcome,
	INSTANT_FAULTS,
	ONE_PER_METHOD,
	runOn,
	SEEDED_PEOPLE,
	WAITING_FAULTS,
	type RunFaultOptions,
} from './fault-cases';
import {
	FAST,
	isErrorItem,
	pairedIndex,
	startWitness,
	trackArrivals,
	VALID,
	type Arrivals,
} from './helpers';

let sandbox: Sandbox;
let arrivals: Arrivals;
useSandbox(
	(started) => {
		sandbox = started;
		arrivals = trackArrivals(started);
	},
	{ people: SEEDED_PEOPLE },
);
// Loaded once before the side-by-side tests start, so none of them counts the loading in its time.
beforeAll(async () => await loadPackage());
beforeEach(() => {
	arrivals.onArrival = undefined;
});

const run = async (
	parameters: Parameters<typeof runOn>[1],
	options?: RunFaultOptions,
): Promise<RunResult> => await runOn(sandbox, parameters, options);

// ---------------------------------------------------------------------------------------------
// Faults whose handling waits real time (a Retry-After, the 409 back-off, timeouts), once per HTTP
// method. The waits are real, so these run side by side, each on a sandbox of its own: nothing they
// assert depends on another test's requests, and they bound waits from below only. Declared first,
// they are all awaited before the tests below start (jest starts concurrent tests together when the
// file starts and awaits them in order), so the timing checks below run alone.
// ---------------------------------------------------------------------------------------------

/** Runs `check` on a fresh sandbox of its own (shadowing the shared one), closed afterwards. */
async function onOwnSandbox(
	check: (sandbox: Sandbox, arrivals: Arrivals) => Promise<void>,
): Promise<void> {
	const sandbox = await startSandbox({ people: SEEDED_PEOPLE });
	try {
		await check(sandbox, trackArrivals(sandbox));
	} finally {
		await sandbox.close();
	}
}

describe.each(WAITING_FAULTS.map((fault) => [fault.label, fault] as const))(
	'%s',
	(_label, fault) => {
		test.concurrent.each(ONE_PER_METHOD.map((operation) => [operation.label, operation] as const))(
			'%s',
			async (_operation, operation) => {
				await onOwnSandbox(
					async (sandbox, arrivals) =>
						await expectFaultOutcome(sandbox, arrivals, fault, operation),
				);
			},
		);
	},
);

test.concurrent('bounds: a hung server becomes a timeout error, not a hung workflow', async () => {
	await onOwnSandbox(async (sandbox) => {
		sandbox.inject({ delayMs: 60_000, count: 5 });
		const result = await runOn(sandbox, VALID['person.getAll'], {
			requestOptions: { maxAttempts: 2, timeout: 3 },
		});

		// Ended by the deadline, not by an answer: the sandbox holds each answer 60 s, and only the attempt's
		// deadline writes "did not answer within 3 s (timeout)" (no wall-clock bound: it would depend on the
		// machine's speed).
		expect(sandbox.requests).toHaveLength(2);
		expect(result.error?.message).toBe(
			'The service did not answer within 3 s (timeout) (after 2 attempts) (item 0)',
		);
		expect(result.error?.description).toMatch(
			/^The Timeout is a deadline for the whole answer, headers and body\. GET crm http:\/\/127\.0\.0\.1:\d+\/api\/people$/,
		);
	});
});

test.concurrent('paging: a 429 on page 2 waits for Retry-After and resumes at page 2', async () => {
	await onOwnSandbox(async (sandbox, arrivals) => {
		sandbox.setPaging('next');
		arrivals.onArrival = (_request, position) => {
			if (position === 2) sandbox.inject({ status: 429, retryAfter: '1' });
		};
		const result = await runOn(sandbox, {
			resource: 'person',
			operation: 'getAll',
			returnAll: true,
			options: { pageSize: 10 },
		});

		expect(result.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.status)).toEqual([
			200, 429, 200, 200, 200, 200,
		]);
		expect(sandbox.requests[2].url).toBe(sandbox.requests[1].url);
		expect(
			arrivals.at(sandbox.requests[2]) - arrivals.at(sandbox.requests[1]),
		).toBeGreaterThanOrEqual(950);
		expect(result.items.map((item) => item.json.id)).toEqual(
			Array.from({ length: SEEDED_PEOPLE }, (_, index) => `p_${index + 1}`),
		);
	});
});

// ---------------------------------------------------------------------------------------------
// Faults handled without waiting, against every operation
// ---------------------------------------------------------------------------------------------

describe.each(INSTANT_FAULTS.map((fault) => [fault.label, fault] as const))(
	'%s',
	(_label, fault) => {
		test.each(EVERY_OPERATION.map((operation) => [operation.label, operation] as const))(
			'%s',
			async (_operation, operation) => {
				await expectFaultOutcome(sandbox, arrivals, fault, operation);
			},
		);
	},
);

// ---------------------------------------------------------------------------------------------
// Bounds: Max Attempts, Max Total Retry Wait, backoff with jitter, timeout
// ---------------------------------------------------------------------------------------------

describe('bounds', () => {
	test('Max Attempts bounds a persistent 503 on a GET', async () => {
		sandbox.inject({ status: 503, count: 10 });
		const result = await run(VALID['person.getAll'], { requestOptions: { maxAttempts: 3 } });

		expect(sandbox.requests.map((request) => request.status)).toEqual([503, 503, 503]);
		expect(result.error?.message).toBe(
			'The service had an internal error (HTTP 503): injected 503 (after 3 attempts) (item 0)',
		);
		expect(result.error?.httpCode).toBe('503');
	});

	test('Max Attempts bounds a persistent 429 on a POST, which creates nothing', async () => {
		sandbox.inject({ status: 429, retryAfter: '0', count: 10 });
		const result = await run(VALID['person.create'], { requestOptions: { maxAttempts: 4 } });

		expect(sandbox.requests.map((request) => request.status)).toEqual([429, 429, 429, 429]);
		expect(result.error?.message).toBe(
			'Rate limited by the service (HTTP 429): injected 429 (after 4 attempts) (item 0)',
		);
		expect(sandbox.count('people')).toBe(SEEDED_PEOPLE);
	});

	test('a Retry-After beyond Max Total Retry Wait gives up at once and says so', async () => {
		// Its own sandbox, so its own tenant: the 429 pauses the tenant for the 20 s this run could wait.
		await onOwnSandbox(async (own) => {
			own.inject({ status: 429, retryAfter: '120' });
			const started = Date.now();
			const result = await runOn(own, VALID['borrower.update'], {
				requestOptions: { maxTotalWait: 20, maxAttempts: 5 },
			});

			// At once: waiting out its Max Total Retry Wait first would take at least those 20 s, at any speed.
			expect(Date.now() - started).toBeLessThan(20_000);
			expect(own.requests).toHaveLength(1);
			expect(result.error?.message).toBe(
				'Rate limited by the service (HTTP 429): injected 429 (gave up: waiting 120 s more would exceed the Max Total Retry Wait of 20 s) (item 0)',
			);
		});
	});

	test('a 409 with Retry-After: 60 is not waited out when Max Total Retry Wait is shorter', async () => {
		sandbox.inject({ status: 409, retryAfter: '60', body: '{"error":"initial sync in progress"}' });
		const result = await run(VALID['person.create'], { requestOptions: { maxTotalWait: 5 } });

		expect(sandbox.requests).toHaveLength(1);
		expect(result.error?.message).toBe(
			'The connected system’s data is not ready yet (HTTP 409): initial sync in progress (gave up: waiting 60 s more would exceed the Max Total Retry Wait of 5 s) (item 0)',
		);
		expect(result.error?.httpCode).toBe('409');
	});

	test('backoff without Retry-After doubles from Initial Retry Delay and stops at Max Total Retry Wait', async () => {
		sandbox.inject({ status: 503, count: 20 });
		const result = await run(VALID['person.getAll'], {
			requestOptions: { initialRetryDelay: 100, maxAttempts: 10, maxTotalWait: 1 },
		});

		// Waits of 50–100, 100–200, 200–400, 400–800, 800–1600 ms: the 4th or 5th would pass 1 s.
		const attempts = sandbox.requests.length;
		expect(attempts === 4 || attempts === 5).toBe(true);
		const gaps = sandbox.requests
			.slice(1)
			.map((request, index) => arrivals.at(request) - arrivals.at(sandbox.requests[index]));
		gaps.forEach((gap, index) => {
			const ceiling = 100 * 2 ** index;
			// Timers fire late under load, never early: a lower bound only. That the jittered wait is at
			// most its ceiling is test/unit/retry.test.ts (no clock), and the attempt count above follows
			// from the waits chosen, not from the time they took.
			expect(gap).toBeGreaterThanOrEqual(ceiling / 2 - 5);
		});
		expect(result.error?.message).toMatch(
			new RegExp(
				`^The service had an internal error \\(HTTP 503\\): injected 503 \\(after ${attempts} attempts; gave up: waiting \\d\\.\\d s more would exceed the Max Total Retry Wait of 1 s\\) \\(item 0\\)$`,
			),
		);
	});

	test('retries are spread by jitter: eight items failing together do not retry in lockstep', async () => {
		sandbox.inject({ status: 503, count: 8 });
		const items = Array.from({ length: 8 }, (_, index) => ({ index }));
		const result = await run(VALID['person.getAll'], {
			items,
			requestOptions: { initialRetryDelay: 200, concurrency: 8 },
		});

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(40);
		const failed = sandbox.requests.filter((request) => request.status === 503);
		const retried = sandbox.requests.filter((request) => request.status === 200);
		expect(failed).toHaveLength(8);
		expect(retried).toHaveLength(8);
		const firstFailure = Math.min(...failed.map((request) => arrivals.at(request)));
		const retryTimes = retried.map((request) => arrivals.at(request) - firstFailure);
		// Each retry waits 100–200 ms; without jitter they would all land within a few ms.
		expect(Math.min(...retryTimes)).toBeGreaterThanOrEqual(95);
		expect(Math.max(...retryTimes) - Math.min(...retryTimes)).toBeGreaterThan(15);
	});
});

// ---------------------------------------------------------------------------------------------
// Paging
// ---------------------------------------------------------------------------------------------

describe('paging', () => {
	const all = {
		resource: 'person',
		operation: 'getAll',
		returnAll: true,
		options: { pageSize: 10 },
	};
	const ids = Array.from({ length: SEEDED_PEOPLE }, (_, index) => `p_${index + 1}`);

	test.each([
		['nextLink', '503', { status: 503 }],
		['next', '503', { status: 503 }],
		['offset', '503', { status: 503 }],
		['nextLink', 'a dropped connection', { drop: true }],
		['offset', 'a truncated body', { malformed: true }],
	] as Array<[PagingStyle, string, FaultSpec]>)(
		'%s paging: %s on page 3 retries page 3 only',
		async (style, _label, fault) => {
			sandbox.setPaging(style);
			arrivals.onArrival = (_request, position) => {
				if (position === 3) sandbox.inject(fault);
			};
			const result = await run(all);

			expect(result.error).toBeUndefined();
			expect(sandbox.requests).toHaveLength(6);
			expect(sandbox.requests.map((request) => request.fault !== undefined)).toEqual([
				false,
				false,
				true,
				false,
				false,
				false,
			]);
			expect(sandbox.requests[3].url).toBe(sandbox.requests[2].url);
			expect(new Set(sandbox.requests.map((request) => request.url)).size).toBe(5);
			expect(result.items.map((item) => item.json.id)).toEqual(ids);
		},
	);

	describe('a nextLink to another origin is an error and is never called', () => {
		let witness: Awaited<ReturnType<typeof startWitness>>;
		beforeAll(async () => {
			witness = await startWitness();
		});
		afterAll(async () => await witness.close());
		beforeEach(() => witness.hits.splice(0));

		const links: Array<[string, () => string, () => string]> = [
			['another port', () => `${witness.url}/api/people?next=c1`, () => witness.url],
			[
				'userinfo trick',
				() => `${sandbox.urls.crm}@${witness.url.replace('http://', '')}/api/people`,
				() => witness.url,
			],
			[
				'https instead of http',
				() => `${sandbox.urls.crm.replace('http://', 'https://')}/api/people?next=c1`,
				() => sandbox.urls.crm.replace('http://', 'https://'),
			],
		];

		test.each(links)('%s', async (_label, link, origin) => {
			sandbox.inject({
				status: 200,
				body: JSON.stringify({
					_metadata: { next: 'c1', nextLink: link(), total: 99 },
					people: [{ id: 'p_1' }],
				}),
			});
			const result = await run(all);

			expect(result.error?.message).toBe(
				`The service pointed to a next page on another origin (${origin()}); it is not followed with your token (item 0)`,
			);
			expect(sandbox.requests).toHaveLength(1);
			expect(witness.hits).toEqual([]);
		});

		test('under Continue (using error output) it becomes one error item', async () => {
			sandbox.inject({
				status: 200,
				body: JSON.stringify({
					_metadata: { nextLink: `${witness.url}/api/people` },
					people: [{ id: 'p_1' }],
				}),
			});
			const result = await run(all, { onError: 'continueErrorOutput' });

			expect(result.error).toBeUndefined();
			expect(result.items).toEqual([]);
			expect(result.errorItems).toHaveLength(1);
			expect(result.errorItems[0].json).toEqual({
				error: `The service pointed to a next page on another origin (${witness.url}); it is not followed with your token (item 0)`,
				details: { itemIndex: 0 },
			});
			expect(witness.hits).toEqual([]);
		});
	});

	test.each([
		['next', (cursor: string) => ({ next: cursor })],
		[
			'nextLink',
			(cursor: string) => ({ nextLink: `${sandbox.urls.crm}/api/people?next=${cursor}` }),
		],
	] as const)('a %s cursor seen twice stops paging with an error', async (_style, meta) => {
		sandbox.inject({
			status: 200,
			body: JSON.stringify({ _metadata: meta('loop'), people: [{ id: 'a' }] }),
		});
		sandbox.inject({
			status: 200,
			body: JSON.stringify({ _metadata: meta('loop'), people: [{ id: 'b' }] }),
		});
		const result = await run(all);

		expect(sandbox.requests).toHaveLength(2);
		expect(result.error?.message).toBe(
			'Paging stopped: the service returned the same next-page cursor twice (item 0)',
		);
	});
});

// ---------------------------------------------------------------------------------------------
// Concurrency and the shared 429 pause
// ---------------------------------------------------------------------------------------------

describe('concurrency', () => {
	const tenPeople = Array.from({ length: 10 }, (_, index) => ({ last: `Batch-${index}` }));
	const createFromItem = { ...VALID['person.create'], lastName: '={{ $json.last }}' };

	test('a 429 pauses the whole batch until Retry-After, then every item is created once', async () => {
		sandbox.inject({ status: 429, retryAfter: '1', match: { method: 'POST' } });
		const started = Date.now();
		const result = await run(createFromItem, {
			items: tenPeople,
			requestOptions: { concurrency: 5 },
		});

		expect(result.error).toBeUndefined();
		expect(Date.now() - started).toBeGreaterThanOrEqual(950);
		expect(result.items.map((item) => [pairedIndex(item), item.json.lastName])).toEqual(
			tenPeople.map((item, index) => [index, item.last]),
		);
		expect(sandbox.requests).toHaveLength(11);
		expect(sandbox.count('people')).toBe(SEEDED_PEOPLE + 10);
		const limited = sandbox.requests.find((request) => request.status === 429)!;
		const pauseStart = arrivals.at(limited) + 100;
		const pauseEnd = arrivals.at(limited) + 900;
		// Nothing starts during the pause: no retry of the limited item, and none of the five items that wait
		// for a free slot. A first attempt of the first five may still arrive late on a loaded machine: it
		// was sent before the 429 came back.
		const lastNameOf = (request: (typeof sandbox.requests)[number]) =>
			(request.body as IDataObject).lastName;
		const firstFive = new Set(tenPeople.slice(0, 5).map((item) => item.last));
		const startedDuringPause = sandbox.requests.filter(
			(request) =>
				arrivals.at(request) > pauseStart &&
				arrivals.at(request) < pauseEnd &&
				(!firstFive.has(lastNameOf(request) as string) ||
					lastNameOf(request) === lastNameOf(limited)),
		);
		expect(startedDuringPause).toEqual([]);
	});

	test('a persistent 429 under concurrency is bounded by Max Attempts per item, and nothing is created', async () => {
		sandbox.inject({ status: 429, retryAfter: '0', count: 1000 });
		const result = await run(createFromItem, {
			items: tenPeople,
			onError: 'continueRegularOutput',
			requestOptions: { concurrency: 5, maxAttempts: 3 },
		});

		expect(sandbox.requests).toHaveLength(30);
		expect(sandbox.count('people')).toBe(SEEDED_PEOPLE);
		expect(result.items.map((item) => pairedIndex(item))).toEqual(
			tenPeople.map((_, index) => index),
		);
		for (const [index, item] of result.items.entries()) {
			expect(item.json).toEqual({
				error: `Rate limited by the service (HTTP 429): injected 429 (after 3 attempts) (item ${index})`,
				details: {
					itemIndex: index,
					httpCode: '429',
					description: expect.stringMatching(/^POST crm http:\/\/127\.0\.0\.1:\d+\/api\/people$/),
				},
			});
		}
	});
});

// ---------------------------------------------------------------------------------------------
// Item accounting and the shape of failures
// ---------------------------------------------------------------------------------------------

describe('failures and items', () => {
	const fivePeople = Array.from({ length: 5 }, (_, index) => ({ last: `Item-${index}` }));
	const createFromItem = { ...VALID['person.create'], lastName: '={{ $json.last }}' };
	// Item 2's create fails, picked by its body: with several items in flight the order they arrive in
	// depends on the machine's speed.
	const failThird = () => {
		arrivals.onArrival = (request) => {
			if ((request.body as { lastName?: string } | undefined)?.lastName === 'Item-2')
				sandbox.inject({ status: 500, body: '{"error":"database is down"}' });
		};
	};

	test('without Continue On Fail the first failure stops the node, naming the item; later items are not sent', async () => {
		failThird();
		// One item at a time: item 3 starts only after item 2 has failed, so "not sent" holds however
		// slow the machine is. (With several in flight, an item whose start comes due while the failure is
		// still on its way back is sent: the concurrency test below covers what holds then.)
		const result = await run(createFromItem, {
			items: fivePeople,
			requestOptions: { concurrency: 1 },
		});

		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toMatch(
			/^The service had an internal error \(HTTP 500\): database is down .*\(item 2\)$/,
		);
		expect(result.error?.context?.itemIndex).toBe(2);
		expect(sandbox.requests).toHaveLength(3);
		expect(sandbox.count('people')).toBe(SEEDED_PEOPLE + 2);
	});

	test('Continue (regular output): one item per input, in order, the failed one as an error item', async () => {
		failThird();
		const result = await run(createFromItem, {
			items: fivePeople,
			onError: 'continueRegularOutput',
		});

		expect(result.error).toBeUndefined();
		expect(result.errorItems).toEqual([]);
		expect(result.items.map(pairedIndex)).toEqual([0, 1, 2, 3, 4]);
		expect(result.items.map(isErrorItem)).toEqual([false, false, true, false, false]);
		expect(result.items[2].json).toEqual({
			error:
				'The service had an internal error (HTTP 500): database is down (not sent twice: the service may already have processed it; check before running it again) (item 2)',
			details: {
				itemIndex: 2,
				httpCode: '500',
				description: expect.stringMatching(/^POST crm http:\/\/127\.0\.0\.1:\d+\/api\/people$/),
			},
		});
		expect(
			result.items.filter((item) => !isErrorItem(item)).map((item) => item.json.lastName),
		).toEqual(['Item-0', 'Item-1', 'Item-3', 'Item-4']);
		expect(sandbox.count('people')).toBe(SEEDED_PEOPLE + 4);
	});

	test('Continue (using error output): successes on output 1, the error item intact on output 2', async () => {
		failThird();
		const result = await run(createFromItem, {
			items: fivePeople,
			onError: 'continueErrorOutput',
			requestOptions: { concurrency: 3 },
		});

		expect(result.error).toBeUndefined();
		expect(result.items.map(pairedIndex)).toEqual([0, 1, 3, 4]);
		expect(result.errorItems.map(pairedIndex)).toEqual([2]);
		// n8n puts the input item's fields beside ours on the error output; error and details arrive intact.
		expect(result.errorItems[0].json).toEqual({
			last: 'Item-2',
			error: expect.stringMatching(
				/^The service had an internal error \(HTTP 500\): database is down .*\(item 2\)$/,
			),
			details: expect.any(Object),
		});
		expect(result.errorItems[0].json.details).toEqual({
			itemIndex: 2,
			httpCode: '500',
			description: expect.stringMatching(/^POST crm /),
		});
	});

	test('the service echoing the token, a JWT or the client secret: none of it reaches an error', async () => {
		const jwt = signJwtForTest(
			{ iss: sandbox.jwtIssuer, sub: 'x', iat: 1, exp: 2 },
			sandbox.jwtSecret,
		);
		const echo = `token ${sandbox.token} / ${jwt} / secret ${sandbox.jwtSecret} / Authorization: Bearer ${sandbox.token}`;
		// Each mode's own secret (the pasted token, or the client secret), any JWT, and any bearer header.
		const modes = [
			{
				credentials: sandboxCredentials(sandbox),
				secrets: [sandbox.token, jwt, 'Bearer sandbox', 'Bearer ey'],
			},
			{
				credentials: signedJwtCredentials(sandbox),
				secrets: [sandbox.jwtSecret, jwt, 'Bearer sandbox', 'Bearer ey'],
			},
		];
		for (const { credentials, secrets } of modes) {
			sandbox.reset();
			sandbox.inject({ status: 400, body: JSON.stringify({ error: echo }) });
			sandbox.inject({ status: 403, body: `<html><body>${echo}</body></html>` });
			const result = await runNode({
				parameters: {
					...VALID['borrower.update'],
					borrowerId: '={{ $json.id }}',
					requestOptions: FAST,
				},
				credentials,
				items: [{ id: 'b-1' }, { id: 'b-1' }],
				onError: 'continueErrorOutput',
			});

			expect(result.errorItems).toHaveLength(2);
			const text = JSON.stringify([
				result.errorItems.map((item) => item.json),
				result.run.data.resultData,
			]);
			expect(text).toContain('HTTP 400');
			for (const secret of secrets) {
				expect(text).not.toContain(secret);
			}
			// The token actually sent on the wire does not appear either.
			for (const request of sandbox.requests) {
				expect(text).not.toContain(request.headers.authorization.replace(/^Bearer /, ''));
			}
		}
	});
});
