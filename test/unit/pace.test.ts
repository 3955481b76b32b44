/**
 * The tenant pace (nodes/IntegrationService/transport/pace.ts) on a simulated clock: whenever requests
 * start, however long they take and wherever between start and answer each reaches the service, no
 * second at the service holds more than the cap. The engine suite (test/hostile/tenant-pace.test.ts)
 * checks the same through n8n with real sockets and a proxy that holds requests.
 */
import fc from 'fast-check';

import type { PacedRequest, Pause } from '../../nodes/IntegrationService/transport/pace';
import {
	finished,
	liftPause,
	pausedUntil,
	pauseTenant,
	reserveSlot,
	startOrWait,
	tenantKey,
} from '../../nodes/IntegrationService/transport/pace';
import { busiestSecond } from '../harness/busiest-second';

const SEED = Number(process.env.PROPERTY_SEED ?? 20261125);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 200);

let tenants = 0;
const newTenant = () => tenantKey(`credential-${++tenants}`, undefined, 'http://127.0.0.1:1');

interface Wanted {
	/** When the request asks to start, ms after the simulation begins. */
	at: number;
	/** How long its answer takes once it started. */
	takesMs: number;
	/** Where between start (0) and answer (1) it reaches the service. */
	arrives: number;
	/** The cap of the run it belongs to (0: no cap). */
	cap: number;
}

/**
 * Runs the requests through the pace, in simulated time starting far from zero (epoch-like), and
 * returns when each reached the service, in the order given. Answers are handled before starts at the same instant.
 */
function simulate(wanted: Wanted[], useSlots: boolean): number[] {
	const tenant = newTenant();
	const base = 1_000_000_000;
	type Event = { time: number; order: number; run: () => void };
	const events: Event[] = [];
	let order = 0;
	const at = (time: number, first: boolean, run: () => void) =>
		events.push({ time, order: first ? -1 : order++, run });
	const arrivals: number[] = new Array<number>(wanted.length);
	const tryStart = (request: Wanted, index: number, now: number) => {
		const outcome = startOrWait(tenant, request.cap, now);
		if ('waitMs' in outcome) {
			// Checked by hand first: an expect() per simulated step (it builds an Error each call) was most of this file's time.
			if (!(outcome.waitMs > 0)) expect(outcome.waitMs).toBeGreaterThan(0);
			at(now + outcome.waitMs, false, () => tryStart(request, index, now + outcome.waitMs));
			return;
		}
		const started: PacedRequest = outcome.started;
		arrivals[index] = now + Math.floor(request.arrives * request.takesMs);
		at(now + request.takesMs, true, () => finished(started, now + request.takesMs));
	};
	for (const [index, request] of wanted.entries()) {
		at(base + request.at, false, () => {
			const slot = useSlots ? reserveSlot(tenant, request.cap, base + request.at) : 0;
			at(base + request.at + slot, false, () => tryStart(request, index, base + request.at + slot));
		});
	}
	for (let steps = 0; events.length > 0; steps++) {
		if (steps >= 100_000) expect(steps).toBeLessThan(100_000);
		events.sort((a, b) => a.time - b.time || a.order - b.order);
		events.shift()!.run();
	}
	expect(arrivals.filter((time) => time !== undefined)).toHaveLength(wanted.length);
	return arrivals.map((time) => time - base);
}

const wantedArb = (cap: number) =>
	fc.array(
		fc.record({
			at: fc.integer({ min: 0, max: 3000 }),
			takesMs: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 2500 })),
			arrives: fc.double({ min: 0, max: 1, noNaN: true }),
			cap: fc.constant(cap),
		}),
		{ maxLength: 80 },
	);

test('no second at the service holds more than the cap, whatever the timing (property)', () => {
	fc.assert(
		fc.property(
			fc
				.integer({ min: 1, max: 12 })
				.chain((cap) => fc.tuple(fc.constant(cap), wantedArb(cap), fc.boolean())),
			([cap, wanted, useSlots]) => {
				expect(busiestSecond(simulate(wanted, useSlots))).toBeLessThanOrEqual(cap);
			},
		),
		{ seed: SEED, numRuns: RUNS },
	);
});

