/**
 * The promises checked after every chaos run, whatever the faults were. Each check throws an Error
 * that says what broke; the runner adds the seed and the faults drawn.
 */
import { isDeepStrictEqual } from 'util';

import type { IDataObject } from 'n8n-workflow';

import type { RunResult } from '../harness/engine';
import { TRAITS } from './faults';
import type { Scenario } from './scenarios';
import { noSecret } from './secrets';
import { listRecords, type Drawn } from './service';

export const TIMEOUT_S = 1;
export const MAX_TOTAL_WAIT_S = 5;
/** How much later than its deadline an attempt may let go of its connection on a loaded 2-core machine. */
export const LATE_MS = 1500;
/** A run of a few items or pages, each at most 3 attempts of 1 s and 5 s of waits, ends well within this. */
export const RUN_BUDGET_MS = 25_000;

/** What one run of the node did, and what reached the service. */
export interface RunRecord {
	scenario: Scenario;
	items: IDataObject[];
	drawn: Drawn[];
	result: RunResult;
	ms: number;
	foreignRequests: number;
	openConnections: number;
}

const fail = (message: string): never => {
	throw new Error(message);
};

const isError = (json: IDataObject) => typeof json.error === 'string';
const withoutOriginal = ({ original: _original, ...rest }: IDataObject) => rest;

/** The attempts of each request (an item's, or a page's URL), in the order they reached the service. */
function attemptsByKey(drawn: Drawn[]): Map<string, Drawn[]> {
	const byKey = new Map<string, Drawn[]>();
	for (const entry of drawn) byKey.set(entry.key, [...(byKey.get(entry.key) ?? []), entry]);
	return byKey;
}

/** The other origin received nothing; every request went to the scenario's host. */
function nothingElsewhere(run: RunRecord): void {
	if (run.foreignRequests > 0) fail(`the other origin received ${run.foreignRequests} requests`);
	for (const { request } of run.drawn) {
		if (!request.url.startsWith(`/${run.scenario.host}/api/`))
			fail(`${request.method} ${request.url} went to another host than ${run.scenario.host}`);
	}
}

/** No attempt past its deadline, no wait past the budget, nothing left open. */
function withinDeadlines(run: RunRecord): void {
	if (run.openConnections > 0) fail(`${run.openConnections} connections were left open`);
	if (run.ms > RUN_BUDGET_MS) fail(`the run took ${run.ms} ms (budget ${RUN_BUDGET_MS} ms)`);
	for (const { request, fault } of run.drawn) {
		const held = (request.closedAt ?? Infinity) - request.readAt;
		if (held > TIMEOUT_S * 1000 + LATE_MS)
			fail(`a "${fault}" attempt held its connection ${held} ms (Timeout ${TIMEOUT_S} s)`);
	}
	for (const [key, attempts] of attemptsByKey(run.drawn)) {
		let waited = 0;
		for (let i = 1; i < attempts.length; i++)
			waited += attempts[i].request.readAt - (attempts[i - 1].request.closedAt ?? Infinity);
		if (waited > MAX_TOTAL_WAIT_S * 1000 + LATE_MS * (attempts.length - 1))
			fail(
				`${key} waited ${waited} ms between attempts (Max Total Retry Wait ${MAX_TOTAL_WAIT_S} s)`,
			);
	}
}

/**
 * The client gave up on the answer: it reset the connection with the answer unread, or held it until
 * its deadline. On a loaded machine an attempt's deadline can pass before even a healthy answer is
 * read (its clock starts before the request is sent); the client then rightly calls it a timeout,
 * and may send a PUT or a GET again.
 */
const notRead = ({ request, unread }: Drawn) =>
	unread === true || (request.closedAt ?? Infinity) - request.readAt >= TIMEOUT_S * 1000 - 100;
const TIMED_OUT = /within \d+ s \(timeout\)/;

/** No write sent twice: nothing after a whole answer; no POST, PATCH or DELETE after one that may have been processed. */
function sentOnce(run: RunRecord): void {
	for (const [key, attempts] of attemptsByKey(run.drawn)) {
		attempts.slice(0, -1).forEach((attempt) => {
			const { request, fault } = attempt;
			if (TRAITS[fault].final && !notRead(attempt))
				fail(`${key} was sent again after a whole answer ("${fault}")`);
			if (
				['POST', 'PATCH', 'DELETE'].includes(request.method) &&
				TRAITS[fault].mayHaveBeenProcessed
			)
				fail(`${key} (${request.method}) was sent again after "${fault}"`);
		});
	}
}

