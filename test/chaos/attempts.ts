/**
 * What every invariant reads of a chaos run: the run's record, its attempts grouped by the request
 * they repeat, and the bounds and words that tell a give-up from a wrong scenario.
 */
import type { IDataObject } from 'n8n-workflow';

import type { RunResult } from '../harness/engine';
import type { Scenario } from './scenarios';
import type { Drawn } from './service';

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

export const fail = (message: string): never => {
	throw new Error(message);
};

export const isError = (json: IDataObject) => typeof json.error === 'string';
export const withoutOriginal = ({ original: _original, ...rest }: IDataObject) => rest;

/** The attempts of each request (an item's, or a page's URL), in the order they reached the service. */
export function attemptsByKey(drawn: Drawn[]): Map<string, Drawn[]> {
	const byKey = new Map<string, Drawn[]>();
	for (const entry of drawn) byKey.set(entry.key, [...(byKey.get(entry.key) ?? []), entry]);
	return byKey;
}

/**
 * The client gave up on the answer: it reset the connection with the answer unread, or held it until
 * its deadline. On a loaded machine an attempt's deadline can pass before even a healthy answer is
 * read (its clock starts before the request is sent); the client then rightly calls it a timeout,
 * and may send a PUT or a GET again.
 */
export const notRead = ({ request, unread }: Drawn) =>
	unread === true || (request.closedAt ?? Infinity) - request.readAt >= TIMEOUT_S * 1000 - 100;
export const TIMED_OUT = /within \d+ s \(timeout\)/;

export function safeParse(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

/** The path under /api a request names, one decoded value per segment, and its host. */
export function segmentsOf(url: string): { host: string; api: string; segments: string[] } {
	const [, host, api, ...segments] = new URL(url, 'http://x').pathname
		.split('/')
		.map((part) => decodeURIComponent(part));
	return { host, api, segments };
}

/**
 * Why an item may fail before it sent anything, when the faults explain it: the tenant's pause or
 * the wait budget after a 429, the item's deadline, the run stopped at its budget. Anything else (an
 * input or parameter error) means the scenario gives the operation wrong input, and its run checks
 * nothing.
 */
export function failedUnsent(run: RunRecord, error: string): boolean {
	const limited = run.drawn.some(({ fault }) => fault === '429' || fault === 'far Retry-After');
	if (limited && /Rate limited by the service \(HTTP 429\)|Max Total Retry Wait/.test(error))
		return true;
	if (/the execution was stopped/.test(error))
		return run.ms >= (run.scenario.budgetMs ?? RUN_BUDGET_MS);
	return / has passed| would pass /.test(error);
}

/** An item that failed without a request of its own, in a run of writes or records. */
export function unsentFailure(run: RunRecord, index: number, error: string): void {
	if (!failedUnsent(run, error))
		fail(
			`item ${index} failed before anything was sent, and no fault explains it (the scenario gives it wrong input?): ${error}`,
		);
}
