/**
 * The Changes Trigger's state on its own (pure: no n8n, no HTTP): its size after 200,000 records, the
 * overlap window that catches a change made while a poll reads, and the budget that keeps a burst of
 * changes from growing it.
 */
import {
	MAX_MISSES,
	MIN_WINDOW_MS,
	PollReading,
	type ChangeEvent,
	type ChangeState,
} from '../../nodes/IntegrationServiceChangesTrigger/state';

const LATEST = Date.UTC(2030, 0, 1);
const OF = 'people';

/** One poll over `records`, saved at `now` on n8n's clock: the IDs that fire, and the state after it. */
function poll(
	before: ChangeState | undefined,
	records: Iterable<Record<string, unknown>>,
	event: ChangeEvent = 'newOrUpdated',
	now = (before?.polledAt ?? Date.UTC(2024, 0, 1)) + 60_000,
): { fired: unknown[]; state: ChangeState } {
	const reading = new PollReading(before, OF, event, LATEST);
	const fired: unknown[] = [];
	for (const record of records) if (reading.fires(record)) fired.push(record.id);
	return { fired, state: reading.next(1000, now) };
}

function* people(count: number, at: (i: number) => number): Generator<Record<string, unknown>> {
	for (let i = 0; i < count; i++) {
		const time = new Date(at(i)).toISOString();
		yield {
			id: `3f1c9a52-7d1f-4c43-9a57-${String(i).padStart(12, '0')}`,
			created: time,
			serviceUpdated: time,
		};
	}
}

const size = (state: ChangeState) => Buffer.byteLength(JSON.stringify(state));

describe('size', () => {
	test('under 100 KB after 200,000 records, changed over a year', () => {
		const start = Date.UTC(2024, 0, 1);
		const spread = (i: number) => start + i * 157_000;
		const first = poll(undefined, people(200_000, spread));
		expect(first.fired).toEqual([]);
		const second = poll(first.state, people(200_000, spread));
		expect(second.fired).toEqual([]);
		expect(size(second.state)).toBeLessThan(100_000);
	});

	test('under 100 KB after 200,000 records imported in the same second, and none fires twice', () => {
		const at = () => Date.UTC(2024, 0, 1);
		const first = poll(undefined, people(200_000, at));
		expect(size(first.state)).toBeLessThan(100_000);
		const again = poll(first.state, people(200_000, at));
		expect(again.fired).toEqual([]);
		expect(size(again.state)).toBeLessThan(100_000);
	});

	test('every one of 200,000 records created after the first poll fires, once', () => {
		const start = Date.UTC(2024, 0, 1);
		const first = poll(undefined, []);
		const all = poll(
			first.state,
			people(200_000, (i) => start + i),
		);
		expect(all.fired).toHaveLength(200_000);
		expect(size(all.state)).toBeLessThan(100_000);
		expect(
			poll(
				all.state,
				people(200_000, (i) => start + i),
			).fired,
		).toEqual([]);
	});
});

describe('the overlap window', () => {
	test('a record changed while a poll read, stamped before the latest time it saw, fires next poll', () => {
		const t = Date.UTC(2024, 5, 1, 12);
		const iso = (ms: number) => new Date(ms).toISOString();
		const a = { id: 'a', serviceUpdated: iso(t) };
		const b = { id: 'b', serviceUpdated: iso(t + 5_000) };
		const base = poll(undefined, [a, b]).state;
		// Page 1 (a) read before a changed at t+6 s; page 2 (b) changed at t+8 s.
		const during = poll(base, [a, { ...b, serviceUpdated: iso(t + 8_000) }]);
		expect(during.fired).toEqual(['b']);
		const next = poll(during.state, [
			{ ...a, serviceUpdated: iso(t + 6_000) },
			{ ...b, serviceUpdated: iso(t + 8_000) },
		]);
		expect(next.fired).toEqual(['a']);
	});

	test('the window reaches back at least MIN_WINDOW_MS below the latest time', () => {
		const t = Date.UTC(2024, 5, 1, 12);
		const at = (ms: number) => ({ id: 'a', updated: new Date(ms).toISOString() });
		const first = poll(undefined, [at(t)]);
		// Three hours of n8n's clock later: the floor may rise to the latest time less the window.
		const later = poll(
			first.state,
			[at(t + 7.2e6)],
			'newOrUpdated',
			first.state.polledAt + 3 * 3.6e6,
		);
		expect(later.state.floor).toBe(t + 7.2e6 - MIN_WINDOW_MS);
	});

	test('another setting (entity, event, connection) starts over: nothing fires', () => {
		const { state } = poll(undefined, [{ id: 'a', updated: '2024-01-01T00:00:00Z' }]);
		const other = new PollReading(undefined, 'tasks', 'newOrUpdated', LATEST);
		expect(other.fires({ id: 'b', updated: '2024-02-01T00:00:00Z' })).toBe(false);
		expect(state.of).toBe(OF);
	});
});

