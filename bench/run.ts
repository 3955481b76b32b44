/**
 * `npm run bench`: our node, run through n8n's real WorkflowExecute, against a raw keep-alive HTTP
 * loop in plain Node, on the same sandbox (its own process, with a fixed latency per request).
 *
 *   node build/bench/run.js [--latency 5] [--people 50000] [--creates 2000] [--concurrency 8]
 *                           [--reps 3] [--n8n-reps 2] [--port 0] [--no-profile] [--no-n8n]
 *
 * Every measurement runs in a fresh child process (build/bench/worker.js) so that its peak RSS is its
 * own. Where the end-to-end test's n8n is installed (test/e2e/install-n8n.js), the list is also
 * timed in the real n8n application: n8n's HTTP Request node with pagination, and our node (n8nApp.ts).
 * Writes bench/RESULTS.md and bench/results.json, and prints the former.
 */
import { spawn } from 'child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'fs';
import os from 'os';
import { join } from 'path';

import type { SandboxInfo, WorkerResult } from './common';
import { packageRoot, RESULT_PREFIX } from './common';
import { measureInN8n, type N8nOutcome } from './n8nApp';
import { CATEGORIES, type Category, summariseProfile } from './profile';
import { startSandboxProcess } from './sandboxProcess';
import type { Side, Task } from './worker';

interface Args {
	latency: number;
	people: number;
	creates: number;
	concurrency: number;
	reps: number;
	n8nReps: number;
	port: number;
	profile: boolean;
	n8n: boolean;
}

function parseArgs(argv: string[]): Args {
	const envLatency = process.env.BENCH_LATENCY_MS;
	const args: Args = {
		latency: envLatency !== undefined && envLatency !== '' ? Number(envLatency) : 5,
		people: 50_000,
		creates: 2_000,
		concurrency: 8,
		reps: 3,
		n8nReps: 2,
		port: 0,
		profile: true,
		n8n: true,
	};
	for (let i = 0; i < argv.length; i++) {
		const raw = argv[i];
		if (raw === '--no-profile') {
			args.profile = false;
			continue;
		}
		if (raw === '--no-n8n') {
			args.n8n = false;
			continue;
		}
		const eq = raw.indexOf('=');
		const name = (eq >= 0 ? raw.slice(0, eq) : raw).replace(/^--/, '').replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
		const value = Number(eq >= 0 ? raw.slice(eq + 1) : argv[++i]);
		if (!(name in args) || typeof args[name as keyof Args] !== 'number' || !Number.isInteger(value) || value < 0) {
			throw new Error(`bad option ${raw}; usage: run.js [--latency 5] [--people 50000] [--creates 2000] [--concurrency 8] [--reps 3] [--n8n-reps 2] [--port 0] [--no-profile] [--no-n8n]`);
		}
		(args as unknown as Record<string, number>)[name] = value;
	}
	if (args.reps < 1) args.reps = 1;
	if (args.n8nReps < 1) args.n8nReps = 1;
	return args;
}

function log(message: string): void {
	process.stderr.write(`[bench] ${message}\n`);
}

