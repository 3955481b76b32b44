'use strict';
/** Helpers shared by the e2e scripts: run-e2e.js, editor-check.js, trigger-e2e.js and ../e2e-queue (plain Node, no dependencies). */
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');

const REPO = path.resolve(__dirname, '..', '..');
const PACKAGE_NAME = 'n8n-nodes-integration-service';
const NODE_TYPE = `${PACKAGE_NAME}.integrationService`;
const CREDENTIAL_TYPE = 'integrationServiceApi';
/** The sandbox's hosts, on four consecutive ports in this order. */
const HOSTS = ['crm', 'universal', 'los', 'calendar'];
/** The n8n owner the editor check and the trigger scenario sign in as. */
const OWNER = {
	email: 'e2e-owner@example.com',
	firstName: 'E2E',
	lastName: 'Owner',
	password: 'E2e-Passw0rd!',
};

/** What run-e2e.js knows of its run (n8n and Node version, core or full), for its result file. */
const runInfo = {};
function recordRun(info) {
	Object.assign(runInfo, info);
}

/**
 * With E2E_RESULT_FILE set, the run's outcome as JSON there (read by run-matrix.js): the recorded run,
 * `status` passed | failed | skipped, checks passed and failed, the groups, the seconds.
 */
function writeResult(status, results, t0, reason) {
	const file = process.env.E2E_RESULT_FILE;
	if (!file) return;
	const checks = results.flatMap((g) => g.details);
	const result = {
		...runInfo,
		status,
		reason,
		passed: checks.filter((d) => d.startsWith('ok')).length,
		failed: checks.filter((d) => d.startsWith('FAIL')).length,
		groups: results.map((g) => ({ name: g.name, ok: g.ok, checks: g.details.length })),
		seconds: Math.round((Date.now() - t0) / 1000),
	};
	fs.writeFileSync(file, JSON.stringify(result, null, 2));
}

/**
 * The checks of one run, in named groups. check(group, ok, what) records one, logs it and returns ok;
 * skip(reason) and summary() call `cleanup` and end the process: 2 skipped, 0 every group passed, 1 a
 * group failed (or, with `failWhenEmpty`, no check ran). `tag` starts each log line, `label` the last
 * line ("<label>: passed ...", "<label>: FAILED: ...", "<label>: skipped: <reason>").
 */
