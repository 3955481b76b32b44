/**
 * The physical reference: one raw HTTP loop (bench/raw.ts) in a fresh process, so that its peak RSS
 * is its own: warm up,
 * reset the sandbox, collect garbage, then time one run and report it as `BENCH_RESULT {json}`.
 *
 *   node --expose-gc build/bench/worker.js '<task json>'
 */
import type { SandboxInfo, WorkerResult } from './common';
import { control, RESULT_PREFIX } from './common';
import { rawClient, rawCreate, rawList } from './raw';

export type Side = 'raw' | 'rawNoKeepAlive';

export interface Task {
	name: string;
	kind: 'list' | 'create';
	side: Side;
	info: SandboxInfo;
	/** Creates: how many people, and how many requests in flight. */
	count?: number;
	concurrency?: number;
}

interface Outcome {
	items: number;
	errorItems: number;
	records?: unknown[];
}

function createInputs(count: number, tag: string): Array<{ first: string; last: string }> {
	return Array.from({ length: count }, (_, i) => ({
		first: `Bench${tag}${i}`,
		last: `Person${i}`,
	}));
}

/** Builds the function that performs the task once; `warm` is a smaller version for the warm-up. */
async function prepare(task: Task): Promise<(warm: boolean) => Promise<Outcome>> {
	const { info } = task;
	const client = rawClient(info, task.side === 'raw');
	return async (warm) => {
		if (task.kind === 'list') {
			const people = await rawList(client, info, 100, warm ? 500 : Infinity);
			return { items: people.length, errorItems: 0, records: people };
		}
		const inputs = createInputs(warm ? 50 : (task.count ?? 0), warm ? 'Warm' : '');
		const created = await rawCreate(client, info, inputs, task.concurrency ?? 1);
		return { items: created.length, errorItems: 0 };
	};
}

function collectGarbage(): void {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (gc) {
		gc();
		gc();
	}
}

async function main(): Promise<void> {
	const task = JSON.parse(process.argv[2] ?? '{}') as Task;
	const run = await prepare(task);

	await run(true);
	await run(true);
	await control(task.info, 'POST', '/__sandbox/reset');
	collectGarbage();

	const baselineRss = process.memoryUsage().rss;
	let sampledPeak = baselineRss;
	const sampler = setInterval(() => {
		const rss = process.memoryUsage.rss();
		if (rss > sampledPeak) sampledPeak = rss;
	}, 50);
	const monotonicStartUs = Number(process.hrtime.bigint() / 1000n);
	const start = performance.now();
	const outcome = await run(false);
	const wallMs = performance.now() - start;
	const monotonicEndUs = Number(process.hrtime.bigint() / 1000n);
	clearInterval(sampler);
	// maxRSS is the kernel's high-water mark (KiB) over the whole process: it also catches peaks
	// between samples, while the event loop is busy.
	const peakRss = Math.max(
		sampledPeak,
		process.memoryUsage().rss,
		process.resourceUsage().maxRSS * 1024,
	);

	const log = await control<Array<{ status: number }>>(task.info, 'GET', '/__sandbox/requests');
	const result: WorkerResult = {
		task: task.name,
		wallMs,
		monotonicStartUs,
		monotonicEndUs,
		requests: log.length,
		failedRequests: log.filter((r) => r.status < 200 || r.status >= 300).length,
		items: outcome.items,
		errorItems: outcome.errorItems,
		baselineRss,
		peakRss,
		jsonBytes: outcome.records ? Buffer.byteLength(JSON.stringify(outcome.records)) : undefined,
	};
	process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`);
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		process.stderr.write(`bench worker failed: ${(error as Error).stack ?? String(error)}\n`);
		process.exit(1);
	},
);
