/**
 * The invariants of a Person › Find or Create or Update run, where one run meets the people list's
 * pages, GETs of one person and writes: every request is one the items call for, and every item
 * comes to what the list and the answers say, exactly where they were healthy. A failed read of the
 * list fails the item that read it (the next item that needs the page reads it again), so no more
 * items may fail without a failure of their own than reads of the list failed.
 */
import { isDeepStrictEqual } from 'util';

import type { IDataObject } from 'n8n-workflow';

import {
	fail,
	failedUnsent,
	isError,
	notRead,
	safeParse,
	segmentsOf,
	TIMED_OUT,
	type RunRecord,
} from './attempts';
import { TRAITS } from './faults';
import type { PeopleCase, PersonId } from './scenarios';
import { listRecords, type Drawn } from './service';

type Sent = 'page' | 'person' | 'POST' | 'PUT';

function sentOf({ request }: Drawn): Sent | undefined {
	const { segments } = segmentsOf(request.url);
	if (segments[0] !== 'people' || segments.length > 2) return undefined;
	const one = segments.length === 2;
	if (request.method === 'GET') return one ? 'person' : 'page';
	if (request.method === 'POST' && !one) return 'POST';
	if (request.method === 'PUT' && one) return 'PUT';
	return undefined;
}

const itemIndexOf = (key: string) => (/^item-\d+$/.test(key) ? Number(key.slice(5)) : undefined);

/** What an item must come to: the people it matches, or (`refusedBy`) refused for an earlier create. */
interface Match {
	ids: PersonId[];
	by: 'email' | 'phone';
	refusedBy?: number;
}

const outputOf = (run: RunRecord, index: number) =>
	run.result.items.find(
		({ pairedItem }) => (pairedItem as { item?: number } | undefined)?.item === index,
	)?.json;

/**
 * Each item's matches; a row that follows an earlier one with its new email: the person that create
 * made, or refused when it may have made one unseen (an answer without an ID, or a failure after
 * which the POST may have been processed), or a create of its own when that create was never sent
 * or failed before it could be processed.
 */
function matchesOf(run: RunRecord): Match[] {
	return run.scenario.people!.matches.map(({ ids, by, follows }) => {
		if (follows === undefined) return { ids, by };
		const posts = run.drawn.filter(
			(drawn) => drawn.key === `item-${follows}` && drawn.request.method === 'POST',
		);
		const last = posts[posts.length - 1];
		if (!last) return { ids, by };
		const made = outputOf(run, follows);
		if (made && !isError(made)) {
			const { id } = made;
			const valid =
				(typeof id === 'number' && Number.isFinite(id)) ||
				(typeof id === 'string' && id.trim() !== '');
			return valid ? { ids: [id as PersonId], by } : { ids, by, refusedBy: follows };
		}
		const unknown =
			TRAITS[last.fault].mayHaveBeenProcessed ||
			notRead(last) ||
			TIMED_OUT.test(String(made?.error));
		return unknown ? { ids, by, refusedBy: follows } : { ids, by };
	});
}

/** A write: the item's, to the person it matches (a POST when it matches nobody), with its body. */
function writeAsGiven(run: RunRecord, drawn: Drawn, sent: 'POST' | 'PUT'): void {
	const people = run.scenario.people!;
	const { request } = drawn;
	const where = `${request.method} ${request.url}`;
	if (people.operation !== 'upsert') fail(`${where}: Find writes nothing`);
	const index = itemIndexOf(drawn.key);
	const item = index === undefined ? undefined : run.items[index];
	if (index === undefined || !item) return fail(`${where} belongs to no item`);
	const { ids, refusedBy } = matchesOf(run)[index];
	if (refusedBy !== undefined)
		fail(
			`${where}: item ${index} wrote though the create of item ${refusedBy} has an unknown outcome`,
		);
	const person = segmentsOf(request.url).segments[1];
	if (sent === 'POST' ? ids.length !== 0 : ids.length !== 1 || String(ids[0]) !== person)
		fail(`${where}: item ${index} matches ${ids.join(', ') || 'nobody'}`);
	const query = new URL(request.url, 'http://x').search;
	if (query !== (sent === 'PUT' ? (people.query ?? '') : ''))
		fail(`${where}: the query is not "${people.query}"`);
	const body = people.body!(item);
	if (!isDeepStrictEqual(safeParse(request.body), body))
		fail(`${where} carried ${request.body.slice(0, 300)}, not ${JSON.stringify(body)}`);
}

