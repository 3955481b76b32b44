/**
 * Faults whose handling waits real time (a Retry-After, the 409 back-off, timeouts), once per HTTP
 * method. The waits are real, so these tests run side by side, each on a sandbox of its own: nothing
 * they assert depends on another test's requests, and they only bound waits from below. (The shared
 * 429 pause checks that nothing arrives during it, so it runs alone, in fault-injection.test.ts.)
 */
import { loadPackage } from '../harness/engine';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { expectFaultOutcome, ONE_PER_METHOD, runOn, SEEDED_PEOPLE, WAITING_FAULTS } from './fault-cases';
import { trackArrivals, VALID, type Arrivals } from './helpers';

// Load the package once before the tests start side by side.
beforeAll(async () => await loadPackage());

/** Runs `check` on a fresh sandbox of its own, closed afterwards. */
async function onOwnSandbox(check: (sandbox: Sandbox, arrivals: Arrivals) => Promise<void>): Promise<void> {
	const sandbox = await startSandbox({ people: SEEDED_PEOPLE });
	try {
		await check(sandbox, trackArrivals(sandbox));
	} finally {
		await sandbox.close();
	}
}

describe.each(WAITING_FAULTS.map((fault) => [fault.label, fault] as const))('%s', (_label, fault) => {
	test.concurrent.each(ONE_PER_METHOD.map((operation) => [operation.label, operation] as const))('%s', async (_operation, operation) => {
		await onOwnSandbox(async (sandbox, arrivals) => await expectFaultOutcome(sandbox, arrivals, fault, operation));
	});
});

test.concurrent('a hung server becomes a timeout error, not a hung workflow', async () => {
	await onOwnSandbox(async (sandbox) => {
		sandbox.inject({ delayMs: 60_000, count: 5 });
		const started = Date.now();
		const result = await runOn(sandbox, VALID['person.getAll'], { requestOptions: { maxAttempts: 2, timeout: 1 } });

		expect(Date.now() - started).toBeLessThan(4000);
		expect(sandbox.requests).toHaveLength(2);
		expect(result.error?.message).toBe('The service did not answer within 1 s (timeout) (after 2 attempts) (item 0)');
		expect(result.error?.description).toMatch(/^Network error code ECONNABORTED\. GET crm http:\/\/127\.0\.0\.1:\d+\/api\/people$/);
	});
});

test.concurrent('paging: a 429 on page 2 waits for Retry-After and resumes at page 2', async () => {
	await onOwnSandbox(async (sandbox, arrivals) => {
		sandbox.setPaging('next');
		arrivals.onArrival = (_request, position) => {
			if (position === 2) sandbox.inject({ status: 429, retryAfter: '1' });
		};
		const result = await runOn(sandbox, { resource: 'person', operation: 'getAll', returnAll: true, options: { pageSize: 10 } });

		expect(result.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.status)).toEqual([200, 429, 200, 200, 200, 200]);
		expect(sandbox.requests[2].url).toBe(sandbox.requests[1].url);
		expect(arrivals.at(sandbox.requests[2]) - arrivals.at(sandbox.requests[1])).toBeGreaterThanOrEqual(950);
		expect(result.items.map((item) => item.json.id)).toEqual(Array.from({ length: SEEDED_PEOPLE }, (_, index) => `p_${index + 1}`));
	});
});
