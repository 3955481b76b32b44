/**
 * What the Changes Trigger remembers between polls, and which records of a poll are new or updated.
 * Pure: no n8n. A record's time is compared with the service's own times only, so clock skew between
 * n8n and the service loses nothing; n8n's clock only measures durations (skew-free).
 * - `floor`: a record whose time is below it was there before (or is older than the first poll). It
 *   trails the latest time a poll saw by the window (at least as long as a poll takes: a record changed
 *   while a poll read is still above the next floor), and never moves faster than time passes on n8n's
 *   clock, so a record dated hours ahead stays in the window instead of lifting the floor over the rest.
 * - `recent`: each record at or above the floor, with the latest time it had: it fires once per change,
 *   a stale copy (an older time) never; it leaves as the floor passes it, not when a listing misses it.
 * - `known`: records without a time, by ID, with how many polls in a row missed them (MAX_MISSES).
 */

export type ChangeEvent = 'new' | 'newOrUpdated';

export interface ChangeState {
	/** What the state follows (entity, event, connection): another setting starts over. */
	of: string;
	/** Counts commits: a poll that started from an older state saves nothing (two polls at once). */
	gen: number;
	/** Epoch ms, or null before any record with a time was seen (then every such record is new). */
	floor: number | null;
	/** The latest service time the last poll saw. */
	mark: number | null;
	/** n8n's clock when this state was saved: the floor moves at most as far as time passed since. */
	polledAt: number;
	/** n8n's measure of the longest poll so far (a duration, never compared with a service time). */
	slowestMs: number;
	recent: Array<[string, number]>;
	/** ID, and how many polls in a row did not list it. */
	known: Array<[string, number]>;
}

/** The overlap window's least length: covers a service that stamps a change a little before it lists it. */
export const MIN_WINDOW_MS = 15 * 60_000;
/** The most bytes `recent` may take in the saved JSON: past it the floor rises, newest records kept. */
export const MAX_RECENT_BYTES = 60_000;
/** The most bytes `known` (records without a time) may take in the saved JSON: past it the poll fails. */
export const MAX_KNOWN_BYTES = 30_000;
/** How many polls in a row may miss a record without a time and it is still remembered (after that, it is new again). */
export const MAX_MISSES = 3;
/** An ID longer than this is no ID this trigger can remember. */
export const MAX_ID_CHARS = 200;
/** A time further ahead of n8n's clock is garbage (year 9999), not skew: it would end every later change. */
export const MAX_AHEAD_MS = 24 * 3_600_000;

const CHANGE_FIELDS = ['serviceUpdated', 'updated', 'updatedAt'];
const CREATION_FIELDS = ['created', 'createdAt'];

/** A record's ID as text: text as written (a number past 2^53 given as text stays exact), or a safe integer. */
export function idOf(record: Record<string, unknown>): string | undefined {
	const { id } = record;
	if (typeof id === 'number') return Number.isSafeInteger(id) ? String(id) : undefined;
	if (typeof id !== 'string') return undefined;
	return id.trim() === '' || id.length > MAX_ID_CHARS ? undefined : id;
}

/** Epoch ms of a time as the service writes it: ISO text, or epoch ms as a number or digits. */
export function timeValue(value: unknown, latest: number): number | undefined {
	let ms: number | undefined;
	if (typeof value === 'number') ms = value;
	else if (typeof value === 'string' && /^\d{10,16}$/.test(value.trim())) ms = Number(value);
	else if (typeof value === 'string' && value.trim() !== '') ms = Date.parse(value);
	if (ms === undefined || !Number.isFinite(ms) || ms < 0 || ms > latest) return undefined;
	return ms;
}

/** Its creation time for "New"; for "New or Updated" its change time (`serviceUpdated` first), else creation. */
export function timeOf(
	record: Record<string, unknown>,
	event: ChangeEvent,
	latest: number,
): number | undefined {
	const fields = event === 'new' ? CREATION_FIELDS : [...CHANGE_FIELDS, ...CREATION_FIELDS];
	for (const field of fields) {
		const ms = timeValue(record[field], latest);
		if (ms !== undefined) return ms;
	}
	return undefined;
}