/** Each request is a page of the list, a GET of a person an item matches, or an item's write. */
export function peopleSentAsGiven(run: RunRecord): void {
	const people = run.scenario.people!;
	const matched = new Set(people.matches.flatMap(({ ids }) => ids.map(String)));
	for (const drawn of run.drawn) {
		const { request } = drawn;
		const where = `${request.method} ${request.url}`;
		const connection = request.headers['x-service-credential-id'];
		if (connection !== 'cred-chaos') fail(`${where} carried X-Service-Credential-Id ${connection}`);
		const { host, api, segments } = segmentsOf(request.url);
		const sent = sentOf(drawn);
		if (host !== 'crm' || api !== 'api' || sent === undefined)
			fail(`${where}: ${people.operation} sends no such request`);
		if (sent === 'page' || sent === 'person') {
			if (request.body !== '') fail(`${where} carried a body: ${request.body.slice(0, 200)}`);
			if (sent === 'person' && people.operation !== 'find')
				fail(`${where}: Create or Update reads no person by ID`);
			if (sent === 'person' && !matched.has(segments[1]))
				fail(`${where}: no item matches this person`);
		} else writeAsGiven(run, drawn, sent!);
	}
}

/** The reads of the list: whether some read of each page reached the node, and how many failed. */
function scanOf(run: RunRecord): { complete: boolean; failedReads: number } {
	const { list } = run.scenario.people!;
	const pages = run.drawn.filter((drawn) => sentOf(drawn) === 'page');
	const seen = new Set<string>();
	for (const drawn of pages)
		if (TRAITS[drawn.fault].success !== false && !notRead(drawn) && drawn.expected)
			for (const record of (drawn.expected as IDataObject)[list.key] as IDataObject[])
				seen.add(String(record.id));
	return {
		complete: listRecords(list).every((record) => seen.has(String(record.id))),
		failedReads: pages.filter((drawn) => TRAITS[drawn.fault].success !== true || notRead(drawn))
			.length,
	};
}

/**
 * One scan per run: a page read whole is read again only after a failed read (the items that need
 * the list read it again from where the index stands, the start of the step that failed), and once
 * the list's last page was read nothing of it is read again.
 */
export function peopleReadOnce(run: RunRecord): void {
	const { list } = run.scenario.people!;
	const last = String(listRecords(list)[list.size - 1].id);
	const readAt = new Map<string, number>();
	let failedAt = -1;
	let endedAt: number | undefined;
	run.drawn.forEach((drawn, at) => {
		if (sentOf(drawn) !== 'page') return;
		const { url } = drawn.request;
		if (endedAt !== undefined)
			fail(`${url} was read after the whole list was (request ${endedAt + 1} ended it)`);
		if ((readAt.get(url) ?? -1) > failedAt)
			fail(`${url} was read again after a whole answer, with no failed read between`);
		if (TRAITS[drawn.fault].success !== true || notRead(drawn)) return void (failedAt = at);
		readAt.set(url, at);
		const records = (drawn.expected as IDataObject)[list.key] as IDataObject[];
		if (records.some((record) => String(record.id) === last)) endedAt = at;
	});
}

/** The output items of each input item, in input order; a run that stopped fails here. */
function outputsByItem(run: RunRecord): IDataObject[][] {
	const { result, items } = run;
	if (result.error) fail(`the run stopped: ${result.error.message}`);
	const outputs = items.map((): IDataObject[] => []);
	let previous = 0;
	for (const { json, pairedItem } of result.items) {
		const index = (pairedItem as { item?: number } | undefined)?.item;
		if (index === undefined || index < previous || index >= items.length)
			fail(`an output item is paired ${JSON.stringify(pairedItem)}, out of input order`);
		outputs[index!].push(json);
		previous = index!;
	}
	return outputs;
}

/** The GETs of a person, and the last: what the node must output for it. */
function personReads(run: RunRecord, id: unknown): Drawn[] {
	return run.drawn.filter(
		(drawn) =>
			sentOf(drawn) === 'person' && segmentsOf(drawn.request.url).segments[1] === String(id),
	);
}

const failed = (drawn: Drawn | undefined) =>
	drawn !== undefined && (TRAITS[drawn.fault].success !== true || notRead(drawn));

/** A whole answer that was a success: what the node must output for it. */
function answered(drawn: Drawn | undefined, what: string): IDataObject {
	if (!drawn) return fail(`${what} was never sent`);
	if (TRAITS[drawn.fault].success === false) fail(`${what} succeeded after "${drawn.fault}"`);
	return drawn.expected as IDataObject;
}

/** The request an error's description names (`GET crm <url>`), without its query. */
const namedIn = (details: unknown) =>
	String((details as IDataObject | undefined)?.description ?? '');