function createRun({ tag, label, cleanup = () => {}, failWhenEmpty = false }) {
	const t0 = Date.now();
	const results = []; // {name, ok, details[]}
	const log = (m) =>
		console.log(`[${tag} ${((Date.now() - t0) / 1000).toFixed(1).padStart(6)}s] ${m}`);
	function check(group, ok, what) {
		let g = results.find((r) => r.name === group);
		if (!g) results.push((g = { name: group, ok: true, details: [] }));
		g.details.push(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
		if (!ok) g.ok = false;
		log(`${ok ? 'ok  ' : 'FAIL'} [${group}] ${what}`);
		return ok;
	}
	function skip(reason) {
		cleanup();
		writeResult('skipped', results, t0, String(reason).split('\n')[0]);
		console.log(`${label}: skipped: ${String(reason).split('\n')[0]}`);
		process.exit(2);
	}
	function summary() {
		const failed = results.filter((g) => !g.ok);
		console.log(`\n==== ${label} summary ====`);
		for (const g of results)
			console.log(`${g.ok ? 'PASS' : 'FAIL'}  ${g.name} (${g.details.length} check(s))`);
		console.log(`total ${((Date.now() - t0) / 1000).toFixed(1)} s`);
		cleanup();
		const failedRun = failed.length > 0 || (failWhenEmpty && results.length === 0);
		writeResult(failedRun ? 'failed' : 'passed', results, t0);
		if (failedRun) {
			console.log(
				`${label}: FAILED: ${failed
					.map(
						(g) =>
							`${g.name}: ${g.details
								.filter((d) => d.startsWith('FAIL'))
								.map((d) => d.slice(5))
								.join('; ')}`,
					)
					.join(' | ')
					.slice(0, 1500)}`,
			);
			process.exit(1);
		}
		console.log(`${label}: passed (${results.length} group(s))`);
		process.exit(0);
	}
	return { t0, log, results, check, skip, summary };
}

/** The package files package.json names (nodes, credentials) that are not built (npm run build). */
function missingBuiltFiles() {
	const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
	return [...(pkg.n8n.nodes || []), ...(pkg.n8n.credentials || [])].filter(
		(f) => !fs.existsSync(path.join(REPO, f)),
	);
}

/**
 * A port that is free now on 127.0.0.1 (and, with count > 1, `count` consecutive free ports), drawn below
 * the kernel's ephemeral range (ip_local_port_range, 32768 and up): a port the kernel hands out can be
 * taken by any outgoing connection on a busy machine in the minute n8n needs to start listening on it.
 */
async function freePort(count = 1) {
	for (let attempt = 0; attempt < 200; attempt++) {
		const first = 20000 + Math.floor(Math.random() * (12000 - count));
		let ok = true;
		for (let i = 0; i < count && ok; i++) ok = await isFree(first + i);
		if (ok) return first;
	}
	throw new Error(`no ${count} consecutive free ports found`);
}

function isFree(port) {
	return new Promise((resolve) => {
		const s = net.createServer();
		s.once('error', () => resolve(false));
		s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
	});
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** fetch() with a timeout; returns the Response or throws. */
async function httpRequest(url, opts = {}, timeoutMs = 10000) {
	const ac = new AbortController();
	const t = setTimeout(() => ac.abort(), timeoutMs);
	try {
		return await fetch(url, { ...opts, signal: ac.signal });
	} finally {
		clearTimeout(t);
	}
}

/** Polls url until it answers 200, the child exits, or timeoutMs passes. */
async function waitForHttp(url, { timeoutMs = 120000, child, what = url } = {}) {
	const deadline = Date.now() + timeoutMs;
	let last = '';
	while (Date.now() < deadline) {
		if (child && child.exitCode !== null)
			throw new Error(`${what} exited with code ${child.exitCode} before answering ${url}`);
		try {
			const r = await httpRequest(url, {}, 3000);
			if (r.status === 200) return r;
			last = `HTTP ${r.status}`;
		} catch (e) {
			last = e.cause ? e.cause.code || e.message : e.message;
		}
		await sleep(500);
	}
	throw new Error(
		`${what} did not answer ${url} within ${Math.round(timeoutMs / 1000)} s (last: ${last})`,
	);
}

/** Sends `signal` to a detached child's process group, or to the child alone when that fails. */
function signalGroup(child, signal) {
	try {
		process.kill(-child.pid, signal);
	} catch {
		try {
			child.kill(signal);
		} catch {}
	}
}

/** Stops a detached child and its group: SIGTERM, SIGKILL after 15 s; resolves when it has closed. */
function stop(child) {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
	return new Promise((resolve) => {
		const timer = setTimeout(() => {
			signalGroup(child, 'SIGKILL');
			resolve();
		}, 15000);
		child.once('close', () => {
			clearTimeout(timer);
			resolve();
		});
		signalGroup(child, 'SIGTERM');
	});
}

/** The sandbox's hosts by name, started on `port` and the three ports after it. */
function sandboxUrls(port) {
	return Object.fromEntries(HOSTS.map((h, i) => [h, `http://127.0.0.1:${port + i}`]));
}

/** The requests the sandbox (`sb.urls`) has logged since its last reset. */
async function sandboxRequests(sb, timeoutMs) {
	const body = await (await httpRequest(`${sb.urls.crm}/__sandbox/requests`, {}, timeoutMs)).json();
	return Array.isArray(body) ? body : body.requests || [];
}

/** Resets the sandbox: its seeded data back, its request log empty. */
async function sandboxReset(sb, timeoutMs) {
	await httpRequest(`${sb.urls.crm}/__sandbox/reset`, { method: 'POST' }, timeoutMs);
}

/**
 * Environment for every n8n process: its own user folder, Node 24 first on PATH, and everything that
 * would reach the internet switched off.
 */
function n8nEnv(inst, userFolder, extra = {}) {
	const env = { ...process.env };
	for (const k of Object.keys(env))
		if (/^(npm_|N8N_|DB_|NODE_OPTIONS$|NODE_PATH$|EXECUTIONS_|GENERIC_TIMEZONE$)/.test(k))
			delete env[k];
	return {
		...env,
		PATH: `${inst.nodeBinDir}${path.delimiter}${process.env.PATH}`,
		N8N_USER_FOLDER: userFolder,
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_AI_ENABLED: 'false',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_PUBLIC_API_DISABLED: 'true',
		N8N_LOG_LEVEL: process.env.E2E_N8N_LOG_LEVEL || 'warn',
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		EXTERNAL_FRONTEND_HOOKS_URLS: '',
		N8N_DEV_RELOAD: 'false',
		GENERIC_TIMEZONE: 'UTC',
		TZ: 'UTC',
		...extra,
	};
}

/** Spawns `node24 n8n <args>`; resolves {code, signal, stdout, stderr, ms} (signal: what ended it, when code is null). */
function runN8n(inst, env, args, { timeoutMs = 180000 } = {}) {
	return new Promise((resolve) => {
		const t0 = Date.now();
		const child = spawn(inst.nodeBin, [inst.n8nMain, ...args], {
			cwd: env.N8N_USER_FOLDER,
			env,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d) => (stdout += d));
		child.stderr.on('data', (d) => (stderr += d));
		const timer = setTimeout(() => {
			stderr += `\n[e2e] killed after ${timeoutMs} ms`;
			child.kill('SIGKILL');
		}, timeoutMs);
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			resolve({ code, signal, stdout, stderr, ms: Date.now() - t0 });
		});
	});
}