const iso = (ms: number) => new Date(ms).toISOString();

describe('a listing that misses a record', () => {
	test('a record in the window, missed by one listing, does not fire again when it is back', () => {
		const t = Date.UTC(2024, 5, 1, 12);
		const a = { id: 'a', updated: iso(t) };
		const b = { id: 'b', updated: iso(t) };
		const base = poll(undefined, [a, b]).state;
		const changed = { ...b, updated: iso(t + 1000) };
		expect(poll(base, [a, changed]).fired).toEqual(['b']);
		const missed = poll(poll(base, [a, changed]).state, [a]);
		expect(missed.fired).toEqual([]);
		expect(poll(missed.state, [a, changed]).fired).toEqual([]);
	});

	test(`a record without a time is remembered through ${MAX_MISSES} listings that miss it, then forgotten`, () => {
		const x = { id: 'x' };
		const y = { id: 'y' };
		let { state } = poll(undefined, [x, y]);
		for (let i = 0; i < MAX_MISSES; i++) ({ state } = poll(state, [x]));
		expect(poll(state, [x, y]).fired).toEqual([]);
		({ state } = poll(state, [x]));
		expect(poll(state, [x, y]).fired).toEqual(['y']);
	});
});

test('a stale copy (an older time than the latest seen) never fires; the latest is kept', () => {
	const t = Date.UTC(2024, 5, 1, 12);
	const old = { id: 'r', updated: iso(t) };
	const fresh = { id: 'r', updated: iso(t + 60_000) };
	let { state } = poll(undefined, [old]);
	const fired: unknown[] = [];
	for (const version of [fresh, old, fresh, old, fresh]) {
		const next = poll(state, [version]);
		fired.push(...next.fired);
		state = next.state;
	}
	expect(fired).toEqual(['r']);
});

describe('a record dated hours ahead', () => {
	const t = Date.UTC(2024, 5, 1, 12);
	const real = (id: string, ms: number) => ({ id, updated: iso(ms) });
	const ahead = { id: 'ahead', updated: iso(t + 3 * 3.6e6) };

	test("after the first poll: everyone else's changes still fire while it is in the window", () => {
		let { state } = poll(undefined, [real('a', t - 86.4e6)], 'newOrUpdated', t);
		({ state } = poll(state, [real('a', t - 86.4e6), ahead], 'newOrUpdated', t + 60_000));
		const next = poll(
			state,
			[real('a', t + 90_000), ahead, real('b', t + 100_000)],
			'newOrUpdated',
			t + 120_000,
		);
		expect(next.fired).toEqual(['a', 'b']);
		// It stays in the window until the floor passes it: it never fires twice.
		expect(next.state.floor).toBeLessThan(t);
		expect(poll(next.state, [ahead], 'newOrUpdated', t + 4 * 3.6e6).fired).toEqual([]);
	});

	test('at the first poll: it does not lift the first floor over the other records', () => {
		const { state } = poll(undefined, [real('a', t - 60_000), ahead], 'newOrUpdated', t);
		expect(poll(state, [real('a', t + 30_000), ahead], 'newOrUpdated', t + 60_000).fired).toEqual([
			'a',
		]);
	});
});

describe('the caps count bytes of the saved JSON', () => {
	test('IDs that need escapes or several UTF-8 bytes keep the state under 100 KB', () => {
		for (const char of ['\u0001', '\u4e00', '\u{1F600}']) {
			const records = Array.from({ length: 300 }, (_, i) => ({
				id: String(i).padStart(4, '0') + char.repeat(150),
				updated: Date.UTC(2024, 0, 1) + i,
			}));
			const first = poll(undefined, records);
			expect(size(poll(first.state, records).state)).toBeLessThan(100_000);
		}
	});

	test('IDs of records without a time past the budget in bytes fail the poll', () => {
		const records = Array.from({ length: 800 }, (_, i) => ({
			id: String(i).padStart(4, '0') + '\u4e00'.repeat(23),
		}));
		expect(() => poll(undefined, records)).toThrow(/more records without a time/);
	});
});
