/**
 * nodes/IntegrationService/transport/retry.ts: the retry loop's decisions, called directly: the
 * backoff, and whether a wait before an attempt is taken or given up (on the budget or the deadline),
 * with the words of a give-up. An attempt's Timeout clipped to the item's time: deadline.test.ts.
 */
import fc from 'fast-check';

import type { ServiceRun } from '../../nodes/IntegrationService/transport';
import { DEFAULT_SETTINGS, newRun } from '../../nodes/IntegrationService/transport';
import { backoffMs } from '../../nodes/IntegrationService/transport/pace';
import { neededAfterWait, refusedWait } from '../../nodes/IntegrationService/transport/retry';

const PROPERTY = { seed: 2930, numRuns: 500 };

describe('backoffMs', () => {
	it('property: full jitter between half and all of the doubling ceiling (30 s at most); a 409 waits 30 Initial Retry Delays at least', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: 10_000 }),
				fc.integer({ min: 1, max: 12 }),
				fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
				fc.constantFrom(undefined, 409, 429, 503),
				(initial, attempt, random, status) => {
					const ceiling = Math.min(30_000, initial * 2 ** (attempt - 1));
					const wait = backoffMs(initial, attempt, status, random);
					const jittered = Math.round(ceiling / 2 + (random * ceiling) / 2);
					expect(wait).toBe(status === 409 ? Math.max(jittered, initial * 30) : jittered);
					expect(jittered).toBeGreaterThanOrEqual(Math.floor(ceiling / 2));
					expect(jittered).toBeLessThanOrEqual(ceiling);
				},
			),
			PROPERTY,
		);
		expect(backoffMs(1000, 1, undefined, 0)).toBe(500);
		expect(backoffMs(1000, 3, undefined, 0.5)).toBe(3000);
		expect(backoffMs(1000, 1, 409, 0)).toBe(30_000);
	});
});

/** A run with that Max Total Retry Wait and, with `maxItemMs`, an item deadline named `bound`. */
function runWith(maxTotalWaitMs: number, maxItemMs = 0, bound = 'the bound'): ServiceRun {
	const run = newRun({ ...DEFAULT_SETTINGS, maxTotalWaitMs, maxItemMs });
	return maxItemMs > 0 ? { ...run, deadline: { at: 0, bound } } : run;
}

describe('refusedWait', () => {
	it('property: waits only within the request budget, before the deadline and leaving an attempt the time it needs; gives up otherwise', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: 90_000 }),
				fc.oneof(fc.constant(Infinity), fc.integer({ min: 1, max: 90_000 })),
				fc.nat(60_000),
				fc.nat(120_000),
				fc.integer({ min: 1, max: 90_000 }),
				(wait, left, waited, budget, maxItemMs) => {
					const run = runWith(budget, left === Infinity ? 0 : maxItemMs);
					const need = neededAfterWait(run);
					const refused = refusedWait(run, wait, left, waited);
					if (waited + wait > budget)
						expect(refused).toMatch(
							/^gave up: waiting .* more would exceed the Max Total Retry Wait/,
						);
					else if (wait >= left) expect(refused).toMatch(/would pass the bound$/);
					else if (left - wait < need)
						expect(refused).toMatch(
							/would pass the bound, less the .* a request is given after a wait; not sent$/,
						);
					else expect(refused).toBeUndefined();
				},
			),
			PROPERTY,
		);
	});

	it("the time an attempt needs after a wait: none without a deadline, else the Timeout, 10 s or a quarter of the item's time", () => {
		expect(neededAfterWait(runWith(60_000))).toBe(0);
		expect(neededAfterWait(runWith(60_000, 45_000))).toBe(10_000);
		expect(neededAfterWait(runWith(60_000, 8000))).toBe(2000);
	});

	it('says why it gave up, naming the bound and the wait the service asked for', () => {
		const bound = 'the Max Time per Item of 45 s';
		// The tester's case: the tenant paused 44.8 s of a 45 s call; a create would have had 0.2 s.
		expect(refusedWait(runWith(60_000, 45_000, bound), 44_800, 45_000, 0)).toBe(
			'gave up: waiting 45 s more would pass the Max Time per Item of 45 s, less the 10 s a request is given after a wait; not sent',
		);
		expect(refusedWait(runWith(60_000), 40_000, Infinity, 30_000)).toBe(
			'gave up: waiting 40 s more would exceed the Max Total Retry Wait of 60 s',
		);
		expect(refusedWait(runWith(60_000, 45_000, bound), 50_000, 45_000, 0, 50_000)).toBe(
			'gave up: the service asked to wait 50 s, which would pass the Max Time per Item of 45 s',
		);
		expect(refusedWait(runWith(60_000, 45_000, bound), 1500, 1000, 0)).toBe(
			'gave up: waiting 1.5 s more would pass the Max Time per Item of 45 s',
		);
	});
});
