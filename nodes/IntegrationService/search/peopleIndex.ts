/**
 * The service has no search: the first item that needs a person reads the people list, later items
 * look in what was read. Only match keys and IDs are held, so memory stays flat.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Connection, ServiceContext, ServiceRun } from '../transport';
import { MAX_PAGE_SIZE } from '../transport';
import type { MatchKind, PersonId, PersonKeys } from './matchKeys';
import { MATCH_KINDS, personIdOf, personKeys } from './matchKeys';
import { readStep } from './pages';

/** One step of the scan from `cursor` ('' the start), as `readStep` gives it. */
export type PeoplePages = (
	cursor: string,
) => Promise<{ people: IDataObject[]; nextCursor?: string; total?: number }>;

/**
 * An offset-paged list whose total changed between two pages of one scan, twice: a deletion on a page
 * already read moves a later person onto it unseen, so the item fails rather than create a duplicate.
 */
export class ListChanged extends Error {
	readonly context = {
		nextStep:
			'Only reads were sent, nothing was created or changed; others were writing to the people list while it was read: call again.',
	};
}

/** One ID (the common case, no array), or several. */
type Ids = PersonId | PersonId[];

export class PeopleIndex {
	private readonly byKey: Record<MatchKind, Map<string, Ids>> = {
		email: new Map(),
		phone: new Map(),
		name: new Map(),
	};
	/** The keys of people this run wrote: they outrank what the scan reads. */
	private readonly written = new Map<PersonId, PersonKeys>();
	private readonly writing = new Map<string, Promise<unknown>>();
	/** Claimed keys whose create has an unknown outcome, with its item: never created again this run. */
	private readonly unsure = new Map<string, number>();
	/** '' the start, undefined once the list has ended. */
	private cursor: string | undefined = '';
	/** The page being read, by whichever item asked first; the others wait for it. */
	private reading?: Promise<void>;
	/** The total the scan's pages announce; a change means the list moved under the scan. */
	private total?: number;
	/** The scan was read again from its start once: a second change fails every item that needs it. */
	private reread = false;
	/** Why, once it failed: each item gets an error of its own (the router adds its item to the text). */
	private changed?: string;

	/** The people with any of these keys, reading on until `enough` are found or the list has ended. */
	async find(
		read: PeoplePages,
		kind: MatchKind,
		keys: readonly string[],
		enough = Infinity,
	): Promise<PersonId[]> {
		for (;;) {
			if (keys.length > 0 && this.changed !== undefined) throw new ListChanged(this.changed);
			if (this.cursor === undefined || keys.length === 0) return this.lookup(kind, keys);
			// Counted up to `enough` only (thousands may share a key), and only when a Limit asks.
			const found = enough === Infinity ? [] : this.lookup(kind, keys, enough);
			if (found.length >= enough) return found;
			await this.readMore(read);
		}
	}

	/** Up to `most`, each person once, in the order read. */
	lookup(kind: MatchKind, keys: readonly string[], most = Infinity): PersonId[] {
		const found = new Set<PersonId>();
		for (const key of keys) {
			const ids = this.byKey[kind].get(key);
			for (const id of [ids ?? []].flat()) {
				if (found.size >= most) return [...found];
				const current = this.written.get(id);
				if (current === undefined || current[kind].includes(key)) found.add(id);
			}
		}
		return [...found];
	}

	remember(id: PersonId, keys: PersonKeys): void {
		this.written.set(id, keys);
		this.add(id, keys);
	}

	/** A create whose outcome is unknown: the person may exist, so later rows with these keys are refused. */
	markUnsure(claims: readonly string[], itemIndex: number): void {
		for (const claim of claims) if (!this.unsure.has(claim)) this.unsure.set(claim, itemIndex);
	}

	unsureOf(claims: readonly string[]): { claim: string; itemIndex: number } | undefined {
		for (const claim of claims) {
			const itemIndex = this.unsure.get(claim);
			if (itemIndex !== undefined) return { claim, itemIndex };
		}
		return undefined;
	}

	/**
	 * Runs `work` while no other item holds one of these claims (`email:ada@example.test`): two rows
	 * with one new email make one person and update it, not two.
	 */
	async exclusive<T>(claims: readonly string[], work: () => Promise<T>): Promise<T> {
		for (;;) {
			const busy = claims.flatMap((claim) => this.writing.get(claim) ?? []);
			if (busy.length === 0) break;
			await Promise.allSettled(busy);
		}
		const done = work();
		for (const claim of claims) this.writing.set(claim, done);
		try {
			return await done;
		} finally {
			for (const claim of claims) if (this.writing.get(claim) === done) this.writing.delete(claim);
		}
	}

	private add(id: PersonId, keys: PersonKeys): void {
		for (const kind of MATCH_KINDS) {
			for (const key of keys[kind]) {
				const map = this.byKey[kind];
				const ids = map.get(key);
				// Repeats are harmless (lookup counts each person once); checking for one costs when thousands share a key.
				if (ids === undefined) map.set(key, id);
				else if (Array.isArray(ids)) ids.push(id);
				else if (ids !== id) map.set(key, [ids, id]);
			}
		}
	}

	/** The list moved under the scan: read it again from the start, once; then fail the items that need it. */
	private restart(before: number, now: number): void {
		if (this.reread) {
			this.changed = `The people list changed while it was being read (${before} people, then ${now}), so a person may have been missed; nothing was created or changed: run again`;
			throw new ListChanged(this.changed);
		}
		this.reread = true;
		this.cursor = '';
		this.total = undefined;
		for (const map of Object.values(this.byKey)) map.clear();
		for (const [id, keys] of this.written) this.add(id, keys);
	}

	/** Reads the next page; when another item is reading it, waits for that instead (its failure is its own). */
	private async readMore(read: PeoplePages): Promise<void> {
		if (this.reading) {
			await this.reading.catch(() => undefined);
			return;
		}
		const step = async () => {
			const { people, nextCursor, total } = await read(this.cursor ?? '');
			if (total !== undefined && this.total !== undefined && total !== this.total)
				return this.restart(this.total, total);
			this.total ??= total;
			for (const person of people) {
				const id = personIdOf(person);
				if (id !== undefined) this.add(id, personKeys(person));
			}
			this.cursor = nextCursor;
		};
		this.reading = step().finally(() => (this.reading = undefined));
		await this.reading;
	}
}

/** The run's index per connection, keyed weakly by the run's `state` (shared by its items, gone with it). */
const runIndexes = new WeakMap<ServiceRun['state'], Map<string, PeopleIndex>>();

export function peopleIndexOf(run: ServiceRun, connection: Connection): PeopleIndex {
	let indexes = runIndexes.get(run.state);
	if (indexes === undefined) runIndexes.set(run.state, (indexes = new Map()));
	const key = connection.credentialId?.trim() ?? '';
	let index = indexes.get(key);
	if (index === undefined) indexes.set(key, (index = new PeopleIndex()));
	return index;
}

/** The scan's pages for one item: one request a step, so the scan can stop after any page. */
export function peoplePages(
	ctx: ServiceContext,
	itemIndex: number,
	run: ServiceRun,
	connection: Connection,
): PeoplePages {
	const request = { method: 'GET', host: 'crm', connection, path: ['people'] } as const;
	return async (cursor) => {
		const batch = { cursor, field: 'The people index' };
		const list = { request, pageSize: MAX_PAGE_SIZE, maxRecords: MAX_PAGE_SIZE, batch };
		const step = await readStep(ctx, itemIndex, run, { ...list, recordsKey: 'people' });
		return { people: step.pages.flat(), nextCursor: step.nextCursor, total: step.total };
	};
}
