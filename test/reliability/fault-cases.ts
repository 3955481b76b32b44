/**
 * The faults of the fault suites and the operations they hit. Whether a fault is retried depends only
 * on the HTTP method (decisions.md "Errors and retries"), so faults that cost real waiting time run
 * once per method; faults that cost none run against every write and read (both in
 * fault-injection.test.ts, checked with `expectFaultOutcome`).
 */
import type { INodeParameters } from 'n8n-workflow';

import { runNode, type RunResult } from '../harness/engine';
import { sandboxCredentials } from '../harness/fixtures';
import type { FaultSpec, HostName, RecordKind, Sandbox } from '../sandbox/server';
import { eventually, FAST, VALID, type Arrivals } from './helpers';

export const SEEDED_PEOPLE = 50;

export interface Operation {
	label: string;
	parameters: INodeParameters;
	method: 'GET' | 'POST' | 'PUT';
	match: { host: HostName; method: string; pathPrefix: string };
	/** What the sandbox counts for this operation: created records for POST, unchanged for GET and PUT. */
	kind: RecordKind;
	succeeded(result: RunResult): void;
}

/** An operation of VALID (helpers.ts), the requests it makes, and what it returns when it went through. */
function operation(
	label: string,
	valid: string,
	kind: RecordKind,
	match: Operation['match'],
	succeeded: (result: RunResult) => unknown,
): Operation {
	return {
		label,
		parameters: VALID[valid],
		method: match.method as Operation['method'],
		match,
		kind,
		succeeded: (result) => void succeeded(result),
	};
}

const ids = (result: RunResult, ...keys: string[]) =>
	result.items.map((item) =>
		keys.length === 1 ? item.json[keys[0]] : keys.map((key) => item.json[key]),
	);

const GET_PEOPLE = operation(
	'GET person getAll',
	'person.getAll',
	'people',
	{ host: 'crm', method: 'GET', pathPrefix: '/api/people' },
	(result) => expect(ids(result, 'id')).toEqual(['p_1', 'p_2', 'p_3', 'p_4', 'p_5']),
);
const CREATE_PERSON = operation(
	'POST person create',
	'person.create',
	'people',
	{ host: 'crm', method: 'POST', pathPrefix: '/api/people' },
	(result) => expect(ids(result, 'name')).toEqual(['Ada Lovelace']),
);
const UPDATE_BORROWER = operation(
	'PUT borrower update',
	'borrower.update',
	'borrowers',
	{ host: 'los', method: 'PUT', pathPrefix: '/api/borrowers/' },
	(result) => expect(ids(result, 'id', 'name')).toEqual([['b-1', 'Jane Roe']]),
);

/** One operation per HTTP method. */
export const ONE_PER_METHOD: Operation[] = [GET_PEOPLE, CREATE_PERSON, UPDATE_BORROWER];

/** Every operation that talks to a host with a body or a list: two POSTs, two PUTs and the GET. */
export const EVERY_OPERATION: Operation[] = [
	GET_PEOPLE,
	CREATE_PERSON,
	operation(
		'POST document create',
		'document.create',
		'documents',
		{ host: 'los', method: 'POST', pathPrefix: '/api/documents' },
		(result) => expect(ids(result, 'id')).toEqual(['doc_1']),
	),
	UPDATE_BORROWER,
	operation(
		'PUT webhook update',
		'webhook.update',
		'webhooks',
		{ host: 'calendar', method: 'PUT', pathPrefix: '/api/webhooks/' },
		(result) =>
			expect(ids(result, 'id', 'url')).toEqual([['w-1', 'https://hooks.example.test/changed']]),
	),
];

export interface FaultCase {
	label: string;
	fault: () => FaultSpec;
	/**
	 * 'every': retried on every method; 'idempotent': on GET and PUT only, a POST fails at once;
	 * 'read': on GET only (a 2xx is never a reason to send a write again), POST and PUT fail at once.
	 */
	retried: 'every' | 'idempotent' | 'read';
	/** The least time between the faulted attempt and the retry (Retry-After honoured). */
	minGapMs?: number;
	/** The retry comes no earlier than this epoch time (Retry-After as an HTTP date). */
	notBefore?: (fault: FaultSpec) => number;
	/** The error of a write that is not retried, and how many records a POST left at the service. */
	postError?: RegExp;
	postHttpCode?: string;
	postCreates?: 0 | 1;
	/** Request Options for this case over FAST's (its timings must hold on a loaded 2-core machine). */
	requestOptions?: object;
}