/** Each request names the path the item gave, one segment per value, and carries exactly the item's body. */
function sentAsGiven(run: RunRecord): void {
	const { scenario } = run;
	for (const { request, key } of run.drawn) {
		const [, host, api, ...segments] = new URL(request.url, 'http://x').pathname
			.split('/')
			.map((part) => decodeURIComponent(part));
		const where = `${request.method} ${request.url}`;
		if (request.method !== scenario.method) fail(`${where}: the scenario sends ${scenario.method}`);
		const connection = request.headers['x-service-credential-id'];
		if (connection !== (host === 'universal' ? undefined : 'cred-chaos'))
			fail(`${where} carried X-Service-Credential-Id ${connection}`);
		if (scenario.list) {
			if (api !== 'api' || !isDeepStrictEqual(segments, [scenario.list.path]))
				fail(`${where} is not a page of ${scenario.list.path}`);
			continue;
		}
		const item = run.items[Number(key.slice('item-'.length))];
		if (!item) fail(`${where} belongs to no item`);
		const expected = scenario.sends!(item);
		if (!isDeepStrictEqual(segments, expected.path))
			fail(`${where} names ${JSON.stringify(segments)}, not ${JSON.stringify(expected.path)}`);
		if (expected.body === undefined) {
			if (request.body !== '') fail(`${where} carried a body: ${request.body.slice(0, 200)}`);
		} else if (!isDeepStrictEqual(safeParse(request.body), expected.body)) {
			fail(`${where} carried ${request.body.slice(0, 300)}, not ${JSON.stringify(expected.body)}`);
		}
	}
}

