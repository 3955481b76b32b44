/**
 * `npm run bench:export` (also the last step of `npm run bench`): exporting every person of a large
 * CRM in the real n8n application, the shipped page-by-page example against Return All of the same
 * people, interleaved, on the sandbox in its own process with a fixed latency per request.
 *
 *   node build/bench/export.js [--quick] [--people 200000] [--latency 5] [--reps 2] [--heap-mib 512]
 *
 * Page by page: examples/people-export-page-by-page.json as a user imports it (its Schedule Trigger
 * replaced by a Manual Trigger, the credential set in both places): its time is from the first node
 * of the loop to the last, its memory the n8n process's RSS over that window. Return All: our node's
 * Person › Get Many (Return All, Simplify on, defaults) in a sub-workflow that counts the people, the
 * benchmark's usual shape. Both run at the node's default pace (50 requests per second), which bounds
 * them both: 200,000 people are 2,000 pages of 100, at least 40 s.
 *
 * First with Node's default heap (the time per person; V8 then lets RSS grow with garbage it has not
 * collected yet), then once each with a heap limit as a small instance sets it (what each way must
 * keep: page by page stays small, Return All runs out of memory). `exportPeakRssGrowthMiB` is page by
 * page's largest growth under either.
 *
 * Adds `exportPeople`, `exportPeakRssGrowthMiB`, `exportPerRecordVsReturnAll` and `export` to
 * results.json and replaces the export section of RESULTS.md (with --quick: in build/bench/).
 */
import { existsSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';

import { control, packageRoot } from './common';
import { N8nApp, type RunDataEntry, rssWindow } from './n8nApp';
import { startSandboxProcess } from './sandboxProcess';
import { CREDENTIALS, type Contender, NODE_TYPE, parentWorkflow } from './workflows';

interface Args {
	quick: boolean;
	people: number;
	latency: number;
	reps: number;
	/** The V8 heap limit (--max-old-space-size) of the second pass, as a small instance sets it. */
	heapMib: number;
}

function parseArgs(argv: string[]): Args {
	const quick = argv.includes('--quick');
	const args: Args = {
		quick,
		people: quick ? 20_000 : 200_000,
		latency: 5,
		reps: quick ? 1 : 2,
		heapMib: 512,
	};
	for (let i = 0; i < argv.length; i++) {
		const value = Number(argv[i + 1]);
		if (argv[i] === '--people') args.people = value;
		else if (argv[i] === '--latency') args.latency = value;
		else if (argv[i] === '--reps') args.reps = value;
		else if (argv[i] === '--heap-mib') args.heapMib = value;
		else continue;
		if (!Number.isFinite(value) || value < 0) throw new Error(`${argv[i]} needs a number`);
		i++;
	}
	return args;
}

const EXAMPLE = join(packageRoot(), 'examples', 'people-export-page-by-page.json');
const EXPORT_ID = 'benchExportPageByPage';
const RETURN_ALL_KEY = 'exportReturnAll';
const RETURN_ALL_ID = 'benchExportReturnAll';
const MIB = 1024 * 1024;

type WorkflowJson = {
	nodes: Array<
		Record<string, unknown> & {
			parameters?: Record<string, unknown>;
			credentials?: Record<string, unknown>;
		}
	>;
};

/** Every node of ours, also in an inline sub-workflow (JSON in a parameter), set to the bench credential. */
function withOurCredential(workflow: WorkflowJson): WorkflowJson {
	for (const n of workflow.nodes) {
		if (n.credentials?.[CREDENTIALS.ours.type])
			n.credentials[CREDENTIALS.ours.type] = {
				id: CREDENTIALS.ours.id,
				name: CREDENTIALS.ours.name,
			};
		const inline = n.parameters?.workflowJson;
		if (typeof inline === 'string')
			n.parameters!.workflowJson = JSON.stringify(
				withOurCredential(JSON.parse(inline) as WorkflowJson),
			);
	}
	return workflow;
}

/** The example as a user would run it here: a Manual Trigger, and the bench credential everywhere. */
function exportWorkflow(): Record<string, unknown> {
	const workflow = withOurCredential(JSON.parse(readFileSync(EXAMPLE, 'utf8')) as WorkflowJson);
	for (const n of workflow.nodes) {
		if (n.type === 'n8n-nodes-base.scheduleTrigger')
			Object.assign(n, { type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} });
	}
	return { ...workflow, id: EXPORT_ID, active: false };
}