/**
 * Faults whose handling takes real time: a Retry-After, the 409 back-off, a timeout. They run side by
 * side, so a healthy answer can take more than a second on a loaded machine: the Timeout here is
 * generous, except where the timeout itself is the fault.
 */
const LOADED_TIMEOUT = { timeout: 600 };
export const WAITING_FAULTS: FaultCase[] = [
	{
		label: '429 with Retry-After: 1 (seconds)',
		requestOptions: LOADED_TIMEOUT,
		fault: () => ({ status: 429, retryAfter: '1' }),
		retried: 'every',
		minGapMs: 950,
	},
	{
		label: '429 with Retry-After as an HTTP date',
		requestOptions: LOADED_TIMEOUT,
		// Whole seconds, 0.3 to 1.3 s ahead; the retry must not come before it.
		fault: () => ({
			status: 429,
			retryAfter: new Date(Math.ceil((Date.now() + 300) / 1000) * 1000).toUTCString(),
		}),
		retried: 'every',
		notBefore: (fault) => Date.parse(fault.retryAfter!),
	},
	{
		label: '409 (data not ready yet)',
		requestOptions: LOADED_TIMEOUT,
		fault: () => ({ status: 409, body: '{"error":"initial sync in progress"}' }),
		retried: 'every',
	},
	{
		label: 'an answer slower than the timeout',
		// The retry of a GET or PUT must answer within the Timeout under load; the fault is well past it.
		fault: () => ({ delayMs: 7000 }),
		requestOptions: { timeout: 4 },
		retried: 'idempotent',
		postError: /^The service did not answer within 4 s \(timeout\) \(not sent twice/,
		postCreates: 1,
	},
];

/** Faults handled without waiting (the retry follows after FAST's 10 ms back-off). */
export const INSTANT_FAULTS: FaultCase[] = [
	{ label: '429 without Retry-After', fault: () => ({ status: 429 }), retried: 'every' },
	{
		label: '429 with Retry-After: 0 (seconds)',
		fault: () => ({ status: 429, retryAfter: '0' }),
		retried: 'every',
	},
	{
		label: '500',
		fault: () => ({ status: 500, body: '{"error":"database is down"}' }),
		retried: 'idempotent',
		postError:
			/^The service had an internal error \(HTTP 500\): database is down \(not sent twice: the service may already have processed it; check before running it again\) \(item 0\)$/,
		postHttpCode: '500',
		postCreates: 0,
	},
	{
		label: '503',
		fault: () => ({ status: 503 }),
		retried: 'idempotent',
		postError: /^The service had an internal error \(HTTP 503\): injected 503 \(not sent twice/,
		postHttpCode: '503',
		postCreates: 0,
	},
	{
		label: 'a dropped connection before processing',
		fault: () => ({ drop: true }),
		retried: 'idempotent',
		postError:
			/^Could not reach the service: the connection was closed before an answer came \(not sent twice/,
		postCreates: 0,
	},
	{
		label: 'a dropped connection after processing',
		fault: () => ({ drop: true, afterProcessing: true }),
		retried: 'idempotent',
		postError:
			/^Could not reach the service: the connection was closed before an answer came \(not sent twice/,
		postCreates: 1,
	},
	{
		label: 'a truncated JSON body',
		fault: () => ({ malformed: true, afterProcessing: true }),
		retried: 'read',
		postError:
			/^The service answered HTTP 200, so it processed the request, but its answer is not valid JSON \(truncated or garbled\); it is not sent again: \{"_metadata".* \(item 0\)$/,
		postHttpCode: '200',
		postCreates: 1,
	},
	{
		label: 'an HTML error page (502 from a proxy)',
		fault: () => ({ html: true }),
		retried: 'idempotent',
		postError:
			/^The service had an internal error \(HTTP 502\): an HTML page titled "502 Bad Gateway": upstream unavailable \(not sent twice/,
		postHttpCode: '502',
		postCreates: 0,
	},
	{
		label: 'an HTML page with status 200',
		fault: () => ({ html: true, status: 200, afterProcessing: true }),
		retried: 'read',
		postError:
			/^The service answered HTTP 200 with an HTML page titled "200 OK": upstream unavailable, not JSON \(not sent twice/,
		postHttpCode: '200',
		postCreates: 1,
	},
];

export interface RunFaultOptions {
	items?: object[];
	onError?: 'continueRegularOutput' | 'continueErrorOutput';
	requestOptions?: object;
}

/** Runs the node on this sandbox with FAST retry settings (overridable per run). */
export async function runOn(
	sandbox: Sandbox,
	parameters: INodeParameters,
	options: RunFaultOptions = {},
): Promise<RunResult> {
	return await runNode({
		parameters: { ...parameters, requestOptions: { ...FAST, ...options.requestOptions } },
		credentials: sandboxCredentials(sandbox),
		items: options.items as never,
		onError: options.onError,
	});
}

/** Injects the fault for the operation, runs it and checks what went over the wire and what came out. */
export async function expectFaultOutcome(
	sandbox: Sandbox,
	arrivals: Arrivals,
	fault: FaultCase,
	operation: Operation,
): Promise<void> {
	const before = sandbox.count(operation.kind);
	// Made when the first request arrives, so an HTTP-date Retry-After is ahead of it however late it comes.
	let spec: FaultSpec = {};
	arrivals.onArrival = (_request, position) => {
		if (position !== 1) return;
		spec = fault.fault();
		sandbox.inject({ ...spec, match: operation.match });
	};
	const result = await runOn(sandbox, operation.parameters, {
		requestOptions: fault.requestOptions,
	});

	const retried =
		fault.retried === 'every' ||
		operation.method === 'GET' ||
		(fault.retried === 'idempotent' && operation.method === 'PUT');
	if (retried) {
		// Retried once, with the identical request, and then it went through.
		expect(result.error).toBeUndefined();
		operation.succeeded(result);
		expect(sandbox.requests).toHaveLength(2);
		const [first, second] = sandbox.requests;
		expect(first.fault).toBeDefined();
		expect(second.fault).toBeUndefined();
		expect(second.status).toBeGreaterThanOrEqual(200);
		expect(second.status).toBeLessThan(300);
		expect([second.method, second.url, second.rawBody]).toEqual([
			first.method,
			first.url,
			first.rawBody,
		]);
		if (fault.minGapMs !== undefined) {
			expect(arrivals.at(second) - arrivals.at(first)).toBeGreaterThanOrEqual(fault.minGapMs);
		}
		if (fault.notBefore !== undefined) {
			expect(arrivals.at(second)).toBeGreaterThanOrEqual(fault.notBefore(spec) - 5);
			expect(arrivals.at(second) - arrivals.at(first)).toBeGreaterThanOrEqual(250);
		}
		// A retry never adds a record: POST creates once, GET and PUT create nothing.
		expect(sandbox.count(operation.kind)).toBe(before + (operation.method === 'POST' ? 1 : 0));
	} else {
		// A write that may have reached the service is never sent twice. On a busy machine the one request
		// may reach the sandbox only after the node gave up: wait for it, then count.
		await eventually(() => sandbox.requests.length >= 1, 10_000);
		expect(sandbox.requests).toHaveLength(1);
		expect(result.items).toHaveLength(0);
		expect(result.error?.message).toMatch(fault.postError!);
		expect(result.error?.message).toMatch(/\(item 0\)$/);
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.httpCode ?? null).toBe(fault.postHttpCode ?? null);
		// A delayed POST lands after the node gave up; a PUT creates nothing.
		const created = operation.method === 'POST' ? fault.postCreates! : 0;
		await eventually(() => sandbox.count(operation.kind) === before + created, 10_000);
		expect(sandbox.count(operation.kind)).toBe(before + created);
		expect(sandbox.requests).toHaveLength(1);
	}
}
