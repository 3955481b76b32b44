/**
 * The promises checked after every chaos run, whatever the faults were. Each check throws an Error
 * that says what broke; the runner adds the seed and the faults drawn.
 */
import { isDeepStrictEqual } from 'util';

import type { IDataObject } from 'n8n-workflow';

import {
	attemptsByKey,
	fail,
	isError,
	LATE_MS,
	MAX_TOTAL_WAIT_S,
	notRead,
	RUN_BUDGET_MS,
	safeParse,
	segmentsOf,
	TIMED_OUT,
	TIMEOUT_S,
	unsentFailure,
	withoutOriginal,
	type RunRecord,
} from './attempts';
import { TRAITS } from './faults';
import { peopleAccounted, peopleReadOnce, peopleSentAsGiven } from './people-checks';
import type { Scenario } from './scenarios';
import { noSecret } from './secrets';
import { listRecords } from './service';

export { MAX_TOTAL_WAIT_S, RUN_BUDGET_MS, TIMEOUT_S, type RunRecord } from './attempts';

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
	const budget = run.scenario.budgetMs ?? RUN_BUDGET_MS;
	if (run.ms > budget) fail(`the run took ${run.ms} ms (budget ${budget} ms)`);
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
 * No write sent twice: nothing after a whole answer; no POST, PATCH or DELETE after one that may have
 * been processed. The people list's pages are read again only after a failed read (peopleReadOnce).
 */
function sentOnce(run: RunRecord): void {
	const people = run.scenario.shape === 'people';
	for (const [key, attempts] of attemptsByKey(run.drawn)) {
		attempts.slice(0, -1).forEach((attempt) => {
			const { request, fault } = attempt;
			const page =
				people && request.method === 'GET' && segmentsOf(request.url).segments.length === 1;
			if (TRAITS[fault].final && !notRead(attempt) && !page)
				fail(`${key} was sent again after a whole answer ("${fault}")`);
			if (
				['POST', 'PATCH', 'DELETE'].includes(request.method) &&
				TRAITS[fault].mayHaveBeenProcessed
			)
				fail(`${key} (${request.method}) was sent again after "${fault}"`);
		});
	}
	if (people) peopleReadOnce(run);
}

/** Each request names the path the item gave, one segment per value, and carries exactly the item's body. */
function sentAsGiven(run: RunRecord): void {
	const { scenario } = run;
	if (scenario.people) return peopleSentAsGiven(run);
	for (const { request, key } of run.drawn) {
		const { host, api, segments } = segmentsOf(request.url);
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
			return unsentFailure(run, index, String(json.error));
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
		shape === 'people'
			? void check(() => peopleAccounted(run))
			: shape === 'writes' || shape === 'records'
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