/**
 * Installs the package into <userFolder>/.n8n/nodes/node_modules/<package>, like a user's install: from
 * the tarball `npm pack` made when E2E_TARBALL names one (what the registry would serve; the package has
 * no dependencies, so unpacking it is all npm would do), else package.json + dist/ of the working tree.
 */
function installPackageInto(userFolder) {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const target = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	fs.rmSync(target, { recursive: true, force: true });
	fs.mkdirSync(target, { recursive: true });
	const tarball = process.env.E2E_TARBALL;
	if (tarball) {
		const r = spawnSync('tar', [
			'-xzf',
			path.resolve(tarball),
			'-C',
			target,
			'--strip-components=1',
		]);
		if (r.status !== 0) throw new Error(`could not unpack ${tarball}: ${r.stderr}`);
	} else {
		fs.copyFileSync(path.join(REPO, 'package.json'), path.join(target, 'package.json'));
		fs.cpSync(path.join(REPO, 'dist'), path.join(target, 'dist'), { recursive: true });
		if (fs.existsSync(path.join(REPO, 'index.js')))
			fs.copyFileSync(path.join(REPO, 'index.js'), path.join(target, 'index.js'));
	}
	const pkg = JSON.parse(fs.readFileSync(path.join(target, 'package.json'), 'utf8'));
	// What n8n's community-package installer leaves behind: a package.json listing the package.
	fs.writeFileSync(
		path.join(nodesDir, 'package.json'),
		JSON.stringify(
			{ name: 'installed-nodes', private: true, dependencies: { [PACKAGE_NAME]: pkg.version } },
			null,
			2,
		),
	);
	return target;
}

/**
 * `n8n start` (detached, in `children`) on a free port of 127.0.0.1 (or `port`), called `host` in its URLs; with
 * `webhookUrl`, WEBHOOK_URL is its base URL (what n8n hands a trigger as its production URL). Resolves
 * once /healthz/readiness answers: { base, child, output() (its last lines) }.
 */