const returnAll: Contender = {
	key: RETURN_ALL_KEY,
	label: 'Return All (Get Many, Simplify on, defaults)',
	nodes: [
		{
			id: 'return-all',
			name: 'Integration Service',
			type: NODE_TYPE,
			typeVersion: 1,
			position: [300, 0],
			parameters: { resource: 'person', operation: 'getAll', returnAll: true, simplify: true },
			credentials: {
				[CREDENTIALS.ours.type]: { id: CREDENTIALS.ours.id, name: CREDENTIALS.ours.name },
			},
		},
	],
};

interface Measured {
	ms: number;
	people: number;
	rssGrowthBytes: number;
}

function exportMeasured(
	runData: Record<string, RunDataEntry[]>,
	samples: Parameters<typeof rssWindow>[0],
): Measured & { batches: number } {
	const first = runData['Start at the beginning']?.[0];
	const last = runData['Export finished']?.[0];
	const batches = runData['Export one batch'] ?? [];
	if (!first?.startTime || !last?.startTime || last.executionTime === undefined)
		throw new Error('the export did not reach "Export finished"');
	const from = first.startTime;
	const to = last.startTime + last.executionTime;
	const people = batches.reduce(
		(sum, run) => sum + Number(run.data?.main?.[0]?.[0]?.json.count ?? 0),
		0,
	);
	const { rssStart, rssPeak } = rssWindow(samples, from, to);
	return { ms: to - from, people, rssGrowthBytes: rssPeak - rssStart, batches: batches.length };
}

/** What CI's smaller runs of the same things print (test/e2e/run-e2e.js, test/e2e/tenant-pace-e2e.js), as last seen. */
const CI_FIGURES = [
	'CI runs the same example on 12,000 people in `npm run test:e2e` and checks that every person arrived exactly once. Its line on 2026-11-25:',
	'`ok [examples/people-export-page-by-page.json] every one of the 12000 people arrived exactly once: 3 batch(es) of 5000, 5000, 2000, contiguous true, 12000 in all, done true`.',
	'In the same run, four webhook executions of one tenant started at once in `n8n start` (100 Person › Create each, Max Requests Per Second at its default 50) share one budget:',
	'`tenant pace: 4 executions x 100 creates at once: busiest second 50 requests (cap 50); the last create arrived 8.24 s after the calls (shared budget: >= 7.98 s)`',
	'(before the budget was shared, four such runs sent 211 in their busiest second; while the pace counted only starts, 53).',
].join('\n');

const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const log = (message: string) => process.stderr.write(`[bench:export] ${message}\n`);
const mib = (bytes: number) => Math.round(bytes / MIB);

/** One run of each way; a run that n8n could not finish (out of memory) is `failed`, not thrown. */
type Outcome = Measured | { failed: string; outOfMemory?: boolean };

/** A failed run: the start of its message, and whether V8 said anywhere in it that the heap ran out. */
function failure(error: unknown): Outcome {
	const message = (error as Error).message;
	return {
		failed: message.slice(0, 300),
		outOfMemory: /heap limit|heap out of memory|allocation failure|Mark-Compact/i.test(message),
	};
}

async function runExport(app: N8nApp, nodeOptions: string[]): Promise<Outcome> {
	try {
		const watched = await app.watch(EXPORT_ID, { timeoutMs: 3_600_000, nodeOptions });
		const m = exportMeasured(watched.runData, watched.samples);
		log(
			`page by page${nodeOptions.length ? ` (${nodeOptions.join(' ')})` : ''}: ${m.people} people in ${m.batches} batches, ${(m.ms / 1000).toFixed(1)} s, peak RSS growth ${mib(m.rssGrowthBytes)} MiB`,
		);
		return m;
	} catch (error) {
		log(`page by page failed: ${(error as Error).message.slice(0, 300)}`);
		return failure(error);
	}
}

async function runReturnAll(app: N8nApp, nodeOptions: string[]): Promise<Outcome> {
	try {
		const result = (
			await app.execute(RETURN_ALL_ID, [RETURN_ALL_KEY], { timeoutMs: 3_600_000, nodeOptions })
		).branches.get(RETURN_ALL_KEY)!;
		const m = {
			ms: result.ms,
			people: result.count,
			rssGrowthBytes: result.rssPeak - result.rssStart,
		};
		log(
			`return all${nodeOptions.length ? ` (${nodeOptions.join(' ')})` : ''}: ${m.people} people, ${(m.ms / 1000).toFixed(1)} s, peak RSS growth ${mib(m.rssGrowthBytes)} MiB`,
		);
		return m;
	} catch (error) {
		log(`return all failed: ${(error as Error).message.slice(0, 300)}`);
		return failure(error);
	}
}

const measured = (outcomes: Outcome[]): Measured[] =>
	outcomes.filter((o): o is Measured => 'ms' in o);

