/**
 * What the Changes Trigger remembers between polls, and which records of a poll are new or updated.
 * Pure: no n8n, no clock. A record's time is compared with the service's own times only (the
 * watermark), never with n8n's clock, so clock skew between the two loses nothing.
 *
 * The state is a watermark and the records inside a short overlap window below it:
 * - `floor`: a record whose time is below it was there before (or is older than the first poll);
 * - `recent`: each record at or above the floor, with the time it had, so it fires once per change;
 * - `known`: records that carry no time at all, by ID: they can only be new.
 * The window reaches back at least as long as a poll takes, so a record changed while a poll was
 * reading (its time earlier than the latest time that poll saw) is still above the next poll's floor.
 */

export type ChangeEvent = 'new' | 'newOrUpdated';

export interface ChangeState {
	/** What the state follows (entity, event, connection): another setting starts over. */
	of: string;
	/** Counts commits: a poll that started from an older state saves nothing (two polls at once). */
	gen: number;
	/** Epoch ms, or null before any record with a time was seen (then every such record is new). */
	floor: number | null;
	/** The latest service time seen. */
	mark: number | null;
	/** n8n's measure of the longest poll so far (a duration, never compared with a service time). */
	slowestMs: number;
	recent: Array<[string, number]>;
	known: string[];
}

/** The overlap window's least length: covers a service that stamps a change a little before it lists it. */
export const MIN_WINDOW_MS = 15 * 60_000;
/** The most characters `recent` may take: past it the floor rises, newest records kept. */
export const MAX_RECENT_CHARS = 60_000;
/** The most characters `known` (records without a time) may take: past it the poll fails. */
export const MAX_KNOWN_CHARS = 30_000;
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

/**
 * The time that decides a record: its creation time for "New" (an update does not change it); its
 * modification time for "New or Updated" (`serviceUpdated` first: the service stamps it when the
 * change reaches it), else its creation time. `latest`: the latest plausible time (n8n's clock plus
 * MAX_AHEAD_MS), so garbage far in the future counts as no time.
 */
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

/**
 * One poll's reading: `fires` for each record as its page arrives (memory stays flat: only the records
 * inside the window are held), then `next` for the state to save. With no earlier state (the first
 * poll, or another setting) nothing fires: the records there are the baseline.
 */
export class PollReading {
	private readonly recent: Map<string, number>;
	private readonly known: Set<string>;
	private readonly window = new Map<string, number>();
	private readonly timeless = new Set<string>();
	private readonly fired = new Set<string>();
	private windowChars = 0;
	private timelessChars = 0;
	private mark: number | null;
	/** The next state's floor: it rises with the mark, and when the window is over its budget. */
	private floor: number | null;
	/** The floor this poll decides by (the saved one). */
	private readonly since: number | null;

	constructor(
		private readonly before: ChangeState | undefined,
		readonly of: string,
		private readonly event: ChangeEvent,
		private readonly latest: number,
	) {
		this.recent = new Map(before?.recent ?? []);
		this.known = new Set(before?.known ?? []);
		this.mark = before?.mark ?? null;
		this.floor = before?.floor ?? null;
		this.since = this.floor;
	}

	/**
	 * Whether this record fires now: new (its ID not seen before) or, for "New or Updated", changed (seen
	 * with another time). A record without a usable ID never fires: it cannot be told apart.
	 */
	fires(record: Record<string, unknown>): boolean {
		const id = idOf(record);
		if (id === undefined || this.fired.has(id)) return false;
		const time = timeOf(record, this.event, this.latest);
		if (time === undefined) return this.timelessFires(id);
		const heldAt = this.window.get(id);
		if (heldAt !== undefined && heldAt >= time) return false;
		if (this.mark === null || time > this.mark) this.mark = time;
		this.hold(id, time);
		if (this.before === undefined) return false;
		if (this.since !== null && time < this.since) return false;
		if (this.recent.get(id) === time) return false;
		this.fired.add(id);
		return true;
	}

	private timelessFires(id: string): boolean {
		if (this.timeless.has(id)) return false;
		this.timeless.add(id);
		this.timelessChars += id.length + 3;
		if (this.timelessChars > MAX_KNOWN_CHARS) throw new TooManyTimeless();
		if (this.before === undefined || this.known.has(id)) return false;
		this.fired.add(id);
		return true;
	}

	/** Holds a record inside the window; past twice the budget, the oldest go (memory stays flat). */
	private hold(id: string, time: number): void {
		const previous = this.window.get(id);
		if (previous !== undefined) this.windowChars -= entryChars(id);
		this.window.set(id, time);
		this.windowChars += entryChars(id);
		if (this.windowChars > 2 * MAX_RECENT_CHARS) this.prune(-Infinity);
	}

	/** Drops what is below `lowest`, then the oldest times until the budget holds (the floor rises). */
	private prune(lowest: number): void {
		const entries = [...this.window].filter(([, time]) => time >= lowest);
		entries.sort((a, b) => b[1] - a[1]);
		let chars = 0;
		let kept = entries.length;
		for (let i = 0; i < entries.length; i++) {
			chars += entryChars(entries[i][0]);
			if (chars > MAX_RECENT_CHARS) {
				// A time is kept whole or not at all: the records of the first time left out go with it.
				kept = i;
				while (kept > 0 && entries[kept - 1][1] === entries[i][1]) kept--;
				break;
			}
		}
		const raised = kept < entries.length ? entries[kept][1] + 1 : lowest;
		this.window.clear();
		this.windowChars = 0;
		for (const [id, time] of entries.slice(0, kept)) {
			this.window.set(id, time);
			this.windowChars += entryChars(id);
		}
		if (Number.isFinite(raised)) this.floor = Math.max(this.floor ?? raised, raised);
	}

	/**
	 * The state to save once the whole poll has succeeded, `pollMs` the time it took. The window reaches
	 * back twice the slowest poll (at least MIN_WINDOW_MS) below the latest time seen.
	 */
	next(pollMs: number): ChangeState {
		const slowestMs = Math.max(this.before?.slowestMs ?? 0, pollMs);
		const windowMs = Math.max(MIN_WINDOW_MS, 2 * slowestMs);
		let lowest = this.floor ?? -Infinity;
		if (this.mark !== null) {
			lowest = Math.max(lowest, this.mark - windowMs);
			this.floor = lowest;
		}
		this.prune(lowest);
		return {
			of: this.of,
			gen: (this.before?.gen ?? 0) + 1,
			floor: this.floor,
			mark: this.mark,
			slowestMs,
			recent: [...this.window],
			known: [...this.timeless],
		};
	}
}

const entryChars = (id: string) => id.length + 20;

/** More records without a time than the state can remember by ID. */
export class TooManyTimeless extends Error {
	constructor() {
		super(
			`The list holds more records without a time (created, updated, serviceUpdated…) than this trigger can remember by ID (${MAX_KNOWN_CHARS} characters of IDs)`,
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
		typeof state.slowestMs === 'number' &&
		Array.isArray(state.recent) &&
		Array.isArray(state.known);
	return ok ? (state as ChangeState) : undefined;
}