function safeParse(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

/** What the node must output for a successful answer: the record, without `original` unless Simplify is off. */
function outputOf(scenario: Scenario, expected: unknown): IDataObject[] {
	const body = expected as IDataObject;
	if (scenario.shape === 'writes') return [body];
	if (scenario.shape === 'records') return [withoutOriginal(body)];
	if (scenario.pagesOut) return [body];
	return (body[scenario.list!.key] as IDataObject[]).map(withoutOriginal);
}

/** One output or error item per input item, paired; a success exactly when its last answer was one, equal to it. */
function eachItemAccounted(run: RunRecord): void {
	const { result, items, scenario } = run;
	const paired = result.items.map((item) => JSON.stringify(item.pairedItem));
	const expected = items.map((_item, index) => JSON.stringify({ item: index }));
	if (!isDeepStrictEqual(paired, expected)) {
		const extra = result.items.find((item, index) => paired[index] !== expected[index]);
		fail(
			`not one output item per input item: paired ${paired.join(' ')}; the first out of place is ${JSON.stringify(extra?.json).slice(0, 200)}`,
		);
	}
	const byKey = attemptsByKey(run.drawn);
	result.items.forEach(({ json }, index) => {
		const attempts = byKey.get(`item-${index}`) ?? [];
		const last = attempts[attempts.length - 1];
		if (isError(json) && !String(json.error).endsWith(`(item ${index})`))
			fail(`item ${index}'s error does not name it: ${String(json.error)}`);
		// An attempt the service never read whole (a deadline before it got there) is no success either.
		if (!last) {
			if (!isError(json))
				fail(`item ${index} was never sent, yet succeeded: ${JSON.stringify(json)}`);
			return;
		}
		// The client's deadline passing is its own verdict: on a loaded machine even before a healthy answer is read.
		const timedOut = isError(json) && TIMED_OUT.test(String(json.error));
		const { success } = TRAITS[last.fault];
		if (success !== 'either' && success === isError(json) && !timedOut)
			fail(
				`item ${index} ${isError(json) ? `failed (${String(json.error)})` : 'succeeded'} after "${last.fault}"`,
			);
		if (isError(json)) return;
		const output = scenario.output
			? scenario.output(items[index], last.expected)
			: outputOf(scenario, last.expected)[0];
		if (!isDeepStrictEqual(json, output))
			fail(`item ${index}'s output ${JSON.stringify(json)} is not what the service sent`);
	});
}

/** Each output record (or page) equal to one the service sent in this run, and none twice. */
export function checkRecords(run: RunRecord, records: IDataObject[]): unknown[] {
	const { scenario } = run;
	const served = run.drawn.filter(({ fault }) => TRAITS[fault].success);
	const versions = served.flatMap(({ expected }) => outputOf(scenario, expected));
	for (const record of records)
		if (!versions.some((version) => isDeepStrictEqual(record, version)))
			fail(
				`an output record is not what the service sent: ${JSON.stringify(record).slice(0, 300)}`,
			);
	const ids = (
		scenario.pagesOut
			? records.flatMap((page) => page[scenario.list!.key] as IDataObject[])
			: records
	).map((record) => record.id);
	if (new Set(ids).size !== ids.length) fail(`a record is output twice: ${ids.join(',')}`);
	return ids;
}

/** The records put together are the start of the list, in order, and at least `atLeast` of them. */
export function checkOrder(scenario: Scenario, ids: unknown[], atLeast: number): void {
	const list = listRecords(scenario.list!).map((record) => record.id);
	if (!isDeepStrictEqual(ids, list.slice(0, ids.length)) || ids.length < atLeast)
		fail(
			`the records output are ${ids.join(',')}, not ${list.slice(0, Math.max(atLeast, ids.length)).join(',')}`,
		);
}

/** A list's one input item: all its records, paired to it, or one error item; an error only after a failed answer. */
function listAccounted(run: RunRecord): IDataObject | undefined {
	const { items } = run.result;
	if (items.some((item) => JSON.stringify(item.pairedItem) !== '{"item":0}'))
		fail('an output item is not paired with the one input item');
	const lasts = [...attemptsByKey(run.drawn).values()].map(
		(attempts) => attempts[attempts.length - 1],
	);
	const failedAnswer = lasts.find(({ fault }) => TRAITS[fault].success === false);
	const mayFail = lasts.some(({ fault }) => TRAITS[fault].success === 'either');
	const failed = items.find((item) => isError(item.json));
	if (failed) {
		if (items.length !== 1) fail(`a failed list gave ${items.length} items`);
		if (!String(failed.json.error).endsWith('(item 0)'))
			fail(`the error does not name its item: ${String(failed.json.error)}`);
		const timedOut = TIMED_OUT.test(String(failed.json.error));
		if (!failedAnswer && !timedOut && !mayFail)
			fail(`the list failed though every page was answered: ${String(failed.json.error)}`);
		return undefined;
	}
	if (failedAnswer)
		fail(`the list succeeded though ${failedAnswer.key} ended with "${failedAnswer.fault}"`);
	if (run.scenario.shape === 'batches') {
		if (items.length !== 1) fail(`a batch gave ${items.length} items`);
		return items[0].json;
	}
	const ids = checkRecords(
		run,
		items.map((item) => item.json),
	);
	checkOrder(run.scenario, ids, run.scenario.limit ?? run.scenario.list!.size);
	if (!run.scenario.pagesOut && ids.length !== (run.scenario.limit ?? ids.length))
		fail(`a Limit of ${run.scenario.limit} gave ${ids.length} records`);
	return undefined;
}

/** Every invariant of one run; a batch run gives back its batch item for the loop's checks. */
export function checkRun(run: RunRecord): IDataObject | undefined {
	const broken: string[] = [];
	const check = <T>(invariant: () => T): T | undefined => {
		try {
			return invariant();
		} catch (error) {
			broken.push((error as Error).message);
			return undefined;
		}
	};
	check(() => nothingElsewhere(run));
	check(() => withinDeadlines(run));
	const { secrets } = run.scenario;
	check(() => noSecret(run.drawn, run.result, secrets ? run.items.flatMap(secrets) : []));
	check(() => sentOnce(run));
	check(() => sentAsGiven(run));
	const { shape, batchKey } = run.scenario;
	const batch =
		shape === 'writes' || shape === 'records'
			? void check(() => eachItemAccounted(run))
			: check(() => listAccounted(run));
	if (batch) {
		const records = batch[batchKey!] as IDataObject[];
		if (batch.count !== records.length || batch.done !== (batch.nextCursor === ''))
			broken.push(
				`the batch's count, done and nextCursor disagree: ${JSON.stringify({ ...batch, [batchKey!]: undefined })}`,
			);
		check(() => checkRecords(run, records));
	}
	if (broken.length > 0) throw new Error(broken.map((message) => `\n  - ${message}`).join(''));
	return batch ?? undefined;
}
