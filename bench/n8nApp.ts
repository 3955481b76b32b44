/**
 * Drives the real n8n application (the install `npm run test:e2e` uses, test/e2e/install-n8n.js):
 * a temporary user folder with our package and the floor package in its nodes directory (as a user's
 * community-package install leaves them), the credentials and workflows imported with n8n's CLI, then
 * `n8n execute` of a parent workflow per measurement, watched from outside: CPU time and memory of the
 * n8n process from /proc, and optionally a V8 CPU profile (--cpu-prof).
 */
import { spawn, spawnSync } from 'child_process';
import {
	closeSync,
	copyFileSync,
	existsSync,
	openSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'fs';
import os from 'os';
import { join } from 'path';

import type { SandboxInfo } from './common';
import { packageRoot } from './common';
import { sandboxCredential } from '../test/sandbox/credential';
import {
	CREDENTIALS,
	type Contender,
	type CredentialRef,
	measuredName,
	subWorkflow,
	subWorkflowId,
} from './workflows';

/** Another sandbox the workflows reach with their own credential of our type. */
export interface OtherSandbox {
	ref: CredentialRef;
	info: SandboxInfo;
}

interface InstallPaths {
	root: string;
	nodeBin: string;
	nodeBinDir: string;
	n8nMain: string;
	appDir: string;
}

interface InstallModule {
	paths(): InstallPaths;
	isInstalled(p: InstallPaths): boolean;
	ensureInstalled(options: { log?: (m: string) => void; browser?: boolean }): Promise<InstallPaths>;
	PINS: { n8n: string; node: string };
}

interface E2eLib {
	PACKAGE_NAME: string;
	n8nEnv(inst: InstallPaths, userFolder: string, extra?: Record<string, string>): NodeJS.ProcessEnv;
	runN8n(
		inst: InstallPaths,
		env: NodeJS.ProcessEnv,
		args: string[],
		options?: { timeoutMs?: number },
	): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }>;
	installPackageInto(userFolder: string): string;
	parseRawOutput(stdout: string): unknown;
	freePort(): Promise<number>;
	startN8n(options: {
		inst: InstallPaths;
		env: NodeJS.ProcessEnv;
		log: (m: string) => void;
		children: unknown[];
		host?: string;
	}): Promise<{ child: unknown }>;
	stop(child: unknown): Promise<void>;
}

const FLOOR_PACKAGE = 'n8n-nodes-bench-floor';

/** One sample of the n8n process, taken from /proc every few ms. */
export interface ProcSample {
	epochMs: number;
	/** User + system CPU time of the whole process (all threads), ms. */
	cpuMs: number;
	rss: number;
	/** The kernel's high-water mark of RSS so far. */
	hwm: number;
}

export interface BranchResult {
	key: string;
	/** The Execute Workflow node's own time: the contender's whole sub-workflow. */
	ms: number;
	startEpochMs: number;
	/** People counted at the end of the sub-workflow. */
	count: number;
	/** CPU time of the n8n process during the branch. */
	cpuMs: number;
	/** RSS when the branch started and the highest RSS seen while it ran. */
	rssStart: number;
	rssPeak: number;
}

export interface ExecuteResult {
	wallMs: number;
	branches: Map<string, BranchResult>;
	/** The CPU profile (--cpu-prof) when asked for. */
	profilePath?: string;
}

function loadE2e(): { install: InstallModule; lib: E2eLib } {
	const dir = join(packageRoot(), 'test', 'e2e');
	const install = require(join(dir, 'install-n8n.js')) as InstallModule;
	const lib = require(join(dir, 'lib.js')) as E2eLib;
	return { install, lib };
}

const CLOCK_TICK_MS = (() => {
	const r = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
	const hz = Number(r.stdout?.trim());
	return 1000 / (Number.isFinite(hz) && hz > 0 ? hz : 100);
})();

function readProc(pid: number): ProcSample | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		// Fields after the command name (which may contain spaces) in parentheses; utime and stime are 14 and 15.
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		const cpuMs = (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
		const status = readFileSync(`/proc/${pid}/status`, 'utf8');
		const kib = (name: string) =>
			Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0) * 1024;
		return { epochMs: Date.now(), cpuMs, rss: kib('VmRSS'), hwm: kib('VmHWM') };
	} catch {
		return undefined;
	}
}

