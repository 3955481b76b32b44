/**
 * nodes/IntegrationService/transport/retry.ts: the retry loop's decisions, called directly: the
 * backoff, the wait before an attempt (start, sleep, give up on the budget or the deadline) and the
 * words of a give-up, and an attempt's Timeout clipped to the item's time.
 */
import fc from 'fast-check';

import {
	attemptTimeoutMs,
	backoffMs,
	gaveUpWaiting,
	waitVerdict,
} from '../../nodes/IntegrationService/transport/pace';

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

describe('waitVerdict', () => {
	it('property: sleeps only within the request budget and before the deadline; gives up at once otherwise', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: -5000, max: 90_000 }),
				fc.integer({ min: -5000, max: 90_000 }),
				fc.oneof(fc.constant(Infinity), fc.integer({ min: -1000, max: 90_000 })),
				fc.nat(60_000),
				fc.nat(120_000),
				(wanted, paused, left, waited, budget) => {
					const verdict = waitVerdict(wanted, paused, left, waited, budget);
					const wait = Math.max(wanted, paused);
					if (left <= 0) expect(verdict).toEqual({ overdue: true });
					else if (wait <= 0) expect(verdict).toEqual({ start: true });
					else if (waited + wait > budget) expect(verdict).toEqual({ giveUp: 'budget', wait });
					else if (wait >= left) expect(verdict).toEqual({ giveUp: 'deadline', wait });
					else expect(verdict).toEqual({ sleep: wait });
				},
			),
			PROPERTY,
		);
	});

	it('property: with time an attempt needs after a wait, never sleeps into less than that', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: 90_000 }),
				fc.integer({ min: 1, max: 90_000 }),
				fc.nat(20_000),
				(wait, left, need) => {
					const verdict = waitVerdict(wait, 0, left, 0, Infinity, need);
					if ('sleep' in verdict) expect(left - verdict.sleep).toBeGreaterThanOrEqual(need);
					else if (wait < left) expect(verdict).toEqual({ giveUp: 'deadline', wait, need });
					else expect(verdict).toEqual({ giveUp: 'deadline', wait });
				},
			),
			PROPERTY,
		);
		// The tester's case: the tenant paused 44.8 s of a 45 s call; a create would have had 0.2 s.
		expect(waitVerdict(0, 44_800, 45_000, 0, 60_000, 10_000)).toEqual({
			giveUp: 'deadline',
			wait: 44_800,
			need: 10_000,
		});
		expect(
			gaveUpWaiting(
				{ giveUp: 'deadline', wait: 44_800, need: 10_000 },
				60_000,
				undefined,
				'the Max Time per Item of 45 s',
			),
		).toBe(
			'gave up: waiting 45 s more would pass the Max Time per Item of 45 s, less the 10 s a request is given after a wait; not sent',
		);
	});

	it('says why it gave up, naming the bound and the wait the service asked for', () => {
		expect(gaveUpWaiting({ giveUp: 'budget', wait: 40_000 }, 60_000, undefined, undefined)).toBe(
			'gave up: waiting 40 s more would exceed the Max Total Retry Wait of 60 s',
		);
		const bound = 'the Max Time per Item of 45 s';
		expect(gaveUpWaiting({ giveUp: 'deadline', wait: 50_000 }, 60_000, 50_000, bound)).toBe(
			'gave up: the service asked to wait 50 s, which would pass the Max Time per Item of 45 s',
		);
		expect(gaveUpWaiting({ giveUp: 'deadline', wait: 1500 }, 60_000, undefined, bound)).toBe(
			'gave up: waiting 1.5 s more would pass the Max Time per Item of 45 s',
		);
	});
});

describe('attemptTimeoutMs', () => {
	it("clips the Timeout to the item's time left, at least 1 ms", () => {
		expect(attemptTimeoutMs(30_000, Infinity)).toBe(30_000);
		expect(attemptTimeoutMs(30_000, 1234.9)).toBe(1234);
		expect(attemptTimeoutMs(30_000, 0.2)).toBe(1);
		expect(attemptTimeoutMs(30_000, -5)).toBe(1);
	});
});