/** Runs one measurement in a fresh process; optionally with a CPU profile written to `profileDir`. */
function runWorker(task: Task, profileDir?: string): Promise<WorkerResult> {
	const nodeArgs = ['--expose-gc'];
	if (profileDir) nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${profileDir}`);
	nodeArgs.push(join(__dirname, 'worker.js'), JSON.stringify(task));
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, nodeArgs, { stdio: ['ignore', 'pipe', 'pipe'], cwd: packageRoot() });
		let stdout = '';
		let stderr = '';
		child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
		child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
		child.on('exit', (code) => {
			const line = stdout.split('\n').find((l) => l.startsWith(RESULT_PREFIX));
			if (code !== 0 || !line) {
				reject(new Error(`${task.name} failed (exit ${code}): ${stderr.trim().slice(-2000)}`));
				return;
			}
			const result = JSON.parse(line.slice(RESULT_PREFIX.length)) as WorkerResult;
			if (result.failedRequests > 0 || result.errorItems > 0) {
				reject(new Error(`${task.name}: ${result.failedRequests} failed requests, ${result.errorItems} error items`));
				return;
			}
			resolve(result);
		});
	});
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

interface Measured {
	label: string;
	runs: WorkerResult[];
	wallMs: number;
	bestMs: number;
	requests: number;
	rps: number;
	rssGrowth: number;
	jsonBytes?: number;
}

function summarise(label: string, runs: WorkerResult[]): Measured {
	const wallMs = median(runs.map((r) => r.wallMs));
	const requests = runs[0].requests;
	return {
		label,
		runs,
		wallMs,
		bestMs: Math.min(...runs.map((r) => r.wallMs)),
		requests,
		rps: requests / (wallMs / 1000),
		// The largest growth over the reps: the conservative figure.
		rssGrowth: Math.max(...runs.map((r) => r.peakRss - r.baselineRss)),
		jsonBytes: runs[0].jsonBytes,
	};
}

/** Runs `reps` rounds of the given sides, interleaved (ours, raw, ours, raw, ...) so drift hits both. */
async function measure(
	info: SandboxInfo,
	base: Omit<Task, 'name' | 'side' | 'info'>,
	sides: Array<{ side: Side; label: string; reps: number }>,
	reps: number,
): Promise<Measured[]> {
	const runs = new Map<string, WorkerResult[]>(sides.map((s) => [s.label, []]));
	for (let rep = 0; rep < reps; rep++) {
		for (const s of sides) {
			if (rep >= s.reps) continue;
			const result = await runWorker({ ...base, name: s.label, side: s.side, info });
			log(`${s.label} #${rep + 1}: ${(result.wallMs / 1000).toFixed(2)} s, ${result.requests} requests, RSS +${mb(result.peakRss - result.baselineRss)}`);
			runs.get(s.label)!.push(result);
		}
	}
	return sides.map((s) => summarise(s.label, runs.get(s.label)!));
}