/** The value of `pick` at time t, interpolated between the samples around it. */
function at(samples: ProcSample[], t: number, pick: (s: ProcSample) => number): number {
	if (samples.length === 0) return NaN;
	if (t <= samples[0].epochMs) return pick(samples[0]);
	for (let i = 1; i < samples.length; i++) {
		const b = samples[i];
		if (b.epochMs >= t) {
			const a = samples[i - 1];
			const f = b.epochMs === a.epochMs ? 1 : (t - a.epochMs) / (b.epochMs - a.epochMs);
			return pick(a) + f * (pick(b) - pick(a));
		}
	}
	return pick(samples[samples.length - 1]);
}

export interface RunDataEntry {
	startTime?: number;
	executionTime?: number;
	data?: { main?: Array<Array<{ json: Record<string, unknown> }> | null> };
}

type ResultData = {
	error?: { message?: string; description?: string };
	runData?: Record<string, RunDataEntry[]>;
};

interface RawOutput {
	data?: { resultData?: ResultData };
}

/** One `n8n execute` watched from outside: its run data and the /proc samples of the n8n process. */
export interface WatchedRun {
	wallMs: number;
	runData: Record<string, RunDataEntry[]>;
	samples: ProcSample[];
	profilePath?: string;
}

/** The highest RSS between `from` and `to` (epoch ms), and RSS at `from`. */
export function rssWindow(
	samples: ProcSample[],
	from: number,
	to: number,
): { rssStart: number; rssPeak: number } {
	const inside = samples.filter((s) => s.epochMs >= from && s.epochMs <= to);
	const hwmFrom = at(samples, from, (s) => s.hwm);
	const hwmTo = at(samples, to, (s) => s.hwm);
	return {
		rssStart: at(samples, from, (s) => s.rss),
		rssPeak: Math.max(...inside.map((s) => s.rss), hwmTo > hwmFrom ? hwmTo : 0),
	};
}

/** A temporary n8n user folder with both packages, the credentials and the contenders' sub-workflows. */
export class N8nApp {
	private constructor(
		readonly inst: InstallPaths,
		readonly versions: { n8n: string; node: string },
		private readonly lib: E2eLib,
		readonly userFolder: string,
		private readonly env: NodeJS.ProcessEnv,
	) {}

	/** Installs n8n if needed (the end-to-end test's installer), then prepares a user folder. Throws with a one-line reason. */
	static async open(
		info: SandboxInfo,
		others: OtherSandbox[],
		contenders: Contender[],
		log: (m: string) => void,
	): Promise<N8nApp> {
		const { install, lib } = loadE2e();
		let inst = install.paths();
		if (!install.isInstalled(inst)) {
			log(
				`n8n ${install.PINS.n8n} is not installed in ${inst.root}: installing it (several minutes, once)`,
			);
			inst = await install.ensureInstalled({ log: (m) => log(`install: ${m}`), browser: false });
		}
		const userFolder = mkdtempSync(join(os.tmpdir(), 'n8n-bench-'));
		// Sub-workflows run from their published version; n8n 2.41's publication service reads a table
		// that only a running server fills, so it is switched off.
		const env = lib.n8nEnv(inst, userFolder, { N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'false' });
		const app = new N8nApp(
			inst,
			{ n8n: install.PINS.n8n, node: install.PINS.node },
			lib,
			userFolder,
			env,
		);
		try {
			app.installPackages();
			await app.importAll(info, others, contenders, log);
		} catch (error) {
			app.close();
			throw error;
		}
		return app;
	}

	/** Our package as a user's install leaves it, and the floor package next to it. */
	private installPackages(): void {
		this.lib.installPackageInto(this.userFolder);
		const nodesDir = join(this.userFolder, '.n8n', 'nodes');
		const floor = join(nodesDir, 'node_modules', FLOOR_PACKAGE);
		mkdirSync(join(floor, 'dist'), { recursive: true });
		copyFileSync(
			join(__dirname, 'floor', 'BenchFloor.node.js'),
			join(floor, 'dist', 'BenchFloor.node.js'),
		);
		writeFileSync(
			join(floor, 'package.json'),
			JSON.stringify(
				{
					name: FLOOR_PACKAGE,
					version: '0.0.0',
					private: true,
					main: 'dist/BenchFloor.node.js',
					n8n: { n8nNodesApiVersion: 1, nodes: ['dist/BenchFloor.node.js'] },
				},
				null,
				2,
			),
		);
		const manifest = join(nodesDir, 'package.json');
		const nodesPackage = JSON.parse(readFileSync(manifest, 'utf8')) as {
			dependencies: Record<string, string>;
		};
		nodesPackage.dependencies[FLOOR_PACKAGE] = '0.0.0';
		writeFileSync(manifest, JSON.stringify(nodesPackage, null, 2));
	}

