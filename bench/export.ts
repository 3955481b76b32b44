/**
 * `npm run bench:export` (also the last step of `npm run bench`): exporting every person of a large
 * CRM in the real n8n application, the shipped page-by-page example against Return All of the same
 * people, interleaved, on the sandbox in its own process with a fixed latency per request.
 *
 *   node build/bench/export.js [--quick] [--people 200000] [--latency 5] [--reps 2] [--heap-mib 0]
 *
 * Page by page: examples/people-export-page-by-page.json as a user imports it (its Schedule Trigger
 * replaced by a Manual Trigger, the credential set in both places): its time is from the first node
 * of the loop to the last, its memory the n8n process's RSS over that window. Return All: our node's
 * Person › Get Many (Return All, Simplify on, defaults) in a sub-workflow that counts the people, the
 * benchmark's usual shape. Both run at the node's default pace (50 requests per second), which bounds
 * them both: 200,000 people are 2,000 pages of 100, at least 40 s.
 *
 * Adds `exportPeople`, `exportPeakRssGrowthMiB`, `exportPerRecordVsReturnAll` and `export` to
 * results.json and replaces the export section of RESULTS.md (with --quick: in build/bench/).
 */
import { existsSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';

import { packageRoot } from './common';
import { N8nApp, type RunDataEntry, rssWindow } from './n8nApp';
import { startSandboxProcess } from './sandboxProcess';
import { CREDENTIALS, type Contender, NODE_TYPE, parentWorkflow } from './workflows';

interface Args {
	quick: boolean;
	people: number;
	latency: number;
	reps: number;
	/** n8n's V8 heap limit (--max-old-space-size), as a small instance sets it; 0 keeps Node's default. */
	heapMib: number;
}

function parseArgs(argv: string[]): Args {
	const quick = argv.includes('--quick');
	const args: Args = { quick, people: quick ? 20_000 : 200_000, latency: 5, reps: quick ? 1 : 2, heapMib: 0 };
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

type WorkflowJson = { nodes: Array<Record<string, unknown> & { parameters?: Record<string, unknown>; credentials?: Record<string, unknown> }> };

/** Every node of ours, also in an inline sub-workflow (JSON in a parameter), set to the bench credential. */
function withOurCredential(workflow: WorkflowJson): WorkflowJson {
	for (const n of workflow.nodes) {
		if (n.credentials?.[CREDENTIALS.ours.type]) n.credentials[CREDENTIALS.ours.type] = { id: CREDENTIALS.ours.id, name: CREDENTIALS.ours.name };
		const inline = n.parameters?.workflowJson;
		if (typeof inline === 'string') n.parameters!.workflowJson = JSON.stringify(withOurCredential(JSON.parse(inline) as WorkflowJson));
	}
	return workflow;
}

/** The example as a user would run it here: a Manual Trigger, and the bench credential everywhere. */
function exportWorkflow(): Record<string, unknown> {
	const workflow = withOurCredential(JSON.parse(readFileSync(EXAMPLE, 'utf8')) as WorkflowJson);
	for (const n of workflow.nodes) {
		if (n.type === 'n8n-nodes-base.scheduleTrigger') Object.assign(n, { type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} });
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
			credentials: { [CREDENTIALS.ours.type]: { id: CREDENTIALS.ours.id, name: CREDENTIALS.ours.name } },
		},
	],
};

interface Measured {
	ms: number;
	people: number;
	rssGrowthBytes: number;
}

