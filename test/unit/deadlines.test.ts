/**
 * The one timer behind every attempt's deadline (transport/deadlines.ts): each deadline ends its
 * attempt when its time comes, never early, also when a nearer one arrives while the timer sleeps for
 * a later one; a settled attempt is never ended; and no timer is left once no attempt is in flight.
 */
import { watchDeadline } from '../../nodes/IntegrationService/transport/deadlines';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

/** Calls of each deadline, with the fake clock's time. */
function recorder() {
	const fired: Array<{ name: string; at: number }> = [];
	const start = performance.now();
	return {
		fired,
		expire: (name: string) => () => fired.push({ name, at: performance.now() - start }),
	};
}

describe('watchDeadline', () => {
	test('a nearer deadline that arrives while the timer sleeps for a later one still ends on time', async () => {
		const { fired, expire } = recorder();
		const settleLong = watchDeadline(30_000, expire('long'));
		await jest.advanceTimersByTimeAsync(100);
		const settleShort = watchDeadline(200, expire('short'));
		await jest.advanceTimersByTimeAsync(199);
		expect(fired).toEqual([]);
		await jest.advanceTimersByTimeAsync(1);
		expect(fired).toEqual([{ name: 'short', at: 300 }]);
		// The timer sleeps again, for the long one.
		await jest.advanceTimersByTimeAsync(30_000 - 300 - 1);
		expect(fired).toHaveLength(1);
		await jest.advanceTimersByTimeAsync(1);
		expect(fired).toEqual([
			{ name: 'short', at: 300 },
			{ name: 'long', at: 30_000 },
		]);
		settleShort();
		settleLong();
		expect(jest.getTimerCount()).toBe(0);
	});

	test('a settled attempt is never ended, and the last one to settle leaves no timer', async () => {
		const { fired, expire } = recorder();
		const settleA = watchDeadline(500, expire('a'));
		const settleB = watchDeadline(800, expire('b'));
		settleA();
		await jest.advanceTimersByTimeAsync(600);
		expect(fired).toEqual([]);
		expect(jest.getTimerCount()).toBeGreaterThan(0);
		settleB();
		expect(jest.getTimerCount()).toBe(0);
		await jest.advanceTimersByTimeAsync(1_000);
		expect(fired).toEqual([]);
	});

	test('deadlines due together end together; one set later still gets its own time', async () => {
		const { fired, expire } = recorder();
		const settles = [100, 100, 250].map((ms, at) => watchDeadline(ms, expire(`d${at}`)));
		await jest.advanceTimersByTimeAsync(100);
		expect(fired.map((one) => one.name).sort()).toEqual(['d0', 'd1']);
		const late = watchDeadline(50, expire('late'));
		await jest.advanceTimersByTimeAsync(50);
		expect(fired.map((one) => `${one.name}@${one.at}`)).toEqual(['d0@100', 'd1@100', 'late@150']);
		await jest.advanceTimersByTimeAsync(100);
		expect(fired.at(-1)).toEqual({ name: 'd2', at: 250 });
		for (const settle of [...settles, late]) settle();
		expect(jest.getTimerCount()).toBe(0);
	});
});