	private async cli(args: string[]): Promise<void> {
		const r = await this.lib.runN8n(this.inst, this.env, args, { timeoutMs: 300_000 });
		if (r.code !== 0)
			throw new Error(
				`n8n ${args[0]} failed (exit ${r.code}): ${(r.stdout + r.stderr).trim().slice(-1500)}`,
			);
	}

	private async importAll(
		info: SandboxInfo,
		others: OtherSandbox[],
		contenders: Contender[],
		log: (m: string) => void,
	): Promise<void> {
		const started = performance.now();
		const dir = join(this.userFolder, 'import');
		mkdirSync(join(dir, 'workflows'), { recursive: true });
		const ours = (ref: CredentialRef, sandbox: SandboxInfo) => ({
			id: ref.id,
			name: ref.name,
			type: CREDENTIALS.ours.type,
			data: sandboxCredential({ ...sandbox, defaultCredentialId: sandbox.credentialId }),
		});
		writeFileSync(
			join(dir, 'credentials.json'),
			JSON.stringify([
				ours(CREDENTIALS.ours, info),
				...others.map((o) => ours(o.ref, o.info)),
				// What a user of the HTTP Request node would store: a Header Auth credential with the token.
				{
					id: CREDENTIALS.header.id,
					name: CREDENTIALS.header.name,
					type: CREDENTIALS.header.type,
					data: { name: 'Authorization', value: `Bearer ${info.token}` },
				},
			]),
		);
		for (const c of contenders)
			writeFileSync(
				join(dir, 'workflows', `${subWorkflowId(c.key)}.json`),
				JSON.stringify(subWorkflow(c)),
			);
		log(`n8n: importing the credentials and ${contenders.length} sub-workflows`);
		await this.cli(['import:credentials', `--input=${join(dir, 'credentials.json')}`]);
		await this.cli(['import:workflow', '--separate', `--input=${join(dir, 'workflows')}`]);
		this.publish(contenders.map((c) => subWorkflowId(c.key)));
		log(
			`n8n: ready in ${((performance.now() - started) / 1000).toFixed(1)} s (user folder ${this.userFolder})`,
		);
	}

	/**
	 * What `n8n publish:workflow --id=…` does (WorkflowRepository.publishVersion: active, activeVersionId =
	 * the current version, which must be in the history), for all sub-workflows in one statement
	 * instead of one n8n start per workflow.
	 */
	private publish(ids: string[]): void {
		const script = `
			const sqlite3 = require(${JSON.stringify(join(this.inst.appDir, 'node_modules', 'sqlite3'))});
			const db = new sqlite3.Database(${JSON.stringify(join(this.userFolder, '.n8n', 'database.sqlite'))});
			const ids = ${JSON.stringify(ids)};
			const marks = ids.map(() => '?').join(',');
			db.run('UPDATE workflow_entity SET active = 1, activeVersionId = versionId WHERE id IN (' + marks + ') AND versionId IN (SELECT versionId FROM workflow_history h WHERE h.workflowId = workflow_entity.id)', ids, function (err) {
				if (err) { console.error(err.message); process.exit(1); }
				console.log(this.changes);
				db.close();
			});`;
		const r = spawnSync(this.inst.nodeBin, ['-e', script], { encoding: 'utf8' });
		if (r.status !== 0 || Number(r.stdout.trim()) !== ids.length) {
			throw new Error(
				`publishing the sub-workflows failed: ${r.stdout.trim()} of ${ids.length} published; ${r.stderr.trim().slice(-500)}`,
			);
		}
	}

	/** Imports (or replaces) parent workflows. */
	async importParents(parents: Array<Record<string, unknown>>): Promise<void> {
		const dir = mkdtempSync(join(this.userFolder, 'parents-'));
		for (const p of parents) writeFileSync(join(dir, `${String(p.id)}.json`), JSON.stringify(p));
		await this.cli(['import:workflow', '--separate', `--input=${dir}`]);
		rmSync(dir, { recursive: true, force: true });
	}

	/**
	 * `n8n start` once and stop: it writes the roles' scopes into the new database, as on every real
	 * instance (without them `n8n execute` refuses an inline sub-workflow's credential).
	 */
	async startOnce(log: (m: string) => void): Promise<void> {
		const n8n = await this.lib.startN8n({
			inst: this.inst,
			env: this.env,
			log,
			children: [],
			host: '127.0.0.1',
		});
		await this.lib.stop(n8n.child);
	}

