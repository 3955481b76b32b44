/**
 * Runs a chaos scenario through n8n's engine in both credential modes for every seed, checks every
 * invariant after every run, and names the seed, the run and the faults drawn in a failure.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness/engine';
import { mulberry32 } from '../sandbox/seed';
import {
	checkOrder,
	checkRun,
	MAX_TOTAL_WAIT_S,
	RUN_BUDGET_MS,
	TIMEOUT_S,
	type RunRecord,
} from './invariants';
import { kindOf, type Scenario } from './scenarios';
import { ChaosService, listRecords, type AuthMode, type Serving } from './service';

const REQUEST_OPTIONS = {
	maxAttempts: 3,
	initialRetryDelay: 5,
	maxTotalWait: MAX_TOTAL_WAIT_S,
	timeout: TIMEOUT_S,
	maxRequestsPerSecond: 0,
	concurrency: 4,
};
/** A loop of batches re-runs a failed batch with the same cursor at most this often. */
const MAX_FAILED_BATCHES = 3;

export function seedsFromEnv(): number[] {
	const spec = process.env.CHAOS_SEEDS ?? '1,2,3';
	return spec.split(',').flatMap((part) => {
		const [from, to] = part.split('-').map(Number);
		return to === undefined
			? [from]
			: Array.from({ length: to - from + 1 }, (_v, index) => from + index);
	});
}

interface Test {
	chaos: ChaosService;
	scenario: Scenario;
	seed: number;
	mode: AuthMode;
	/** One n8n credential for every run of the test: one tenant, as a workflow's loop would be. */
	credentialId: string;
	random: () => number;
}

/** A broken invariant, with what replays it: the seed, the run, every fault drawn and the output. */
function replayable(test: Test, run: RunRecord | undefined, what: string, error: unknown): Error {
	const faults = (run?.drawn ?? [])
		.map(({ request, fault }) => `  ${request.method} ${request.url}: ${fault}`)
		.join('\n');
	const output = run
		? JSON.stringify(run.result.items.map((item) => item.json)).slice(0, 1500)
		: '';
	return new Error(
		`seed ${test.seed} (${test.mode}, ${test.scenario.label}${what}): ${(error as Error).message}\n` +
			`replay: CHAOS_SEEDS=${test.seed} npx jest test/chaos -t '${test.mode}.*${test.scenario.label}'\n` +
			`faults drawn:\n${faults}\noutput: ${output}`,
	);
}

/**
 * After a far Retry-After: the tenant's next run, a Custom API Call GET answered healthy, still
 * reaches the service. A give-up must not outlive its run.
 */
async function tenantFree(test: Test): Promise<void> {
	const { chaos, scenario, mode, credentialId } = test;
	chaos.reset();
	chaos.serveHealthy();
	const result = await runNode({
		parameters: {
			resource: 'customApiCall',
			operation: 'send',
			host: scenario.host,
			method: 'GET',
			path: 'probe',
			requestOptions: REQUEST_OPTIONS,
		},
		credentials: chaos.credentials(mode),
		credentialId,
		onError: 'continueRegularOutput',
	});
	const sent = chaos.service.requests.length;
	const output = result.items[0]?.json;
	if (sent !== 1 || output?.ok !== true)
		throw new Error(
			`a far Retry-After outlived its run: the tenant's next run sent ${sent} requests and output ${JSON.stringify(output)}`,
		);
}

/**
 * What the service serves the scenario: its kind, list and profile, and which item a request is for
 * where the item's ID alone names it (a numeric ID or a UUID in the path; a text ID holds `item-N`).
 */
function servingOf(scenario: Scenario, items: IDataObject[]): Serving {
	const serving: Serving = {
		kind: kindOf(scenario),
		list: scenario.list,
		profile: scenario.profile,
		people: scenario.people?.list,
	};
	const { sends } = scenario;
	if (!sends) return serving;
	const paths = items.map((item) => JSON.stringify(sends(item).path));
	serving.keyOf = (request) => {
		const segments = new URL(request.url, 'http://x').pathname.split('/').slice(3);
		const path = JSON.stringify(segments.map((segment) => decodeURIComponent(segment)));
		const at = paths.indexOf(path);
		return at >= 0 && paths.lastIndexOf(path) === at ? `item-${at}` : undefined;
	};
	return serving;
}

/** One run of the node, checked; a batch run gives back its batch item. */
async function runOnce(
	test: Test,
	items: IDataObject[],
	extra: INodeParameters = {},
	what = '',
): Promise<IDataObject | undefined> {
	const { chaos, scenario } = test;
	chaos.reset();
	chaos.serve(servingOf(scenario, items), test.random);
	const started = Date.now();
	const result = await runNode({
		parameters: { ...scenario.parameters, ...extra, requestOptions: REQUEST_OPTIONS },
		credentials: chaos.credentials(test.mode),
		credentialId: test.credentialId,
		items,
		onError: 'continueRegularOutput',
		// Stop Execution a little after the budget, so a run that would wait for ever fails here instead.
		cancelAfterMs: (scenario.budgetMs ?? RUN_BUDGET_MS) + 5000,
	});
	const ms = Date.now() - started;
	await chaos.settled();
	const run: RunRecord = {
		scenario,
		items,
		drawn: [...chaos.drawn],
		result,
		ms,
		foreignRequests: chaos.foreign.requests.length,
		openConnections: chaos.service.openConnections(),
	};
	const broken: string[] = [];
	let batch: IDataObject | undefined;
	try {
		batch = checkRun(run);
	} catch (error) {
		broken.push((error as Error).message);
	}
	try {
		if (run.drawn.some(({ fault }) => fault === 'far Retry-After')) await tenantFree(test);
	} catch (error) {
		broken.push(`\n  - ${(error as Error).message}`);
	}
	if (broken.length > 0) throw replayable(test, run, what, new Error(broken.join('')));
	return batch;
}