async function main(): Promise<void> {
	const args = parseArgs(process.argv.slice(2));
	log(`starting the sandbox with ${args.people} people, ${args.latency} ms per request`);
	const sandbox = await startSandboxProcess({
		latencyMs: args.latency,
		people: args.people,
		port: 0,
	});
	const app = await N8nApp.open(sandbox.info, [], [returnAll], log);
	const limited = [`--max-old-space-size=${args.heapMib}`];
	const exports: Outcome[] = [];
	const returnAlls: Outcome[] = [];
	let limitedExport: Outcome = { failed: 'not run' };
	let limitedReturnAll: Outcome = { failed: 'not run' };
	let limitedQuarter: Outcome = { failed: 'not run' };
	const quarter = Math.round(args.people / 4);
	try {
		await app.startOnce(log);
		await app.importParents([
			exportWorkflow(),
			parentWorkflow(RETURN_ALL_ID, [{ key: RETURN_ALL_KEY, items: 0 }], []),
		]);
		// 1. Node's default heap: time per person, interleaved, the order alternating.
		for (let rep = 0; rep < args.reps; rep++) {
			for (const which of rep % 2 === 0 ? ['export', 'returnAll'] : ['returnAll', 'export']) {
				if (which === 'export') exports.push(await runExport(app, []));
				else returnAlls.push(await runReturnAll(app, []));
			}
		}
		// 2. A heap limit, as a small instance sets it: what each way needs to keep, not what V8 lets grow.
		limitedExport = await runExport(app, limited);
		limitedReturnAll = await runReturnAll(app, limited);
		// 3. The same with a quarter of the people: what page by page keeps must not grow with the list.
		await control(sandbox.info, 'POST', '/__sandbox/config', { people: quarter });
		limitedQuarter = await runExport(app, limited);
	} finally {
		app.close();
		await sandbox.stop();
	}
	const done = measured([...exports, ...returnAlls]);
	if (done.length !== exports.length + returnAlls.length)
		throw new Error("a run with Node's default heap failed");
	for (const m of [...done, ...measured([limitedExport])]) {
		if (m.people !== args.people)
			throw new Error(`a run returned ${m.people} people, not ${args.people}`);
	}
	if (!('ms' in limitedExport))
		throw new Error(
			`page by page did not finish within a ${args.heapMib} MiB heap: ${limitedExport.failed}`,
		);
	if (!('ms' in limitedQuarter) || limitedQuarter.people !== quarter)
		throw new Error(
			`page by page of ${quarter} people within a ${args.heapMib} MiB heap: ${'ms' in limitedQuarter ? `${limitedQuarter.people} people` : limitedQuarter.failed}`,
		);
	const exportMs = median(measured(exports).map((m) => m.ms));
	const returnAllMs = median(measured(returnAlls).map((m) => m.ms));
	const defaultExportGrowth = Math.max(...measured(exports).map((m) => m.rssGrowthBytes));
	const returnAllGrowth = Math.max(...measured(returnAlls).map((m) => m.rssGrowthBytes));
	const perRecordRatio = exportMs / returnAllMs;
	const limitedExportGrowth = limitedExport.rssGrowthBytes;
	/** What the target holds to: the larger of Node's default heap and the heap limit. */
	const exportGrowth = Math.max(defaultExportGrowth, limitedExportGrowth);
	const outOfMemory = !('ms' in limitedReturnAll) && limitedReturnAll.outOfMemory === true;
	const limitedReturnAllText =
		'ms' in limitedReturnAll
			? `finished, ${mib(limitedReturnAll.rssGrowthBytes)} MiB peak RSS growth`
			: outOfMemory
				? 'did not finish: n8n ran out of memory'
				: `did not finish: ${limitedReturnAll.failed.slice(0, 120)}`;
	const figures = {
		exportPeople: args.people,
		exportPeakRssGrowthMiB: mib(exportGrowth),
		exportPerRecordVsReturnAll: Number(perRecordRatio.toFixed(3)),
		export: {
			latencyMs: args.latency,
			reps: args.reps,
			batchSize: 5000,
			heapLimitMiB: args.heapMib,
			pageByPage: {
				msRuns: measured(exports).map((m) => m.ms),
				msMedian: exportMs,
				recordsPerSecond: Math.round(args.people / (exportMs / 1000)),
				peakRssGrowthMiBRuns: measured(exports).map((m) => mib(m.rssGrowthBytes)),
			},
			returnAll: {
				msRuns: measured(returnAlls).map((m) => m.ms),
				msMedian: returnAllMs,
				recordsPerSecond: Math.round(args.people / (returnAllMs / 1000)),
				peakRssGrowthMiBRuns: measured(returnAlls).map((m) => mib(m.rssGrowthBytes)),
			},
			withHeapLimit: {
				pageByPage: { ms: limitedExport.ms, peakRssGrowthMiB: mib(limitedExportGrowth) },
				pageByPageQuarter: {
					people: quarter,
					ms: limitedQuarter.ms,
					peakRssGrowthMiB: mib(limitedQuarter.rssGrowthBytes),
				},
				returnAll:
					'ms' in limitedReturnAll
						? { ms: limitedReturnAll.ms, peakRssGrowthMiB: mib(limitedReturnAll.rssGrowthBytes) }
						: { failed: limitedReturnAll.failed },
			},
			targets: {
				exportPeakRssGrowthMiB: { goal: '<= 300', met: exportGrowth / MIB <= 300 },
				exportPerRecordVsReturnAll: { goal: '<= 1.5', met: perRecordRatio <= 1.5 },
			},
		},
	};

	const outDir = args.quick ? __dirname : join(packageRoot(), 'bench');
	const resultsFile = join(outDir, 'results.json');
	const results = existsSync(resultsFile)
		? (JSON.parse(readFileSync(resultsFile, 'utf8')) as Record<string, unknown>)
		: {};
	writeFileSync(resultsFile, `${JSON.stringify({ ...results, ...figures }, null, 2)}\n`);

	const runs = (list: Measured[]) => list.map((m) => (m.ms / 1000).toFixed(1)).join(', ');
	const section = [
		'<!-- export: written by bench/export.ts -->',
		'## Export of every person: page by page against Return All',
		'',
		`${args.people.toLocaleString('en-US')} people from the sandbox (${args.latency} ms per request, pages of 100), in the real n8n application at the node's default pace (50 requests per second, which bounds both: ${(args.people / 100 / 50).toFixed(0)} s at least). Page by page is \`examples/people-export-page-by-page.json\` (batches of 5,000, each in its own sub-workflow); Return All is Get Many with Simplify on. Memory is the n8n process's peak RSS growth over the run.`,
		'',
		"| Way | Time, Node's default heap (median; runs) | People per second | Peak RSS growth, default heap | With a " +
			`${args.heapMib} MiB heap limit |`,
		'|---|---|---|---|---|',
		`| Page by page | ${(exportMs / 1000).toFixed(1)} s (${runs(measured(exports))}) | ${Math.round(args.people / (exportMs / 1000)).toLocaleString('en-US')} | ${mib(defaultExportGrowth)} MiB | finished, ${mib(limitedExportGrowth)} MiB peak RSS growth |`,
		`| Return All | ${(returnAllMs / 1000).toFixed(1)} s (${runs(measured(returnAlls))}) | ${Math.round(args.people / (returnAllMs / 1000)).toLocaleString('en-US')} | ${mib(returnAllGrowth)} MiB | ${limitedReturnAllText} |`,
		'',
		`Time per person, page by page against Return All: ${perRecordRatio.toFixed(2)} (target ≤ 1.5). Page by page's peak RSS growth is ${mib(exportGrowth)} MiB at most (target ≤ 300 MiB): ${mib(defaultExportGrowth)} MiB with Node's default heap, where V8 collects lazily and lets RSS grow with garbage nothing keeps, and ${mib(limitedExportGrowth)} MiB with a heap limit (\`--max-old-space-size=${args.heapMib}\`, as small instances set it through NODE_OPTIONS), under which Return All ${'ms' in limitedReturnAll ? 'still finished' : outOfMemory ? 'runs out of memory' : 'did not finish'}. With the same limit, ${quarter.toLocaleString('en-US')} people grew n8n by ${mib(limitedQuarter.rssGrowthBytes)} MiB and ${args.people.toLocaleString('en-US')} by ${mib(limitedExportGrowth)} MiB: ${Math.round((Math.max(0, limitedExportGrowth - limitedQuarter.rssGrowthBytes) / MIB / (args.people - quarter)) * 100_000)} MiB more per 100,000 people.`,
		'',
		CI_FIGURES,
		'<!-- /export -->',
	].join('\n');
	const mdFile = join(outDir, 'RESULTS.md');
	const md = existsSync(mdFile) ? readFileSync(mdFile, 'utf8') : '';
	const start = md.indexOf('<!-- export: ');
	const end = md.indexOf('<!-- /export -->');
	const updated =
		start >= 0 && end > start
			? `${md.slice(0, start)}${section}${md.slice(end + '<!-- /export -->'.length)}`
			: `${md.trimEnd()}\n\n${section}\n`;
	writeFileSync(mdFile, updated);
	process.stdout.write(`${section}\n`);
	log(`wrote ${mdFile} and ${resultsFile}`);
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		process.stderr.write(`bench:export failed: ${(error as Error).stack ?? String(error)}\n`);
		process.exit(1);
	},
);