/** `fires` per record as its page arrives, then `next`; with no earlier state nothing fires (the baseline). */
export class PollReading {
	private readonly known: Map<string, number>;
	/** The window: the earlier state's entries, with this poll's records at or above the floor. */
	private readonly window: Map<string, number>;
	private readonly timeless = new Set<string>();
	private readonly fired = new Set<string>();
	private windowBytes = 0;
	private timelessBytes = 0;
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
		this.window = new Map(before?.recent ?? []);
		for (const [id] of this.window) this.windowBytes += recentBytes(id);
		this.known = new Map(before?.known ?? []);
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
		this.hold(id, time);
		if (this.before === undefined) return false;
		this.fired.add(id);
		return true;
	}

	private timelessFires(id: string): boolean {
		if (this.timeless.has(id)) return false;
		this.timeless.add(id);
		this.timelessBytes += knownBytes(id);
		if (this.timelessBytes > MAX_KNOWN_BYTES) throw new TooManyTimeless();
		if (this.before === undefined || this.known.has(id)) return false;
		this.fired.add(id);
		return true;
	}

	/** Holds a record inside the window; past twice the budget, the oldest go (memory stays flat). */
	private hold(id: string, time: number): void {
		if (!this.window.has(id)) this.windowBytes += recentBytes(id);
		this.window.set(id, time);
		if (this.windowBytes > 2 * MAX_RECENT_BYTES) this.prune(-Infinity);
	}

	/** Drops what is below `lowest`, then the oldest times until the budget holds (the floor rises). */
	private prune(lowest: number): void {
		const entries = [...this.window].filter(([, time]) => time >= lowest);
		entries.sort((a, b) => b[1] - a[1]);
		let bytes = 0;
		let kept = entries.length;
		for (let i = 0; i < entries.length; i++) {
			bytes += recentBytes(entries[i][0]);
			if (bytes > MAX_RECENT_BYTES) {
				// A time is kept whole or not at all: the records of the first time left out go with it.
				kept = i;
				while (kept > 0 && entries[kept - 1][1] === entries[i][1]) kept--;
				break;
			}
		}
		const raised = kept < entries.length ? entries[kept][1] + 1 : lowest;
		this.window.clear();
		this.windowBytes = 0;
		for (const [id, time] of entries.slice(0, kept)) {
			this.window.set(id, time);
			this.windowBytes += recentBytes(id);
		}
		if (Number.isFinite(raised)) this.floor = Math.max(this.floor ?? raised, raised);
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
			mark: this.mark,
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

/** Bytes of a text in the saved JSON, quoted and escaped, in UTF-8 (each %XX of its URI encoding is one). */
export const jsonBytes = (text: string) =>
	encodeURIComponent(JSON.stringify(text)).replace(/%[0-9A-F]{2}/g, '_').length;

/** An entry's bytes: `["id",1700000000000],` and `["id",3],`. */
const recentBytes = (id: string) => jsonBytes(id) + 20;
const knownBytes = (id: string) => jsonBytes(id) + 5;

/** More records without a time than the state can remember by ID. */
export class TooManyTimeless extends Error {
	constructor() {
		super(
			`The list holds more records without a time (created, updated, serviceUpdated…) than this trigger can remember by ID (${MAX_KNOWN_BYTES} bytes of IDs)`,
		);
	}
}

/** The state saved before, if it is one this trigger wrote for the same setting. */
export function stateFor(saved: unknown, of: string): ChangeState | undefined {
	if (saved === null || typeof saved !== 'object') return undefined;
	const state = saved as Partial<ChangeState>;
	const ok =
		state.of === of &&
		typeof state.gen === 'number' &&
		typeof state.polledAt === 'number' &&
		typeof state.slowestMs === 'number' &&
		Array.isArray(state.recent) &&
		Array.isArray(state.known);
	return ok ? (state as ChangeState) : undefined;
}
