/**
 * The item's deadline (Max Time per Item, transport/run.ts and request.ts) against a fake context,
 * for any sequence of retryable answers: no attempt starts after the deadline, each attempt's Timeout
 * fits in the time left, and the request ends by the deadline instead of sleeping past it.
 *
 * On jest's fake clock (Date, performance and every timer): the service's latency, the backoffs, the
 * pauses and the attempts' deadlines all happen in fake time, which moves only from one timer to the
 * next. So every bound holds exactly, with no slack, however slow the machine is.
 */
import fc from 'fast-check';
import type { IHttpRequestOptions } from 'n8n-workflow';

import {
	CREDENTIAL_DEFAULT,
	DEFAULT_SETTINGS,
	newRun,
	serviceRequest,
	startItem,
} from '../../nodes/IntegrationService/transport';
import type { Scripted } from './fakes';
import { credentials, fakeServiceContext } from './fakes';

const SEED = Number(process.env.PROPERTY_SEED ?? 20261125);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 40);
/** Fake timers to run before a request must have ended: each attempt, wait and pause is one or two. */
const MAX_TIMER_STEPS = 1000;

const ANSWERS: Record<string, Scripted> = {
	'429': { raw: { statusCode: 429, body: '{"error":"slow down"}' } },
	'429, Retry-After: 0': {
		raw: { statusCode: 429, headers: { 'retry-after': '0' }, body: '' },
	},
	'429, Retry-After: 1': {
		raw: { statusCode: 429, headers: { 'retry-after': '1' }, body: '' },
	},
	'503, Retry-After: 2': {
		raw: { statusCode: 503, headers: { 'retry-after': '2' }, body: '' },
	},
	'409': { raw: { statusCode: 409, body: '' } },
	'200': { id: 'p_1' },
};

let tenants = 0;

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

/** Runs the fake clock from timer to timer until `work` settles; the fake time it settled at. */
async function settledAt(work: Promise<unknown>): Promise<number> {
	let ended: number | undefined;
	void work.then(
		() => (ended = Date.now()),
		() => (ended = Date.now()),
	);
	for (let step = 0; ended === undefined && step < MAX_TIMER_STEPS; step++)
		await jest.advanceTimersToNextTimerAsync();
	if (ended === undefined)
		throw new Error(`the request had not ended after ${MAX_TIMER_STEPS} timers`);
	return ended;
}

test('no attempt starts after the deadline, each Timeout fits the time left, and the request ends by it (property)', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.record({
				deadlineMs: fc.integer({ min: 20, max: 250 }),
				initialDelayMs: fc.integer({ min: 0, max: 60 }),
				maxAttempts: fc.integer({ min: 1, max: 8 }),
				maxTotalWaitMs: fc.constantFrom(0, 100, 60_000),
				method: fc.constantFrom('GET' as const, 'POST' as const),
				// How long the service takes to answer each attempt.
				latencyMs: fc.integer({ min: 0, max: 80 }),
				answers: fc.array(fc.constantFrom(...Object.keys(ANSWERS)), {
					minLength: 1,
					maxLength: 8,
				}),
			}),
			async ({
				deadlineMs,
				initialDelayMs,
				maxAttempts,
				maxTotalWaitMs,
				method,
				latencyMs,
				answers,
			}) => {
				const script = [...answers.map((name) => ANSWERS[name]), ANSWERS['200']];
				// Each run its own origin: its own tenant, so no 429 pause of another run applies.
				const fake = fakeServiceContext(
					script,
					credentials({ crmUrl: `https://crm${++tenants}.test` }),
				);
				const attempts: Array<{ at: number; timeoutMs: number }> = [];
				const send = fake.ctx.helpers.httpRequestWithAuthentication;
				fake.ctx.helpers.httpRequestWithAuthentication = async function (type, options, extra) {
					const timeout = (options as IHttpRequestOptions).timeout ?? Infinity;
					attempts.push({ at: Date.now(), timeoutMs: timeout - 1000 });
					await new Promise((resolve) => setTimeout(resolve, latencyMs));
					return await send.call(this, type, options, extra);
				};
				const run = startItem(
					newRun({
						...DEFAULT_SETTINGS,
						maxRequestsPerSecond: 0,
						initialDelayMs,
						maxAttempts,
						maxTotalWaitMs,
						maxItemMs: deadlineMs,
					}),
				);
				const deadline = run.deadline!.at;

				const ended = await settledAt(
					serviceRequest.call(
						fake.ctx,
						0,
						{ method, host: 'crm', connection: CREDENTIAL_DEFAULT, path: ['people'] },
						run,
					),
				);

				for (const attempt of attempts) {
					expect(attempt.at).toBeLessThanOrEqual(deadline);
					expect(attempt.timeoutMs).toBeGreaterThanOrEqual(1);
					expect(attempt.at + attempt.timeoutMs).toBeLessThanOrEqual(deadline);
				}
				expect(ended).toBeLessThanOrEqual(deadline);
			},
		),
		{ seed: SEED, numRuns: RUNS },
	);
});