function exportMeasured(runData: Record<string, RunDataEntry[]>, samples: Parameters<typeof rssWindow>[0]): Measured & { batches: number } {
	const first = runData['Start at the beginning']?.[0];
	const last = runData['Export finished']?.[0];
	const batches = runData['Export one batch'] ?? [];
	if (!first?.startTime || !last?.startTime || last.executionTime === undefined) throw new Error('the export did not reach "Export finished"');
	const from = first.startTime;
	const to = last.startTime + last.executionTime;
	const people = batches.reduce((sum, run) => sum + Number(run.data?.main?.[0]?.[0]?.json.count ?? 0), 0);
	const { rssStart, rssPeak } = rssWindow(samples, from, to);
	return { ms: to - from, people, rssGrowthBytes: rssPeak - rssStart, batches: batches.length };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const log = (message: string) => process.stderr.write(`[bench:export] ${message}\n`);

async function main(): Promise<void> {
	const args = parseArgs(process.argv.slice(2));
	log(`starting the sandbox with ${args.people} people, ${args.latency} ms per request`);
	const sandbox = await startSandboxProcess({ latencyMs: args.latency, people: args.people, port: 0 });
	const app = await N8nApp.open(sandbox.info, [], [returnAll], log);
	const nodeOptions = args.heapMib > 0 ? [`--max-old-space-size=${args.heapMib}`] : [];
	const exports: Array<Measured & { batches: number }> = [];
	const returnAlls: Measured[] = [];
	try {
		await app.startOnce(log);
		await app.importParents([exportWorkflow(), parentWorkflow(RETURN_ALL_ID, [{ key: RETURN_ALL_KEY, items: 0 }], [])]);
		for (let rep = 0; rep < args.reps; rep++) {
			// Interleaved, the order alternating, so that neither always runs on a warmer machine.
			for (const which of rep % 2 === 0 ? ['export', 'returnAll'] : ['returnAll', 'export']) {
				if (which === 'export') {
					const watched = await app.watch(EXPORT_ID, { timeoutMs: 3_600_000, nodeOptions });
					const m = exportMeasured(watched.runData, watched.samples);
					log(`page by page: ${m.people} people in ${m.batches} batches, ${(m.ms / 1000).toFixed(1)} s, peak RSS growth ${(m.rssGrowthBytes / MIB).toFixed(0)} MiB`);
					exports.push(m);
				} else {
					const result = (await app.execute(RETURN_ALL_ID, [RETURN_ALL_KEY], { timeoutMs: 3_600_000 })).branches.get(RETURN_ALL_KEY)!;
					const m = { ms: result.ms, people: result.count, rssGrowthBytes: result.rssPeak - result.rssStart };
					log(`return all: ${m.people} people, ${(m.ms / 1000).toFixed(1)} s, peak RSS growth ${(m.rssGrowthBytes / MIB).toFixed(0)} MiB`);
					returnAlls.push(m);
				}
			}
		}
	} finally {
		app.close();
		await sandbox.stop();
	}
	for (const m of [...exports, ...returnAlls]) {
		if (m.people !== args.people) throw new Error(`a run returned ${m.people} people, not ${args.people}`);
	}
	const exportMs = median(exports.map((m) => m.ms));
	const returnAllMs = median(returnAlls.map((m) => m.ms));
	const exportGrowth = Math.max(...exports.map((m) => m.rssGrowthBytes));
	const returnAllGrowth = Math.max(...returnAlls.map((m) => m.rssGrowthBytes));
	const perRecordRatio = exportMs / returnAllMs;
	const figures = {
		exportPeople: args.people,
		exportPeakRssGrowthMiB: Math.round(exportGrowth / MIB),
		exportPerRecordVsReturnAll: Number(perRecordRatio.toFixed(3)),
		export: {
			latencyMs: args.latency,
			reps: args.reps,
			batchSize: 5000,
			pageByPage: { msRuns: exports.map((m) => m.ms), msMedian: exportMs, recordsPerSecond: Math.round(args.people / (exportMs / 1000)), peakRssGrowthMiBRuns: exports.map((m) => Math.round(m.rssGrowthBytes / MIB)) },
			returnAll: { msRuns: returnAlls.map((m) => m.ms), msMedian: returnAllMs, recordsPerSecond: Math.round(args.people / (returnAllMs / 1000)), peakRssGrowthMiBRuns: returnAlls.map((m) => Math.round(m.rssGrowthBytes / MIB)) },
			targets: {
				exportPeakRssGrowthMiB: { goal: '<= 300', met: exportGrowth / MIB <= 300 },
				exportPerRecordVsReturnAll: { goal: '<= 1.5', met: perRecordRatio <= 1.5 },
			},
		},
	};

	const outDir = args.quick ? __dirname : join(packageRoot(), 'bench');
	const resultsFile = join(outDir, 'results.json');
	const results = existsSync(resultsFile) ? (JSON.parse(readFileSync(resultsFile, 'utf8')) as Record<string, unknown>) : {};
	writeFileSync(resultsFile, `${JSON.stringify({ ...results, ...figures }, null, 2)}\n`);

	const row = (label: string, runs: Measured[], ms: number) =>
		`| ${label} | ${(ms / 1000).toFixed(1)} s (${runs.map((m) => (m.ms / 1000).toFixed(1)).join(', ')}) | ${Math.round(args.people / (ms / 1000)).toLocaleString('en-US')} | ${Math.max(...runs.map((m) => m.rssGrowthBytes / MIB)).toFixed(0)} MiB |`;
	const section = [
		'<!-- export: written by bench/export.ts -->',
		'## Export of every person: page by page against Return All',
		'',
		`${args.people.toLocaleString('en-US')} people from the sandbox (${args.latency} ms per request, pages of 100), in the real n8n application at the node's default pace (50 requests per second, which bounds both: ${((args.people / 100 / 50)).toFixed(0)} s at least). Median of ${args.reps} interleaved runs (each run's time in brackets); memory is the n8n process's peak RSS growth over the run, the highest of the runs.`,
		'',
		'| Way | Time | People per second | Peak RSS growth |',
		'|---|---|---|---|',
		row('Page by page (`examples/people-export-page-by-page.json`, batches of 5,000 in a sub-workflow each)', exports, exportMs),
		row('Return All (Get Many, Simplify on)', returnAlls, returnAllMs),
		'',
		`Time per person, page by page against Return All: ${perRecordRatio.toFixed(2)} (target ≤ 1.5). Peak RSS growth page by page: ${Math.round(exportGrowth / MIB)} MiB (target ≤ 300 MiB); Return All grows with the list (${Math.round(returnAllGrowth / MIB)} MiB here, about ${(returnAllGrowth / args.people / 1024).toFixed(1)} KiB per person).`,
		'<!-- /export -->',
	].join('\n');
	const mdFile = join(outDir, 'RESULTS.md');
	const md = existsSync(mdFile) ? readFileSync(mdFile, 'utf8') : '';
	const start = md.indexOf('<!-- export: ');
	const end = md.indexOf('<!-- /export -->');
	const updated = start >= 0 && end > start ? `${md.slice(0, start)}${section}${md.slice(end + '<!-- /export -->'.length)}` : `${md.trimEnd()}\n\n${section}\n`;
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