	/** `n8n execute --id=<parent>`: times each measured branch from n8n's run data, CPU and memory from /proc. */
	async execute(
		parentId: string,
		keys: string[],
		options: { profileDir?: string; timeoutMs?: number; nodeOptions?: string[] } = {},
	): Promise<ExecuteResult> {
		const { wallMs, runData, samples, profilePath } = await this.watch(parentId, options);
		const branches = new Map<string, BranchResult>();
		for (const key of keys) {
			const entry = runData[measuredName(key)]?.[0];
			if (!entry || entry.startTime === undefined || entry.executionTime === undefined)
				throw new Error(`${parentId}: no run data for ${measuredName(key)}`);
			const from = entry.startTime;
			const to = from + entry.executionTime;
			branches.set(key, {
				key,
				ms: entry.executionTime,
				startEpochMs: from,
				count: Number(entry.data?.main?.[0]?.[0]?.json.count_id),
				cpuMs: at(samples, to, (s) => s.cpuMs) - at(samples, from, (s) => s.cpuMs),
				...rssWindow(samples, from, to),
			});
		}
		return { wallMs, branches, profilePath };
	}

	/** `n8n execute --id=<parent>` with the n8n process sampled from /proc; throws when the run failed. */
	async watch(
		parentId: string,
		options: { profileDir?: string; timeoutMs?: number; nodeOptions?: string[] } = {},
	): Promise<WatchedRun> {
		const brokerPort = await this.lib.freePort();
		const nodeArgs = [
			...(options.nodeOptions ?? []),
			...(options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : []),
		];
		// n8n exits right after printing the run data: into a pipe a large print is cut short, into a file it is written whole.
		const outFile = join(this.userFolder, `execute-${parentId}.json`);
		const out = openSync(outFile, 'w');
		const child = spawn(
			this.inst.nodeBin,
			[...nodeArgs, this.inst.n8nMain, 'execute', `--id=${parentId}`, '--rawOutput'],
			{
				cwd: this.userFolder,
				env: { ...this.env, N8N_RUNNERS_BROKER_PORT: String(brokerPort), N8N_LOG_LEVEL: 'info' },
				stdio: ['ignore', out, 'pipe'],
			},
		);
		closeSync(out);
		const started = performance.now();
		const samples: ProcSample[] = [];
		const sampler = setInterval(() => {
			const s = child.pid ? readProc(child.pid) : undefined;
			if (s) samples.push(s);
		}, 20);
		let stderr = '';
		child.stderr?.setEncoding('utf8').on('data', (t: string) => (stderr += t));
		const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 900_000);
		const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
			child.on('close', (c, s) => resolve([c, s])),
		);
		clearTimeout(timer);
		clearInterval(sampler);
		const wallMs = performance.now() - started;
		const stdout = readFileSync(outFile, 'utf8');
		rmSync(outFile, { force: true });
		const raw = this.lib.parseRawOutput(stdout) as RawOutput | undefined;
		const resultData = raw?.data?.resultData;
		if (process.env.BENCH_N8N_KEEP)
			writeFileSync(
				join(this.userFolder, `execute-${parentId}.out`),
				`${stdout}\n----- stderr\n${stderr}`,
			);
		if (code !== 0 || !resultData || resultData.error) {
			const why = resultData?.error
				? `${resultData.error.message ?? ''} ${resultData.error.description ?? ''}`
				: (stdout + stderr).trim().split('\n').slice(-20).join('\n');
			throw new Error(
				`n8n execute --id=${parentId} failed (${signal ? `ended by ${signal}` : `exit ${code}`}): ${why}`,
			);
		}
		let profilePath: string | undefined;
		if (options.profileDir) {
			// Only the n8n process's own profile (a task runner it starts would write its own).
			const file = readdirSync(options.profileDir).find(
				(f) => f.endsWith('.cpuprofile') && f.includes(`.${child.pid}.`),
			);
			if (file) profilePath = join(options.profileDir, file);
		}
		return { wallMs, runData: resultData.runData ?? {}, samples, profilePath };
	}

	close(): void {
		if (process.env.BENCH_N8N_KEEP) return;
		if (existsSync(this.userFolder)) rmSync(this.userFolder, { recursive: true, force: true });
	}
}
