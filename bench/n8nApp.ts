/**
 * The same Get Many, Return All of the sandbox's people, in the REAL n8n application that the
 * end-to-end test installs (test/e2e/install-n8n.js; Node 24 and n8n 2.41.1 in
 * `${N8N_E2E_CACHE:-~/.cache/n8n-nodes-integration-service/e2e}`), run with `n8n execute`:
 *
 *  - n8n's own HTTP Request node (v4.2) with its pagination option (Next URL from
 *    `_metadata.nextLink`, complete when there is none), then Split Out `people` (one item per person);
 *  - our node (Person › Get Many, Return All) from the built package, placed in the user folder the
 *    way a user's install does.
 *
 * `n8n execute --rawOutput` prints the whole run data of the workflow it runs. So each listing runs in
 * a sub-workflow (Execute Workflow Trigger → list → Summarize count), called by a small parent workflow
 * (Manual Trigger → Execute Workflow "Warm-up" → Execute Workflow "Measured"); the parent's output is a
 * few kB: the count of people and the timing of each Execute Workflow node. The warm-up lists 5 pages
 * of 50 people, so the measured listing is the one whose requests ask for `limit=100`.
 * In the CLI's execution mode n8n 2.41 runs only a sub-workflow's published version, so the four
 * sub-workflows are published with `n8n publish:workflow` after the import (one n8n start each, about
 * 35 s of set-up in all), and N8N_USE_WORKFLOW_PUBLICATION_SERVICE=false makes n8n read that version
 * from the workflow itself (the service's own table is filled only by a running server). Inline
 * ("Define Below") sub-workflows are not an option: n8n refuses them our credential in the CLI.
 * BENCH_N8N_KEEP=1 keeps the temporary n8n user folder and the output of each `n8n execute`.
 *
 * The timing that excludes n8n's start-up comes from the sandbox's request log, polled every 25 ms
 * while n8n runs: the first and the last `limit=100` request bracket the listing (the last page's
 * latency and parsing are not in the bracket: about 1/500 of it). The wall time of `n8n execute` and
 * the Execute Workflow node's own time (listing + Split Out + Summarize) are reported next to it.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'fs';
import http from 'http';
import os from 'os';
import { join } from 'path';
import { performance } from 'perf_hooks';

import type { SandboxInfo } from './common';
import { control, packageRoot } from './common';
import { sandboxCredential } from '../test/sandbox/credential';

/** What test/e2e/install-n8n.js `paths()` returns (the parts used here). */
interface InstallPaths {
	root: string;
	nodeBin: string;
	nodeBinDir: string;
	n8nMain: string;
}

interface InstallModule {
	isInstalled(p?: InstallPaths): boolean;
	paths(): InstallPaths;
	PINS: { n8n: string; node: string };
}

interface RunResult {
	code: number | null;
	stdout: string;
	stderr: string;
	ms: number;
}

interface E2eLib {
	PACKAGE_NAME: string;
	NODE_TYPE: string;
	CREDENTIAL_TYPE: string;
	freePort(count?: number): Promise<number>;
	n8nEnv(inst: InstallPaths, userFolder: string, extra?: Record<string, string>): NodeJS.ProcessEnv & { N8N_USER_FOLDER: string };
	runN8n(inst: InstallPaths, env: NodeJS.ProcessEnv, args: string[], opts?: { timeoutMs?: number }): Promise<RunResult>;
	installPackageInto(userFolder: string): string;
	parseRawOutput(stdout: string): unknown;
}

export type N8nSide = 'httpRequest' | 'ours';

export interface N8nRun {
	/** First to last `limit=100` request in the sandbox log (n8n's start-up excluded). */
	listingMs: number;
	/** The whole `n8n execute` process: start-up, warm-up, listing, output, shutdown. */
	wallMs: number;
	/** The "Measured" Execute Workflow node's own time (listing + Split Out + Summarize), from n8n's run data. */
	nodeMs?: number;
	requests: number;
	failedRequests: number;
	/** People counted by the Summarize node at the end of the sub-workflow. */
	items: number;
}

export interface N8nMeasured {
	side: N8nSide;
	label: string;
	runs: N8nRun[];
	listingMs: number;
	wallMs: number;
	nodeMs?: number;
	requests: number;
	items: number;
}

export type N8nOutcome =
	| { ok: true; n8nVersion: string; nodeVersion: string; cache: string; rows: N8nMeasured[] }
	| { ok: false; reason: string; cache: string };

const CRED_ID = 'benchSandboxCred';
const CRED_NAME = 'Integration Service sandbox (bench)';
const LABELS: Record<N8nSide, string> = {
	httpRequest: 'n8n HTTP Request node (pagination)',
	ours: 'our node in the n8n application',
};