async function profileOurs(info: SandboxInfo, base: Omit<Task, 'name' | 'side' | 'info'>, label: string): Promise<Record<Category, number> | undefined> {
	const dir = mkdtempSync(join(os.tmpdir(), 'bench-prof-'));
	try {
		const result = await runWorker({ ...base, name: `${label} (profiled)`, side: 'ours', info }, dir);
		const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
		if (!file) return undefined;
		return summariseProfile(join(dir, file), result.monotonicStartUs, result.monotonicEndUs);
	} catch (error) {
		log(`profile of ${label} skipped: ${(error as Error).message}`);
		return undefined;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

function mb(bytes: number): string {
	return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function fixed(value: number, digits = 2): number {
	return Number(value.toFixed(digits));
}

interface Target {
	name: string;
	value: number;
	limit: number;
	kind: '<=' | '>=';
	note: string;
}

function targetLine(t: Target): string {
	const pass = t.kind === '<=' ? t.value <= t.limit : t.value >= t.limit;
	return `| ${t.name} | ${t.value.toFixed(2)} | ${t.kind} ${t.limit} | ${pass ? 'PASS' : 'MISS'} | ${t.note} |`;
}

function table(rows: Measured[], raw: Measured): string[] {
	const lines = ['| Measurement | Wall (median) | Best | Requests | Req/s | Ours or baseline ÷ raw keep-alive | Peak RSS growth |', '|---|---:|---:|---:|---:|---:|---:|'];
	for (const r of rows) {
		lines.push(
			`| ${r.label} | ${(r.wallMs / 1000).toFixed(2)} s | ${(r.bestMs / 1000).toFixed(2)} s | ${r.requests} | ${r.rps.toFixed(0)} | ${(r.wallMs / raw.wallMs).toFixed(2)} | ${mb(r.rssGrowth)} |`,
		);
	}
	return lines;
}

function profileTable(title: string, profile: Record<Category, number> | undefined, count: number, unit: string): string[] {
	if (!profile) return [`${title}: not profiled.`];
	const total = CATEGORIES.reduce((sum, c) => sum + profile[c], 0);
	const lines = [`${title} (${(total / 1000).toFixed(2)} s wall, one profiled run; ms per ${unit}):`, '', '| Where | ms per ' + unit + ' | Share |', '|---|---:|---:|'];
	for (const c of CATEGORIES) {
		if (profile[c] < total * 0.005) continue;
		lines.push(`| ${c} | ${(profile[c] / count).toFixed(2)} | ${((100 * profile[c]) / total).toFixed(0)} % |`);
	}
	return lines;
}

async function main(): Promise<void> {
	const args = parseArgs(process.argv.slice(2));
	const root = packageRoot();
	const started = Date.now();
	const loadBefore = os.loadavg();
	log(`starting the sandbox: ${args.people} people, ${args.latency} ms latency`);
	const sandbox = await startSandboxProcess({ latencyMs: args.latency, people: args.people, port: args.port });
	const { info } = sandbox;
	let listRows: Measured[];
	let createRows: Measured[];
	let concurrentRows: Measured[];
	let listProfile: Record<Category, number> | undefined;
	let createProfile: Record<Category, number> | undefined;
	let concurrentProfile: Record<Category, number> | undefined;
	let n8nOutcome: N8nOutcome;
	try {
		log('1. Get Many, Return All');
		listRows = await measure(
			info,
			{ kind: 'list' },
			[
				{ side: 'ours', label: `Our node: Get Many, Return All (${args.people})`, reps: args.reps },
				{ side: 'raw', label: 'Raw keep-alive loop: same pages', reps: args.reps },
				{ side: 'rawNoKeepAlive', label: 'Raw loop without keep-alive (2nd baseline)', reps: 1 },
			],
			args.reps,
		);
		if (args.n8n) {
			log('1b. the same list in the real n8n application (the end-to-end test\'s install)');
			n8nOutcome = await measureInN8n({ info, people: args.people, reps: args.n8nReps, log });
		} else {
			n8nOutcome = { ok: false, reason: 'switched off with --no-n8n', cache: '' };
		}
		if (!n8nOutcome.ok) log(`1b. skipped: ${n8nOutcome.reason}`);
		log(`2. Create ${args.creates}, one at a time`);
		createRows = await measure(
			info,
			{ kind: 'create', count: args.creates, concurrency: 1 },
			[
				{ side: 'ours', label: `Our node: Create ${args.creates}, one at a time`, reps: args.reps },
				{ side: 'raw', label: 'Raw keep-alive loop, sequential', reps: args.reps },
				{ side: 'rawNoKeepAlive', label: 'Raw loop without keep-alive, sequential (2nd baseline)', reps: 1 },
			],
			args.reps,
		);
		log(`3. Create ${args.creates}, concurrency ${args.concurrency}`);
		concurrentRows = await measure(
			info,
			{ kind: 'create', count: args.creates, concurrency: args.concurrency },
			[
				{ side: 'ours', label: `Our node: Create ${args.creates}, concurrency ${args.concurrency}`, reps: args.reps },
				{ side: 'raw', label: `Raw keep-alive loop, concurrency ${args.concurrency}`, reps: args.reps },
				{ side: 'rawNoKeepAlive', label: `Raw loop without keep-alive, concurrency ${args.concurrency} (2nd baseline)`, reps: 1 },
			],
			args.reps,
		);
		if (args.profile) {
			log('profiling our node (one extra run each, not counted above)');
			listProfile = await profileOurs(info, { kind: 'list' }, 'list');
			createProfile = await profileOurs(info, { kind: 'create', count: Math.min(args.creates, 500), concurrency: 1 }, 'create');
			concurrentProfile = await profileOurs(info, { kind: 'create', count: Math.min(args.creates, 500), concurrency: args.concurrency }, 'create-concurrent');
		}
	} finally {
		await sandbox.stop();
	}

	const [listOurs, listRaw, listNoKa] = listRows;
	const [createOurs, createRaw, createNoKa] = createRows;
	const [concOurs, concRaw, concNoKa] = concurrentRows;
	const listRatio = listOurs.wallMs / listRaw.wallMs;
	const createRatio = createOurs.wallMs / createRaw.wallMs;
	const concurrentRatio = concOurs.wallMs / concRaw.wallMs;
	const concurrencySpeedup = createOurs.wallMs / concOurs.wallMs;
	const jsonBytes = listOurs.jsonBytes ?? 0;
	const listRssGrowthOverJsonBytes = jsonBytes > 0 ? listOurs.rssGrowth / jsonBytes : NaN;

	const helperNote = 'n8n’s request helper opens a new connection per request (no keep-alive)';
	const targets: Target[] = [
		{ name: 'List: ours ÷ raw', value: listRatio, limit: 1.15, kind: '<=', note: `raw without keep-alive: ${(listNoKa.wallMs / listRaw.wallMs).toFixed(2)}` },
		{ name: 'Sequential create: ours ÷ raw', value: createRatio, limit: 1.15, kind: '<=', note: `raw without keep-alive: ${(createNoKa.wallMs / createRaw.wallMs).toFixed(2)}` },
		{ name: `Concurrency ${args.concurrency}: speed-up over one at a time`, value: concurrencySpeedup, limit: 5, kind: '>=', note: `raw: ${(createRaw.wallMs / concRaw.wallMs).toFixed(2)}×` },
		{ name: `Concurrency ${args.concurrency}: ours ÷ raw`, value: concurrentRatio, limit: 1.25, kind: '<=', note: `raw without keep-alive: ${(concNoKa.wallMs / concRaw.wallMs).toFixed(2)}` },
		{ name: 'List: peak RSS growth ÷ JSON bytes', value: listRssGrowthOverJsonBytes, limit: 3, kind: '<=', note: `${mb(listOurs.rssGrowth)} for ${mb(jsonBytes)} of JSON; raw loop: ${(listRaw.rssGrowth / jsonBytes).toFixed(2)}` },
	];

	const n8nRatios = n8nOutcome.ok
		? {
				httpRequest: n8nOutcome.rows[0].listingMs / listRaw.wallMs,
				ours: n8nOutcome.rows[1].listingMs / listRaw.wallMs,
				httpOverOurs: n8nOutcome.rows[0].listingMs / n8nOutcome.rows[1].listingMs,
			}
		: undefined;
	const n8nSection: string[] = n8nOutcome.ok
		? [
				`## 1b. The same list in the real n8n application (n8n ${n8nOutcome.n8nVersion} on Node ${n8nOutcome.nodeVersion}, \`n8n execute\`)`,
				'',
				`Same sandbox process, same ${args.people} people in pages of 100. ` +
					'n8n’s HTTP Request node (v4.2): GET /api/people?limit=100 with Authorization and X-Service-Credential-Id as header parameters, ' +
					'pagination "Response Contains Next URL" = `{{ $response.body._metadata.nextLink }}`, complete when `{{ !$response.body._metadata.nextLink }}`, no page limit; ' +
					'then Split Out `people` (the node gives one item per page). Our node: Person › Get Many, Return All, Simplify off, from the built package in `<user folder>/.n8n/nodes/node_modules`. ' +
					'Each runs in a sub-workflow ending in Summarize (count), called by a parent workflow after a warm-up call of the same sub-workflow shape (5 pages of 50), ' +
					'so `n8n execute` prints a few kB instead of the whole run data.',
				'',
				`| Measurement | Listing (first → last request in the sandbox log) | ÷ raw keep-alive loop | ÷ our node in n8n’s WorkflowExecute (section 1) | Execute Workflow node (listing + Split Out/Summarize) | \`n8n execute\` wall (start-up, warm-up, output) | Requests | People counted |`,
				'|---|---:|---:|---:|---:|---:|---:|---:|',
				...n8nOutcome.rows.map(
					(r) =>
						`| ${r.label} | ${(r.listingMs / 1000).toFixed(2)} s | ${(r.listingMs / listRaw.wallMs).toFixed(2)} | ${(r.listingMs / listOurs.wallMs).toFixed(2)} | ${
							r.nodeMs === undefined ? '?' : `${(r.nodeMs / 1000).toFixed(2)} s`
						} | ${(r.wallMs / 1000).toFixed(1)} s | ${r.requests} | ${r.items} |`,
				),
				'',
				`n8n’s HTTP Request node ÷ our node, both in the n8n application: ${n8nRatios!.httpOverOurs.toFixed(2)}. ` +
					`Figures: median of ${args.n8nReps} run(s) each (runs: ${n8nOutcome.rows.map((r) => `${r.label} ${r.runs.map((x) => (x.listingMs / 1000).toFixed(2)).join(', ')} s`).join('; ')}), interleaved. ` +
					'The listing time comes from the sandbox’s request log, polled every 25 ms while n8n runs (±25 ms), so n8n’s start-up is excluded; ' +
					'it ends at the arrival of the last page’s request, so the last page’s latency and parsing (about 1/500 of the listing) are not in it. ' +
					'The raw loop and the section-1 figure are whole runs in a fresh Node 20 process after a warm-up; n8n runs on Node 24.',
			]
		: [`## 1b. The same list in the real n8n application`, '', `skipped: ${n8nOutcome.reason}`];

	const cpus = os.cpus();
	const loadAfter = os.loadavg();
	const md: string[] = [
		'# Benchmark results',
		'',
		`Generated by \`npm run bench\` on ${new Date(started).toISOString()} (took ${((Date.now() - started) / 1000).toFixed(0)} s).`,
		'',
		`- Machine: ${cpus.length} cores, ${cpus[0]?.model ?? 'unknown CPU'}, ${mb(os.totalmem())} RAM, ${os.type()} ${os.release()}`,
		`- Node ${process.version}; n8n-core and n8n-workflow from devDependencies`,
		`- Load average before / after: ${loadBefore.map((l) => l.toFixed(1)).join(' ')} / ${loadAfter.map((l) => l.toFixed(1)).join(' ')} (other work on the machine adds noise)`,
		`- Sandbox in its own process: ${args.latency} ms latency per request, ${args.people} people, pages of 100`,
		`- Each figure: median of ${args.reps} runs (2nd baselines: 1 run), each run in a fresh process after a warm-up; peak RSS growth is the largest over the runs, above the RSS after loading and warm-up`,
		'',
		`## 1. Get Many, Return All of ${args.people} people (${listOurs.requests} pages)`,
		'',
		...table(listRows, listRaw),
		'',
		`JSON of the ${args.people} people held at the end: ${mb(jsonBytes)}; our peak RSS growth is ${listRssGrowthOverJsonBytes.toFixed(2)}× that.`,
		'',
		...n8nSection,
		'',
		`## 2. Create ${args.creates} people, one at a time`,
		'',
		...table(createRows, createRaw),
		'',
		`## 3. Create ${args.creates} people, concurrency ${args.concurrency}`,
		'',
		...table(concurrentRows, concRaw),
		'',
		`Our node at concurrency ${args.concurrency} is ${concurrencySpeedup.toFixed(2)}× faster than one at a time (raw: ${(createRaw.wallMs / concRaw.wallMs).toFixed(2)}×).`,
		'',
		'## Targets',
		'',
		'| Target | Value | Goal | Result | Context |',
		'|---|---:|---:|---|---|',
		...targets.map(targetLine),
		'',
		'## Where the time goes (our node, CPU profile)',
		'',
		...profileTable('Get Many, Return All', listProfile, listOurs.requests, 'page'),
		'',
		...profileTable('Create, one at a time', createProfile, Math.min(args.creates, 500), 'item'),
		'',
		...profileTable(`Create, concurrency ${args.concurrency}`, concurrentProfile, Math.min(args.creates, 500), 'item'),
		'',
		`Reading: "waiting" is time the process had nothing to do (the sandbox's ${args.latency} ms latency and its own work). ${helperNote}: ` +
			'httpRequestWithAuthentication → @n8n/backend-network builds a new http.Agent for every request, so every request pays a TCP connect; ' +
			'a node cannot pass its own agent or reuse connections through the helper, and all HTTP must go through it. ' +
			'Expressions such as `{{$json.first}}` are evaluated by n8n per item and parameter. ' +
			'With concurrency the run becomes CPU-bound on one thread: the speed-up is capped at (wall per item one at a time) ÷ (CPU per item).',
		'',
	];
	const text = md.join('\n');
	writeFileSync(join(root, 'bench', 'RESULTS.md'), text);
	const json = {
		date: new Date(started).toISOString(),
		machine: { cores: cpus.length, cpu: cpus[0]?.model, node: process.version, loadBefore, loadAfter },
		latencyMs: args.latency,
		people: args.people,
		creates: args.creates,
		concurrency: args.concurrency,
		reps: args.reps,
		listRatio: fixed(listRatio, 3),
		createRatio: fixed(createRatio, 3),
		concurrentRatio: fixed(concurrentRatio, 3),
		concurrencySpeedup: fixed(concurrencySpeedup, 3),
		listRssGrowthOverJsonBytes: fixed(listRssGrowthOverJsonBytes, 3),
		httpRequestNodeListRatio: n8nRatios ? fixed(n8nRatios.httpRequest, 3) : `skipped: ${n8nOutcome.ok ? '' : n8nOutcome.reason}`,
		ourNodeInN8nListRatio: n8nRatios ? fixed(n8nRatios.ours, 3) : `skipped: ${n8nOutcome.ok ? '' : n8nOutcome.reason}`,
		httpRequestNodeOverOurNodeInN8n: n8nRatios ? fixed(n8nRatios.httpOverOurs, 3) : null,
		n8nApplication: n8nOutcome.ok
			? {
					n8n: n8nOutcome.n8nVersion,
					node: n8nOutcome.nodeVersion,
					cache: n8nOutcome.cache,
					reps: args.n8nReps,
					timing: 'listingMs: first to last list request in the sandbox log (polled every 25 ms); wallMs: the whole n8n execute process; nodeMs: the Execute Workflow node running the listing sub-workflow',
					rows: n8nOutcome.rows.map((r) => ({
						label: r.label,
						listingMsMedian: fixed(r.listingMs, 1),
						listingMsRuns: r.runs.map((x) => fixed(x.listingMs, 1)),
						ratioToRawKeepAlive: fixed(r.listingMs / listRaw.wallMs, 3),
						ratioToOurNodeInWorkflowExecute: fixed(r.listingMs / listOurs.wallMs, 3),
						nodeMsMedian: r.nodeMs,
						wallMsMedian: r.wallMs,
						wallMsRuns: r.runs.map((x) => x.wallMs),
						requests: r.requests,
						peopleCounted: r.items,
					})),
				}
			: `skipped: ${n8nOutcome.reason}`,
		listJsonBytes: jsonBytes,
		targets: Object.fromEntries(targets.map((t) => [t.name, { value: fixed(t.value, 3), goal: `${t.kind} ${t.limit}`, pass: t.kind === '<=' ? t.value <= t.limit : t.value >= t.limit }])),
		measurements: [...listRows, ...createRows, ...concurrentRows].map((m) => ({
			label: m.label,
			wallMsMedian: fixed(m.wallMs, 1),
			wallMsBest: fixed(m.bestMs, 1),
			wallMsRuns: m.runs.map((r) => fixed(r.wallMs, 1)),
			requests: m.requests,
			requestsPerSecond: fixed(m.rps, 1),
			peakRssGrowthBytes: m.rssGrowth,
		})),
		profiles: { list: listProfile, create: createProfile, createConcurrent: concurrentProfile },
	};
	writeFileSync(join(root, 'bench', 'results.json'), `${JSON.stringify(json, null, 2)}\n`);
	process.stdout.write(`${text}\n`);
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		process.stderr.write(`bench failed: ${(error as Error).stack ?? String(error)}\n`);
		process.exit(1);
	},
);
