/**
 * The item's deadline (Max Time per Item, transport/run.ts and request.ts) against a fake context,
 * for any sequence of retryable answers: no attempt starts after the deadline, each attempt's Timeout
 * fits in the time left, and the request ends by the deadline instead of sleeping past it.
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
/** How late a start may be seen after a check on a loaded machine (a microtask hop, not a timer). */
const START_SLACK_MS = 25;
/** How late a request may end after its deadline: timers fire late under load, never early. */
const END_SLACK_MS = 1000;

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

				await serviceRequest
					.call(
						fake.ctx,
						0,
						{ method, host: 'crm', connection: CREDENTIAL_DEFAULT, path: ['people'] },
						run,
					)
					.catch((error: Error) => error);

				const ended = Date.now();
				for (const attempt of attempts) {
					expect(attempt.at).toBeLessThanOrEqual(deadline + START_SLACK_MS);
					expect(attempt.timeoutMs).toBeGreaterThanOrEqual(1);
					expect(attempt.at + attempt.timeoutMs).toBeLessThanOrEqual(deadline + START_SLACK_MS);
				}
				expect(ended).toBeLessThanOrEqual(deadline + END_SLACK_MS);
			},
		),
		{ seed: SEED, numRuns: RUNS },
	);
}, 60_000);