function loadE2e(): { install: InstallModule; lib: E2eLib } {
	const dir = join(packageRoot(), 'test', 'e2e');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const install = require(join(dir, 'install-n8n.js')) as InstallModule;
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const lib = require(join(dir, 'lib.js')) as E2eLib;
	return { install, lib };
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

type WfNode = Record<string, unknown>;

function node(name: string, type: string, typeVersion: number, x: number, parameters: Record<string, unknown>, extra: Record<string, unknown> = {}): WfNode {
	return { id: `${name.replace(/\W/g, '')}-${x}`, name, type, typeVersion, position: [x, 0], parameters, ...extra };
}

function chain(nodes: WfNode[]): Record<string, unknown> {
	const connections: Record<string, unknown> = {};
	for (let i = 0; i + 1 < nodes.length; i++) {
		connections[nodes[i].name as string] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	}
	return connections;
}

const SETTINGS = { executionOrder: 'v1', saveDataSuccessExecution: 'none', saveDataErrorExecution: 'all', saveManualExecutions: false, callerPolicy: 'any' };

function workflow(id: string, name: string, nodes: WfNode[]): Record<string, unknown> {
	return { id, name, active: false, nodes, connections: chain(nodes), settings: SETTINGS, pinData: {} };
}

/** The listing node(s) of one side; `warm`: 5 pages of 50 instead of Return All in pages of 100. */
function listingNodes(side: N8nSide, info: SandboxInfo, lib: E2eLib, warm: boolean): WfNode[] {
	if (side === 'httpRequest') {
		const http = node('HTTP Request', 'n8n-nodes-base.httpRequest', 4.2, 200, {
			method: 'GET',
			url: `${info.urls.crm}/api/people`,
			sendQuery: true,
			queryParameters: { parameters: [{ name: 'limit', value: warm ? '50' : '100' }] },
			sendHeaders: true,
			headerParameters: {
				parameters: [
					{ name: 'Authorization', value: `Bearer ${info.token}` },
					{ name: 'X-Service-Credential-Id', value: info.credentialId },
				],
			},
			options: {
				pagination: {
					pagination: {
						paginationMode: 'responseContainsNextURL',
						nextURL: '={{ $response.body._metadata.nextLink }}',
						paginationCompleteWhen: 'other',
						completeExpression: '={{ !$response.body._metadata.nextLink }}',
						limitPagesFetched: warm,
						...(warm ? { maxRequests: 5 } : {}),
					},
				},
			},
		});
		// The HTTP Request node gives one item per page ({people: [...], _metadata}); one per person:
		const split = node('Split Out', 'n8n-nodes-base.splitOut', 1, 400, { fieldToSplitOut: 'people', include: 'noOtherFields', options: {} });
		return [http, split];
	}
	return [
		node(
			'Integration Service',
			lib.NODE_TYPE,
			1,
			300,
			warm
				? { resource: 'person', operation: 'getAll', returnAll: false, limit: 250, simplify: false, options: { pageSize: 50 } }
				: { resource: 'person', operation: 'getAll', returnAll: true, simplify: false },
			{ credentials: { [lib.CREDENTIAL_TYPE]: { id: CRED_ID, name: CRED_NAME } } },
		),
	];
}

function subWorkflow(id: string, name: string, listing: WfNode[]): Record<string, unknown> {
	return workflow(id, name, [
		node('Start', 'n8n-nodes-base.executeWorkflowTrigger', 1.1, 0, { inputSource: 'passthrough' }),
		...listing,
		node('Count', 'n8n-nodes-base.summarize', 1.1, 600, { fieldsToSummarize: { values: [{ aggregation: 'count', field: 'id' }] }, options: {} }),
	]);
}

/**
 * Calls a sub-workflow from the database. (Inline "Define Below" sub-workflows are refused our
 * credential by n8n 2.41's per-user check in the CLI; sub-workflows from the database must be
 * published, which `n8n publish:workflow` does.)
 */
function callNode(name: string, x: number, workflowId: string): WfNode {
	return node(name, 'n8n-nodes-base.executeWorkflow', 1.1, x, {
		source: 'database',
		workflowId: { __rl: true, mode: 'id', value: workflowId },
		mode: 'once',
		options: { waitForSubWorkflow: true },
	});
}

/** Polls the sandbox's request log and notes when each request was first seen (performance.now()). */
class LogPoller {
	private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
	private readonly seen: Array<{ seq: number; at: number; limit?: string }> = [];
	private lastSeq = 0;
	private timer?: NodeJS.Timeout;
	private busy = false;
	private error?: Error;

	constructor(private readonly info: SandboxInfo, private readonly intervalMs = 25) {}

	start(): void {
		this.timer = setInterval(() => void this.poll(), this.intervalMs);
	}

	private fetch(): Promise<Array<{ seq: number; query?: Record<string, string>; status: number }>> {
		return new Promise((resolve, reject) => {
			const req = http.get(`${this.info.urls.crm}/__sandbox/requests?since=${this.lastSeq}`, { agent: this.agent }, (res) => {
				const chunks: Buffer[] = [];
				res.on('data', (c: Buffer) => chunks.push(c));
				res.on('end', () => {
					try {
						resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Array<{ seq: number; query?: Record<string, string>; status: number }>);
					} catch (error) {
						reject(error as Error);
					}
				});
				res.on('error', reject);
			});
			req.on('error', reject);
		});
	}

	private async poll(): Promise<void> {
		if (this.busy) return;
		this.busy = true;
		try {
			const records = await this.fetch();
			const at = performance.now();
			for (const r of records) {
				if (r.seq <= this.lastSeq) continue;
				this.seen.push({ seq: r.seq, at, limit: r.query?.limit });
				this.lastSeq = r.seq;
			}
		} catch (error) {
			this.error = error as Error;
		} finally {
			this.busy = false;
		}
	}

	/** Stops polling after one last poll; returns the requests with their first-seen time. */
	async stop(): Promise<typeof this.seen> {
		if (this.timer) clearInterval(this.timer);
		while (this.busy) await new Promise((r) => setTimeout(r, 5));
		await this.poll();
		this.agent.destroy();
		if (this.error && this.seen.length === 0) throw this.error;
		return this.seen;
	}
}

