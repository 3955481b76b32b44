import { sleep } from 'n8n-workflow';

/**
 * The attempts' deadlines (attempt.ts), kept by one timer for every attempt in flight in this process
 * rather than one per attempt: a timer per attempt had to be cancelled when its answer came, and each
 * cancel (an abort event) cost more CPU than the rest of the attempt's own bookkeeping. The timer sleeps
 * until the earliest deadline; an attempt that settles only leaves the set. When the last one leaves,
 * the timer is cancelled, so nothing outlives the runs that need it.
 */

interface Deadline {
	at: number;
	expire: () => void;
}

const pending = new Set<Deadline>();

/** The timer's wake-up time and how to cancel it; none while no attempt is in flight. */
let armed: { at: number; stop: AbortController } | undefined;

/** Why a timer was cancelled: one reason for all, made once (each abort with none makes a DOMException). */
const DISARMED = new Error('the deadline timer was replaced or is no longer needed');

/** Rejects once `signal` aborts. */
function whenAborted(signal: AbortSignal): Promise<never> {
	return new Promise<never>((_resolve, reject) => {
		signal.addEventListener('abort', () => reject(DISARMED), { once: true });
	});
}

function disarm(): void {
	armed?.stop.abort(DISARMED);
	armed = undefined;
}

/** Ends every attempt whose deadline has come, and sleeps until the next one's. */
function expireDue(): void {
	const now = performance.now();
	let next = Infinity;
	for (const deadline of pending) {
		if (deadline.at <= now) {
			pending.delete(deadline);
			deadline.expire();
		} else next = Math.min(next, deadline.at);
	}
	if (next !== Infinity) arm(next);
}

function arm(at: number): void {
	disarm();
	const current = { at, stop: new AbortController() };
	armed = current;
	// The sleep of n8n 1.85 to 2.16 ignores its signal (2.41's honours it): the race ends the wait when
	// the timer is cancelled, so a replaced timer never acts.
	Promise.race([
		sleep(Math.max(0, at - performance.now()), current.stop.signal),
		whenAborted(current.stop.signal),
	]).then(
		() => {
			if (armed !== current) return;
			armed = undefined;
			expireDue();
		},
		() => undefined,
	);
}

/**
 * Calls `expire` once `ms` have passed, unless the returned function is called first (the attempt
 * settled). A deadline is never called early.
 */
export function watchDeadline(ms: number, expire: () => void): () => void {
	// A monotonic clock: a change of the system's time neither ends an attempt early nor holds one late.
	const deadline = { at: performance.now() + ms, expire };
	pending.add(deadline);
	if (armed === undefined || deadline.at < armed.at) arm(deadline.at);
	return () => {
		if (pending.delete(deadline) && pending.size === 0) disarm();
	};
}