test('runs with no cap are never held, and still count against the runs that have one (property)', () => {
	fc.assert(
		fc.property(
			fc.integer({ min: 1, max: 8 }),
			wantedArb(0),
			wantedArb(1),
			(cap, uncapped, capped) => {
				const mixed = [...uncapped, ...capped.map((request) => ({ ...request, cap }))];
				const arrivals = simulate(mixed, false);
				// Every uncapped request started when it asked to.
				for (const [index, request] of uncapped.entries()) {
					expect(arrivals[index]).toBe(request.at + Math.floor(request.arrives * request.takesMs));
				}
				// A capped request starts only while fewer than the cap (uncapped ones included) count.
				const cappedArrivals = arrivals.slice(uncapped.length);
				if (cappedArrivals.length > 0)
					expect(busiestSecond(cappedArrivals)).toBeLessThanOrEqual(cap);
			},
		),
		{ seed: SEED, numRuns: RUNS },
	);
});

test('a request still in flight keeps its place: the next one waits for its answer plus a second', () => {
	const tenant = newTenant();
	const first = startOrWait(tenant, 1, 10_000);
	expect('started' in first).toBe(true);
	expect(startOrWait(tenant, 1, 12_000)).toEqual({ waitMs: 1000 });
	finished((first as { started: PacedRequest }).started, 12_500);
	expect(startOrWait(tenant, 1, 12_600)).toEqual({ waitMs: 900 });
	expect('started' in startOrWait(tenant, 1, 13_500)).toBe(true);
});

test('slots space a run evenly by its own cap; no cap takes no slot', () => {
	const tenant = newTenant();
	expect([0, 0, 0].map(() => reserveSlot(tenant, 4, 5_000))).toEqual([0, 250, 500]);
	expect(reserveSlot(tenant, 0, 5_000)).toBe(0);
});

test('the tenant is paused exactly until the last pause still held ends: a lifted one holds no one (property)', () => {
	const pauseArb = fc.record({
		at: fc.integer({ min: 0, max: 100_000 }),
		// The wait of the request that holds it, up to `Retry-After: 9999999999`.
		waitMs: fc.oneof(fc.integer({ min: 0, max: 200_000 }), fc.constant(9_999_999_999_000)),
		// When its run stopped and lifted it, if it did (ms after it began).
		liftedAfter: fc.option(fc.integer({ min: 0, max: 200_000 }), { nil: undefined }),
	});
	fc.assert(
		fc.property(
			fc.array(pauseArb, { minLength: 1, maxLength: 20 }),
			fc.array(fc.integer({ min: 0, max: 300_000 }), { minLength: 1, maxLength: 20 }),
			(pauses, probes) => {
				const tenant = newTenant();
				const base = 1_000_000_000;
				type Step = { time: number; act: () => void };
				const steps: Step[] = [];
				for (const { at, waitMs, liftedAfter } of pauses) {
					let held: Pause | undefined;
					steps.push({ time: at, act: () => (held = pauseTenant(tenant, waitMs, base + at)) });
					if (liftedAfter !== undefined && liftedAfter < waitMs)
						steps.push({ time: at + liftedAfter, act: () => liftPause(tenant, held!) });
				}
				steps.sort((x, y) => x.time - y.time);
				let done = 0;
				for (const probe of [...probes].sort((x, y) => x - y)) {
					while (done < steps.length && steps[done].time <= probe) steps[done++].act();
					const held = pauses.filter(
						(p) =>
							p.at <= probe &&
							(p.liftedAfter === undefined ||
								p.liftedAfter >= p.waitMs ||
								p.at + p.liftedAfter > probe),
					);
					const until = Math.max(0, ...held.map((p) => base + p.at + p.waitMs));
					const paused = pausedUntil(tenant, base + probe);
					if (until > base + probe) expect(paused).toBe(until);
					else expect(paused).toBeLessThanOrEqual(base + probe);
				}
			},
		),
		{ seed: SEED, numRuns: RUNS },
	);
});