async function startN8n({
	inst,
	env,
	log,
	children,
	host = 'localhost',
	webhookUrl = false,
	logPrefix = '',
	port: wantedPort,
}) {
	const port = wantedPort ?? (await freePort());
	const brokerPort = await freePort();
	const base = `http://${host}:${port}`;
	const startEnv = {
		...env,
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: host,
		N8N_PROTOCOL: 'http',
		...(webhookUrl ? { WEBHOOK_URL: `${base}/` } : {}),
		N8N_EDITOR_BASE_URL: `${base}/`,
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_LOG_LEVEL: process.env.E2E_N8N_LOG_LEVEL || 'info',
	};
	log(`${logPrefix}starting n8n start on port ${port}`);
	const child = spawn(inst.nodeBin, [inst.n8nMain, 'start'], {
		cwd: env.N8N_USER_FOLDER,
		env: startEnv,
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	children.push(child);
	let out = '';
	child.stdout.on('data', (d) => (out = (out + d).slice(-30000)));
	child.stderr.on('data', (d) => (out = (out + d).slice(-30000)));
	const t = Date.now();
	try {
		await waitForHttp(`${base}/healthz/readiness`, { timeoutMs: 180000, child, what: 'n8n start' });
		// n8n 1.x answers readiness before its REST routes exist (they answer 404 until then).
		await waitForHttp(`${base}/rest/settings`, { timeoutMs: 120000, child, what: 'n8n start' });
	} catch (e) {
		throw new Error(`${e.message}\n${out.slice(-3000)}`);
	}
	log(`${logPrefix}n8n ready after ${((Date.now() - t) / 1000).toFixed(1)} s`);
	return { base, child, output: () => out };
}

/**
 * A session of OWNER in the n8n at `base`: sets the owner up, or signs in when the user folder has one
 * already. Resolves { status, cookie, how } (how: the request that answered).
 */
async function ownerSession(base) {
	const cookieOf = (r) =>
		(r.headers.getSetCookie
			? r.headers.getSetCookie()
			: [r.headers.get('set-cookie')].filter(Boolean)
		)
			.map((c) => c.split(';')[0])
			.join('; ');
	let res = await httpRequest(`${base}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(OWNER),
	});
	let cookie = cookieOf(res);
	let how = 'POST /rest/owner/setup';
	if (res.status === 400 && !cookie) {
		res = await httpRequest(`${base}/rest/login`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				emailOrLdapLoginId: OWNER.email,
				email: OWNER.email,
				password: OWNER.password,
			}),
		});
		cookie = cookieOf(res);
		how = 'POST /rest/login (owner existed)';
	}
	return { status: res.status, cookie, how };
}

/**
 * The CLI arguments that make workflow `id` active: `publish:workflow` from n8n 2.0 on, where a workflow
 * runs its published version; `update:workflow --active=true` on 1.x, which has no publishing.
 */
function activateArgs(inst, id) {
	return Number(String(inst.version || '2').split('.')[0]) >= 2
		? ['publish:workflow', `--id=${id}`]
		: ['update:workflow', `--id=${id}`, '--active=true'];
}

/** Extracts the JSON document that `n8n execute --rawOutput` prints after its log lines. */
function parseRawOutput(stdout) {
	const text = String(stdout);
	// The JSON starts at the first line that is exactly "{" or "[" (pretty-printed) or begins with '{"'.
	const lines = text.split('\n');
	for (let i = 0; i < lines.length; i++) {
		const l = lines[i].trimEnd();
		if (l === '{' || l === '[' || l.startsWith('{"') || l.startsWith('[{')) {
			const candidate = lines.slice(i).join('\n').trim();
			try {
				return JSON.parse(candidate);
			} catch {
				// try a shorter tail: maybe trailing log lines follow
				const end = Math.max(candidate.lastIndexOf('}'), candidate.lastIndexOf(']'));
				try {
					return JSON.parse(candidate.slice(0, end + 1));
				} catch {}
			}
		}
	}
	return undefined;
}

module.exports = {
	REPO,
	PACKAGE_NAME,
	NODE_TYPE,
	CREDENTIAL_TYPE,
	HOSTS,
	OWNER,
	createRun,
	recordRun,
	missingBuiltFiles,
	freePort,
	isFree,
	sleep,
	httpRequest,
	waitForHttp,
	n8nEnv,
	runN8n,
	installPackageInto,
	parseRawOutput,
	signalGroup,
	stop,
	sandboxUrls,
	sandboxRequests,
	sandboxReset,
	startN8n,
	ownerSession,
	activateArgs,
};
