import { ApplicationError } from 'n8n-workflow';

/**
 * What the Changes Trigger remembers between polls, and which records of a poll are new or updated.
 * Pure: no n8n context, no HTTP. A record's time is compared with the service's own times only, so clock skew between
 * n8n and the service loses nothing; n8n's clock only measures durations.
 */

export type ChangeEvent = 'new' | 'newOrUpdated';

export interface ChangeState {
	/** What the state follows (entity, event, connection): another setting starts over. */
	of: string;
	/** Counts commits: a poll that started from an older state saves nothing (two polls at once). */
	gen: number;
	/**
	 * Epoch ms: a record with an older time was there before. It trails the latest time a poll saw by
	 * the window (at least as long as a poll takes: a record changed while a poll read is still above the
	 * next floor), and never rises faster than time passes on n8n's clock, so a record dated hours ahead
	 * stays in the window instead of lifting the floor over the rest. Null before any time was seen.
	 */
	floor: number | null;
	/** n8n's clock when this state was saved: the floor moves at most as far as time passed since. */
	polledAt: number;
	/** n8n's measure of the longest poll so far (a duration, never compared with a service time). */
	slowestMs: number;
	/** Each record at or above the floor, with its latest time: it fires once per change, a stale copy never. */
	recent: Array<[string, number]>;
	/** Records without a time: ID, and how many polls in a row did not list it (MAX_MISSES). */
	known: Array<[string, number]>;
}

/** The overlap window's least length: covers a service that stamps a change a little before it lists it. */
export const MIN_WINDOW_MS = 15 * 60_000;
/** The most bytes `recent` may take in the saved JSON: past it the floor rises, newest records kept. */
const MAX_RECENT_BYTES = 60_000;
/** The most bytes `known` (records without a time) may take in the saved JSON: past it the poll fails. */
const MAX_KNOWN_BYTES = 30_000;
/** How many polls in a row may miss a record without a time and it is still remembered (after that, it is new again). */
export const MAX_MISSES = 3;
/** An ID longer than this is no ID this trigger can remember. */
const MAX_ID_CHARS = 200;
/** A time further ahead of n8n's clock is garbage (year 9999), not skew: it would end every later change. */
export const MAX_AHEAD_MS = 24 * 3_600_000;

/** Where a record's time is read, the first found: "New" by its creation, else by its last change. */
const TIME_FIELDS: Record<ChangeEvent, string[]> = {
	new: ['created', 'createdAt'],
	newOrUpdated: ['serviceUpdated', 'updated', 'updatedAt', 'created', 'createdAt'],
};

/** A record's ID as text: text as written (a number past 2^53 given as text stays exact), or a safe integer. */
function idOf(record: Record<string, unknown>): string | undefined {
	const { id } = record;
	if (typeof id === 'number') return Number.isSafeInteger(id) ? String(id) : undefined;
	if (typeof id !== 'string') return undefined;
	return id.trim() === '' || id.length > MAX_ID_CHARS ? undefined : id;
}

/** Epoch ms of the event's first time field as the service writes it: ISO text, or epoch ms as a number or digits. */
export function timeOf(
	record: Record<string, unknown>,
	event: ChangeEvent,
	latest: number,
): number | undefined {
	for (const field of TIME_FIELDS[event]) {
		const value = record[field];
		let ms = typeof value === 'number' ? value : NaN;
		if (typeof value === 'string')
			ms = /^\d{10,16}$/.test(value.trim()) ? Number(value) : Date.parse(value);
		if (Number.isFinite(ms) && ms >= 0 && ms <= latest) return ms;
	}
	return undefined;
}

/** `fires` per record as its page arrives, then `next`; with no earlier state nothing fires (the baseline). */
export class PollReading {
	/** The window: the earlier state's entries, with this poll's records at or above the floor. */
	private window = new Map<string, number>();
	private windowBytes = 0;
	private readonly known: Map<string, number>;
	private readonly timeless = new Set<string>();
	private timelessBytes = 0;
	private readonly fired = new Set<string>();
	/** The latest time this poll saw. */
	private mark: number | null = null;
	/** The next state's floor: it rises with the mark, and when the window is over its budget. */
	private floor: number | null;
	/** The floor this poll decides by (the saved one). */
	private readonly since: number | null;
	/** Records with an ID this poll listed. */
	listed = 0;
	/** Records skipped for a numeric ID n8n cannot read exactly (past 2^53, or not whole). */
	unreadableIds = 0;

	constructor(
		private readonly before: ChangeState | undefined,
		readonly of: string,
		private readonly event: ChangeEvent,
		private readonly latest: number,
	) {
		this.keep(before?.recent ?? []);
		this.known = new Map(before?.known);
		this.floor = before?.floor ?? null;
		this.since = this.floor;
	}