interface ParentRun {
	resultData?: { error?: { message?: string }; runData?: Record<string, Array<{ executionTime?: number; data?: { main?: Array<Array<{ json: Record<string, unknown> }>> } }>> };
}

function parentRunData(output: unknown): ParentRun['resultData'] {
	const o = output as { data?: ParentRun } | undefined;
	return o?.data?.resultData;
}

export interface N8nBenchOptions {
	info: SandboxInfo;
	people: number;
	reps: number;
	log: (message: string) => void;
}

/** Runs both sides `reps` times, interleaved; never throws: a problem becomes `{ ok: false, reason }`. */
export async function measureInN8n(options: N8nBenchOptions): Promise<N8nOutcome> {
	const { info, log } = options;
	let install: InstallModule;
	let lib: E2eLib;
	try {
		({ install, lib } = loadE2e());
	} catch (error) {
		return { ok: false, reason: `cannot load test/e2e/install-n8n.js or lib.js: ${(error as Error).message}`, cache: '' };
	}
	const inst = install.paths();
	if (!install.isInstalled(inst)) {
		return { ok: false, reason: `n8n ${install.PINS.n8n} is not installed in ${inst.root} (npm run test:e2e installs it)`, cache: inst.root };
	}
	const userFolder = mkdtempSync(join(os.tmpdir(), 'n8n-bench-'));
	try {
		lib.installPackageInto(userFolder);
		// Sub-workflows run from their published version (`publish:workflow` sets it); n8n 2.41's
		// publication service reads a table that only a running server fills, so it is switched off.
		const env = lib.n8nEnv(inst, userFolder, { N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'false' });
		const importDir = join(userFolder, 'import');
		mkdirSync(join(importDir, 'workflows'), { recursive: true });
		writeFileSync(
			join(importDir, 'credentials.json'),
			JSON.stringify([
				{
					id: CRED_ID,
					name: CRED_NAME,
					type: lib.CREDENTIAL_TYPE,
					data: sandboxCredential({ ...info, defaultCredentialId: info.credentialId }),
				},
			]),
		);
		const parents: Record<N8nSide, string> = { httpRequest: 'benchHttpParent', ours: 'benchOursParent' };
		const sides: N8nSide[] = ['httpRequest', 'ours'];
		const subIds: string[] = [];
		for (const side of sides) {
			const warmId = `${parents[side]}Warm`;
			const listId = `${parents[side]}List`;
			const files: Array<[string, Record<string, unknown>]> = [
				[warmId, subWorkflow(warmId, `bench ${side} warm-up`, listingNodes(side, info, lib, true))],
				[listId, subWorkflow(listId, `bench ${side} list`, listingNodes(side, info, lib, false))],
				[
					parents[side],
					workflow(parents[side], `bench ${side}`, [
						node('Manual', 'n8n-nodes-base.manualTrigger', 1, 0, {}),
						callNode('Warm-up', 200, warmId),
						callNode('Measured', 400, listId),
					]),
				],
			];
			for (const [id, wf] of files) writeFileSync(join(importDir, 'workflows', `${id}.json`), JSON.stringify(wf));
			subIds.push(warmId, listId);
		}
		log('n8n: importing the credential and workflows, publishing the sub-workflows');
		const setupStart = performance.now();
		let r = await lib.runN8n(inst, env, ['import:credentials', `--input=${join(importDir, 'credentials.json')}`]);
		if (r.code !== 0) throw new Error(`n8n import:credentials failed (exit ${r.code}): ${(r.stdout + r.stderr).trim().slice(-1500)}`);
		r = await lib.runN8n(inst, env, ['import:workflow', '--separate', `--input=${join(importDir, 'workflows')}`]);
		if (r.code !== 0) throw new Error(`n8n import:workflow failed (exit ${r.code}): ${(r.stdout + r.stderr).trim().slice(-1500)}`);
		// In the CLI's execution mode n8n runs a sub-workflow's published version only.
		for (const id of subIds) {
			r = await lib.runN8n(inst, env, ['publish:workflow', `--id=${id}`]);
			if (r.code !== 0) throw new Error(`n8n publish:workflow --id=${id} failed (exit ${r.code}): ${(r.stdout + r.stderr).trim().slice(-1500)}`);
		}
		log(`n8n: ready in ${((performance.now() - setupStart) / 1000).toFixed(1)} s`);

		const runs: Record<N8nSide, N8nRun[]> = { httpRequest: [], ours: [] };
		for (let rep = 0; rep < options.reps; rep++) {
			for (const side of sides) {
				await control(info, 'POST', '/__sandbox/reset');
				const poller = new LogPoller(info);
				poller.start();
				const brokerPort = await lib.freePort();
				const result = await lib.runN8n(inst, { ...env, N8N_RUNNERS_BROKER_PORT: String(brokerPort), N8N_LOG_LEVEL: 'info' }, ['execute', `--id=${parents[side]}`, '--rawOutput'], {
					timeoutMs: 600_000,
				});
				const seen = await poller.stop();
				if (process.env.BENCH_N8N_KEEP) {
					writeFileSync(join(userFolder, `execute-${side}-${rep + 1}.stdout`), result.stdout);
					writeFileSync(join(userFolder, `execute-${side}-${rep + 1}.stderr`), result.stderr);
				}
				const resultData = parentRunData(lib.parseRawOutput(result.stdout));
				if (result.code !== 0 || !resultData || resultData.error) {
					const why = resultData?.error?.message ?? (result.stdout + result.stderr).trim().split('\n').slice(-15).join('\n');
					throw new Error(`${LABELS[side]}: n8n execute failed (exit ${result.code}): ${why}`);
				}
				const finalLog = await control<Array<{ status: number }>>(info, 'GET', '/__sandbox/requests');
				const measured = resultData.runData?.Measured?.[0];
				const count = Number(measured?.data?.main?.[0]?.[0]?.json.count_id);
				const listing = seen.filter((s) => s.limit === '100');
				if (listing.length < 2) throw new Error(`${LABELS[side]}: the sandbox saw ${listing.length} list request(s) of 100`);
				const run: N8nRun = {
					listingMs: listing[listing.length - 1].at - listing[0].at,
					wallMs: result.ms,
					nodeMs: measured?.executionTime,
					requests: listing.length,
					// Statuses from the full log after the run (the poller may see a request before its answer).
					failedRequests: finalLog.filter((q) => q.status < 200 || q.status >= 300).length,
					items: count,
				};
				log(
					`${LABELS[side]} #${rep + 1}: listing ${(run.listingMs / 1000).toFixed(2)} s (sandbox log), node ${
						run.nodeMs === undefined ? '?' : (run.nodeMs / 1000).toFixed(2)
					} s, n8n execute ${(run.wallMs / 1000).toFixed(1)} s, ${run.requests} requests, ${run.items} people`,
				);
				if (run.items !== options.people) throw new Error(`${LABELS[side]}: counted ${run.items} people, expected ${options.people}`);
				if (run.failedRequests > 0) throw new Error(`${LABELS[side]}: ${run.failedRequests} failed requests`);
				runs[side].push(run);
			}
		}
		const rows = sides.map((side): N8nMeasured => {
			const list = runs[side];
			const nodeTimes = list.map((x) => x.nodeMs).filter((x): x is number => typeof x === 'number');
			return {
				side,
				label: LABELS[side],
				runs: list,
				listingMs: median(list.map((x) => x.listingMs)),
				wallMs: median(list.map((x) => x.wallMs)),
				nodeMs: nodeTimes.length ? median(nodeTimes) : undefined,
				requests: list[0].requests,
				items: list[0].items,
			};
		});
		return { ok: true, n8nVersion: install.PINS.n8n, nodeVersion: install.PINS.node, cache: inst.root, rows };
	} catch (error) {
		return { ok: false, reason: (error as Error).message.split('\n').slice(0, 8).join(' / '), cache: inst.root };
	} finally {
		if (process.env.BENCH_N8N_KEEP) log(`n8n: kept the user folder ${userFolder}`);
		else rmSync(userFolder, { recursive: true, force: true });
	}
}