const pathOf = (url: string) => url.replace(/[?#].*$/, '');

/**
 * Whether an item's error is its own: a failed GET or write of its own (which the error names), or
 * the several matches or the Fail the Item the scenario calls for. Otherwise it must be a failed
 * read of the list, and name that request.
 */
function ownFailure(
	run: RunRecord,
	people: PeopleCase,
	index: number,
	error: IDataObject,
): boolean {
	const { ids, by, refusedBy } = matchesOf(run)[index];
	const text = String(error.error);
	const own =
		people.operation === 'find'
			? ids.flatMap((id) => personReads(run, id))
			: run.drawn.filter((drawn) => drawn.key === `item-${index}`);
	if (own.length > 0) {
		// Sent only once the list was read: the error is that of a request of its own.
		const lasts = ids.map((id) => personReads(run, id).pop()).filter(Boolean);
		const last = people.operation === 'find' ? (lasts.find(failed) ?? lasts.pop()) : own.pop();
		if (!failed(last) && !TIMED_OUT.test(text))
			fail(`item ${index} failed (${text}) though its requests were answered`);
		const request = `${last!.request.method} crm `;
		if (
			!namedIn(error.details).includes(request) ||
			!namedIn(error.details).endsWith(pathOf(last!.request.url))
		)
			fail(
				`item ${index}'s error names ${namedIn(error.details)}, not its ${last!.request.method} ${last!.request.url}`,
			);
		return true;
	}
	const several = `${ids.length} people match this ${by} (IDs ${ids.map(String).join(', ')})`;
	const none = `No person has this ${by} (item ${index})`;
	const unsure = `Not created or updated: the create of item ${refusedBy} with this ${by} (`;
	const expected =
		(people.operation === 'upsert' && ids.length > 1 && text.startsWith(several)) ||
		(people.failWhenNone && ids.length === 0 && text === none) ||
		(refusedBy !== undefined && text.startsWith(unsure));
	if (expected && !scanOf(run).complete)
		fail(`item ${index} failed (${text}) though the people list was never read whole`);
	if (expected) return true;
	if (refusedBy !== undefined)
		fail(`item ${index} failed (${text}), not for item ${refusedBy}'s create of unknown outcome`);
	if (!/GET crm \S*\/crm\/api\/people$/.test(namedIn(error.details)))
		fail(`item ${index} failed before any request of its own, not on a read of the list: ${text}`);
	// A give-up the faults explain (a 429's wait, the run stopped) needs no failed read to count against.
	return failedUnsent(run, text);
}

/** What a successful item must output: its matches as the GETs answered them, or its write's answer. */
function expectedOutput(run: RunRecord, people: PeopleCase, index: number): IDataObject[] {
	const { ids, refusedBy } = matchesOf(run)[index];
	if (people.operation === 'upsert') {
		if (ids.length > 1) fail(`item ${index} succeeded though ${ids.join(', ')} match it`);
		if (refusedBy !== undefined)
			fail(`item ${index} succeeded though item ${refusedBy}'s create has an unknown outcome`);
		const writes = run.drawn.filter((drawn) => drawn.key === `item-${index}`);
		const record = answered(writes.pop(), `item ${index}'s write`);
		return [{ ...record, isNew: ids.length === 0 }];
	}
	if (people.failWhenNone && ids.length === 0)
		fail(`item ${index} succeeded though nobody matches it and it must fail`);
	// A workflow gets the whole record, `original` too (a model calling the node as a tool gets less).
	const found = ids.map((id) => answered(personReads(run, id).pop(), `the GET of ${String(id)}`));
	return people.oneItem ? [{ people: found, count: found.length }] : found;
}

/** An item's write is one request, tried at most Max Attempts (3) times: never a second write. */
function oneWriteEach(run: RunRecord): void {
	run.items.forEach((_item, index) => {
		const writes = run.drawn.filter((drawn) => drawn.key === `item-${index}`);
		const targets = new Set(writes.map(({ request }) => `${request.method} ${request.url}`));
		if (targets.size > 1 || writes.length > 3)
			fail(`item ${index} wrote ${writes.length} times: ${[...targets].join(', ')}`);
	});
}

/**
 * Every input item accounted for: an error naming it, explained by a failure of its own, by what the
 * scenario calls for, or by a failed read of the list; or exactly what the answers say.
 */
export function peopleAccounted(run: RunRecord): void {
	const people = run.scenario.people!;
	oneWriteEach(run);
	const scan = scanOf(run);
	let failedByScan = 0;
	outputsByItem(run).forEach((jsons, index) => {
		const error = jsons.find(isError);
		if (error) {
			const text = String(error.error);
			if (jsons.length !== 1)
				fail(`item ${index} gave an error and ${jsons.length - 1} more items`);
			if (!text.endsWith(`(item ${index})`))
				fail(`item ${index}'s error does not name it: ${text}`);
			if (!ownFailure(run, people, index, error)) failedByScan++;
			return;
		}
		if (!scan.complete)
			fail(`item ${index} succeeded, though the people list was never read whole`);
		const expected = expectedOutput(run, people, index);
		if (!isDeepStrictEqual(jsons, expected))
			fail(
				`item ${index} output ${JSON.stringify(jsons).slice(0, 400)}, not ${JSON.stringify(expected).slice(0, 400)}`,
			);
	});
	if (failedByScan > scan.failedReads)
		fail(
			`${failedByScan} items failed without a failure of their own, and ${scan.failedReads} reads of the people list failed`,
		);
}