	/** New, or for "New or Updated" later than the time held for it; no usable ID never fires. */
	fires(record: Record<string, unknown>): boolean {
		const id = idOf(record);
		if (id === undefined) {
			if (typeof record.id === 'number') this.unreadableIds++;
			return false;
		}
		this.listed++;
		if (this.fired.has(id)) return false;
		const time = timeOf(record, this.event, this.latest);
		if (time === undefined) return this.timelessFires(id);
		if (this.mark === null || time > this.mark) this.mark = time;
		if (this.since !== null && time < this.since) return false;
		const heldAt = this.window.get(id);
		if (heldAt !== undefined && heldAt >= time) return false;
		if (!this.window.has(id)) this.windowBytes += recentBytes(id);
		this.window.set(id, time);
		// Past twice the budget the oldest go, so memory stays flat.
		if (this.windowBytes > 2 * MAX_RECENT_BYTES) this.prune(-Infinity);
		if (this.before === undefined) return false;
		this.fired.add(id);
		return true;
	}

	private timelessFires(id: string): boolean {
		if (this.timeless.has(id)) return false;
		this.timeless.add(id);
		this.timelessBytes += knownBytes(id);
		if (this.timelessBytes > MAX_KNOWN_BYTES)
			throw new ApplicationError(
				`The list holds more records without a time (created, updated, serviceUpdated…) than this trigger can remember by ID (${MAX_KNOWN_BYTES} bytes of IDs)`,
			);
		if (this.before === undefined || this.known.has(id)) return false;
		this.fired.add(id);
		return true;
	}

	/** Keeps the newest at or above `lowest` within the budget; past it the floor rises. */
	private prune(lowest: number): void {
		const entries = [...this.window].filter(([, time]) => time >= lowest);
		entries.sort((a, b) => b[1] - a[1]);
		let bytes = 0;
		const over = entries.find(([id]) => (bytes += recentBytes(id)) > MAX_RECENT_BYTES);
		const cut = over?.[1] ?? -Infinity;
		// A time is kept whole or not at all: the records of the first time left out go with it.
		this.keep(entries.filter(([, time]) => time > cut));
		const raised = Math.max(lowest, cut + 1);
		if (Number.isFinite(raised)) this.floor = Math.max(this.floor ?? raised, raised);
	}

	private keep(entries: Array<[string, number]>): void {
		this.window = new Map(entries);
		this.windowBytes = [...this.window.keys()].reduce((sum, id) => sum + recentBytes(id), 0);
	}

	/**
	 * The state to save once the whole poll has succeeded: `pollMs` the time it took, `now` n8n's clock.
	 * The floor moves up to the latest time seen less the window (twice the slowest poll, at least
	 * MIN_WINDOW_MS), but no further than the time n8n's clock says passed since the last save. The
	 * first floor is the oldest time the window's budget holds: nothing yet says which time is credible.
	 */
	next(pollMs: number, now: number): ChangeState {
		const slowestMs = Math.max(this.before?.slowestMs ?? 0, pollMs);
		if (this.mark !== null && this.since !== null) {
			const target = this.mark - Math.max(MIN_WINDOW_MS, 2 * slowestMs);
			const elapsed = Math.max(0, now - (this.before?.polledAt ?? now));
			this.floor = Math.max(this.floor ?? -Infinity, Math.min(this.since + elapsed, target));
		}
		this.prune(this.floor ?? -Infinity);
		if (this.floor === null && this.window.size > 0) this.floor = Math.min(...this.window.values());
		return {
			of: this.of,
			gen: (this.before?.gen ?? 0) + 1,
			floor: this.floor,
			polledAt: now,
			slowestMs,
			recent: [...this.window],
			known: this.nextKnown(),
		};
	}

	/** The records without a time this poll listed, then those it missed fewer than MAX_MISSES times in a row. */
	private nextKnown(): Array<[string, number]> {
		const known: Array<[string, number]> = [...this.timeless].map((id) => [id, 0]);
		let bytes = this.timelessBytes;
		for (const [id, misses] of this.known) {
			if (this.timeless.has(id) || misses >= MAX_MISSES) continue;
			bytes += knownBytes(id);
			if (bytes > MAX_KNOWN_BYTES) break;
			known.push([id, misses + 1]);
		}
		return known;
	}
}

/** An entry's bytes in the saved JSON (UTF-8, quoted and escaped): `["id",1700000000000],` and `["id",3],`. */
const recentBytes = (id: string) => Buffer.byteLength(JSON.stringify(id)) + 20;
const knownBytes = (id: string) => Buffer.byteLength(JSON.stringify(id)) + 5;

/** The state saved before, if it is one this trigger wrote for the same setting. */
export function stateFor(saved: unknown, of: string): ChangeState | undefined {
	const state = (saved ?? {}) as ChangeState;
	const numbers = [state.gen, state.polledAt, state.slowestMs].every((n) => typeof n === 'number');
	const lists = Array.isArray(state.recent) && Array.isArray(state.known);
	return state.of === of && numbers && lists ? state : undefined;
}
