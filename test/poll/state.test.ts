/**
 * The Changes Trigger's state on its own (pure: no n8n, no HTTP): its size after 200,000 records, the
 * overlap window that catches a change made while a poll reads, and the budget that keeps a burst of
 * changes from growing it.
 */
import {
	MIN_WINDOW_MS,
	PollReading,
	type ChangeEvent,
	type ChangeState,
} from '../../nodes/IntegrationServiceChangesTrigger/state';

const LATEST = Date.UTC(2030, 0, 1);
const OF = 'people';

/** One poll over `records`: the IDs that fire, and the state after it. */
function poll(
	before: ChangeState | undefined,
	records: Iterable<Record<string, unknown>>,
	event: ChangeEvent = 'newOrUpdated',
): { fired: unknown[]; state: ChangeState } {
	const reading = new PollReading(before, OF, event, LATEST);
	const fired: unknown[] = [];
	for (const record of records) if (reading.fires(record)) fired.push(record.id);
	return { fired, state: reading.next(1000) };
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
		const { state } = poll(undefined, [{ id: 'a', updated: new Date(t).toISOString() }]);
		expect(state.floor).toBe(t - MIN_WINDOW_MS);
	});

	test('another setting (entity, event, connection) starts over: nothing fires', () => {
		const { state } = poll(undefined, [{ id: 'a', updated: '2024-01-01T00:00:00Z' }]);
		const other = new PollReading(undefined, 'tasks', 'newOrUpdated', LATEST);
		expect(other.fires({ id: 'b', updated: '2024-02-01T00:00:00Z' })).toBe(false);
		expect(state.of).toBe(OF);
	});
});