/** Page at a Time as a workflow loops it: each nextCursor until done, a failed batch again with its cursor. */
async function loopBatches(test: Test): Promise<void> {
	const { scenario } = test;
	const size = listRecords(scenario.list!).length;
	const maxBatches = Math.ceil(size / scenario.limit!) + MAX_FAILED_BATCHES + 1;
	const ids: unknown[] = [];
	let cursor = '';
	let failures = 0;
	let done = false;
	for (let batch = 1; !done && failures <= MAX_FAILED_BATCHES; batch++) {
		if (batch > maxBatches)
			throw replayable(
				test,
				undefined,
				'',
				new Error(`the list did not end in ${maxBatches} batches`),
			);
		const item = await runOnce(test, [{}], { cursor }, `, batch ${batch}`);
		if (!item) {
			failures++;
			continue;
		}
		ids.push(...(item[scenario.batchKey!] as IDataObject[]).map((record) => record.id));
		done = item.done === true;
		cursor = String(item.nextCursor);
	}
	try {
		if (new Set(ids).size !== ids.length)
			throw new Error(`a record came in two batches: ${ids.join(',')}`);
		checkOrder(scenario, ids, done ? size : 0);
	} catch (error) {
		throw replayable(test, undefined, ', the batches put together', error);
	}
}

/** At most `limit` tasks at once; the rest wait their turn. */
function limiter(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
	let running = 0;
	const waiting: Array<() => void> = [];
	return async (task) => {
		// A finished task hands its slot to the next waiting one.
		if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
		else running++;
		try {
			return await task();
		} finally {
			const next = waiting.shift();
			if (next) next();
			else running--;
		}
	};
}

/** The runs of CHAOS_CONCURRENCY tests (3 by default) of a test file at once. */
const atOnce = limiter(Number(process.env.CHAOS_CONCURRENCY ?? 3));

export interface ChaosOptions {
	/** The credential modes each scenario runs in (both when not given). */
	modes?: readonly AuthMode[];
	/** The scenarios run once healthy before the tests (all when not given). */
	warmUp?: readonly Scenario[];
}

/**
 * The chaos suite of some scenarios: each in both credential modes (or `modes`) for every seed. The
 * runs of CHAOS_CONCURRENCY tests overlap, each against its own service: most of a chaos run is
 * waiting on a deadline or a backoff, not computing.
 */
export function describeChaos(
	scenarios: Scenario[],
	salt: number,
	seeds = seedsFromEnv(),
	options: ChaosOptions = {},
): void {
	const modes = options.modes ?? (['accessToken', 'clientCredentials'] as const);
	// The first runs of a worker load n8n, the package and each operation's code: not inside a run
	// whose Timeout is 1 s. Each scenario runs once, every answer healthy, unchecked.
	beforeAll(async () => {
		const chaos = new ChaosService();
		await chaos.start();
		try {
			for (const mode of modes)
				for (const scenario of options.warmUp ?? scenarios) {
					const items = scenario.items?.(mulberry32(0)) ?? [{}];
					chaos.reset();
					chaos.serve(servingOf(scenario, items), () => 0);
					await runNode({
						parameters: { ...scenario.parameters, requestOptions: REQUEST_OPTIONS },
						credentials: chaos.credentials(mode),
						items,
						onError: 'continueRegularOutput',
					});
				}
		} finally {
			await chaos.close();
		}
	}, 600_000);
	describe.each([...modes])('chaos, %s', (mode) => {
		describe.each(scenarios.map((scenario, index) => [scenario.label, scenario, index] as const))(
			'%s',
			(_label, scenario, index) => {
				test.concurrent.each(seeds)(
					'seed %i: every invariant holds',
					async (seed) =>
						await atOnce(async () => {
							const chaos = new ChaosService();
							await chaos.start();
							const random = mulberry32(
								seed * 1000 + (salt + index) * 10 + (mode === 'accessToken' ? 0 : 1),
							);
							const credentialId = `chaos-${mode}-${salt + index}-${seed}`;
							const test = { chaos, scenario, seed, mode, credentialId, random };
							try {
								if (scenario.shape === 'batches') await loopBatches(test);
								else await runOnce(test, scenario.items?.(random) ?? [{}]);
							} finally {
								await chaos.close();
							}
						}),
					600_000,
				);
			},
		);
	});
}

/** The two fixed seeds of describeProfileChaos, each with its credential mode. */
const PROFILE_SEEDS: ReadonlyArray<readonly [number, AuthMode]> = [
	[1, 'accessToken'],
	[2, 'clientCredentials'],
];

/**
 * Many scenarios (every catalogue operation in one profile), each run once: every other one with
 * seed 1 in access-token mode, the rest with seed 2 with a client ID and secret; `shift` (the
 * profile's number) swaps the halves, so over the three profiles each operation meets both seeds
 * and both modes. Each mode's warm-up runs one scenario of each kind (a write, a record, a page),
 * not all: the first runs load the code every operation shares; and every people scenario (Find,
 * Create or Update), whose code no other operation loads.
 */
export function describeProfileChaos(scenarios: Scenario[], salt: number, shift: number): void {
	const kinds = new Set<string>();
	const warmUp = scenarios.filter((scenario) => {
		const kind = scenario.people ? scenario.label : kindOf(scenario);
		const first = !kinds.has(kind);
		kinds.add(kind);
		return first;
	});
	PROFILE_SEEDS.forEach(([seed, mode], half) =>
		describeChaos(
			scenarios.filter((_scenario, index) => (index + shift) % 2 === half),
			salt,
			[seed],
			{ modes: [mode], warmUp },
		),
	);
}
