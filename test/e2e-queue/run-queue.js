#!/usr/bin/env node
'use strict';
/**
 * Queue-mode proof in the real n8n application (`npm run test:e2e:queue`): the distributed setup
 * teams scale out to. One n8n main process (webhooks) and two `n8n worker` processes (executions),
 * Redis as the queue, Postgres as the database, all on 127.0.0.1, each n8n process with its own user
 * folder holding our built package the way a user's install does, and one shared encryption key.
 *
 *  1. ten executions of Person › Create (50 items each, concurrency 4) started at once through the
 *     main process: 500 people created exactly once, every execution succeeded, both workers ran some
 *  2. Return All of 5,000 people on a worker: every item, in the service's order
 *  3. the trigger node (when this build has it and the sandbox delivers events)
 *  4. both credential modes (access token; client ID and secret) on workers
 *  5. the trigger behind a separate webhook process (`n8n webhook`), the main process restarted without
 *     production webhooks: a redelivery after both restart starts nothing (webhook-process-scenario.js)
 *
 * Assertions use the sandbox's request log, n8n's executions in Postgres (execution_entity) and the
 * main process's log, where n8n records which worker (its host id) finished each execution.
 *
 * Exit: 0 passed, 1 failed, 2 skipped (n8n, Redis or Postgres could not be installed; the reason is
 * on the last line: "e2e-queue: skipped: <reason>").
 * Options: --keep (keep the temporary folder). Environment: N8N_E2E_CACHE, E2E_SANDBOX (see
 * ../e2e/run-e2e.js), E2E_QUEUE_VERBOSE=1 (print the n8n processes' output at the end).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const { spawn, spawnSync } = require('node:child_process');
const { ensureInstalled, SkipError: InstallSkip, PINS } = require('../e2e/install-n8n');
const L = require('../e2e/lib');
const S = require('./services');
const { PATHS, buildWorkflows } = require('./workflows');
const trigger = require('./trigger-scenario');
const webhookProcess = require('./webhook-process-scenario');

const BATCHES = 10;
const PER_BATCH = 50;
const LISTED = 5000;
const WORKERS = 2;
const TOKEN_CRED = { id: 'queueTokenCred', name: 'Integration Service (access token)' };
const CLIENT_CRED = { id: 'queueClientCred', name: 'Integration Service (client id and secret)' };

const keep = process.argv.includes('--keep');
const { log, results, check, skip, summary } = L.createRun({
	tag: 'queue',
	label: 'e2e-queue',
	cleanup,
	failWhenEmpty: true,
});
const children = []; // { name, child, signal, output() }
let tmpRoot;

// ---------------------------------------------------------------- cleanup (also on signals and crashes)
let cleanedUp = false;
function cleanup() {
	if (cleanedUp) return;
	cleanedUp = true;
	// n8n first (it holds connections to the other two), Postgres and Redis last.
	const order = [...children].reverse();
	for (const { child, signal } of order) {
		if (child.exitCode === null && child.signalCode === null) L.signalGroup(child, signal);
	}
	const deadline = Date.now() + 15000;
	// Wait (synchronously: this also runs from 'exit') until they are gone, then force.
	for (const { child } of order) {
		while (isAlive(child.pid) && Date.now() < deadline) spawnSync('sleep', ['0.2']);
		if (isAlive(child.pid)) L.signalGroup(child, 'SIGKILL');
	}
	if (tmpRoot && !keep) fs.rmSync(tmpRoot, { recursive: true, force: true });
	else if (tmpRoot) console.log(`kept ${tmpRoot}`);
}
function isAlive(pid) {
	try {
		process.kill(pid, 0);
		// A zombie (exited, not yet reaped) still answers signal 0.
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		return !/^\d+ \(.*\) Z/.test(stat);
	} catch {
		return false;
	}
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
	process.on(sig, () => {
		log(`${sig}: stopping everything`);
		cleanup();
		process.exit(sig === 'SIGINT' ? 130 : 143);
	});
}
process.on('exit', cleanup);

// ---------------------------------------------------------------- processes
function startProcess(name, cmd, argv, opts) {
	const child = spawn(cmd, argv, { ...opts, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
	let out = '';
	const onData = (d) => {
		out += d;
		// Keep memory bounded on long runs; the head holds startup, the tail the latest lines.
		if (out.length > 8e6) out = out.slice(-4e6);
	};
	child.stdout.on('data', onData);
	child.stderr.on('data', onData);
	const entry = { name, child, signal: 'SIGTERM', output: () => out };
	children.push(entry);
	return entry;
}

function startSandbox(port) {
	const cli = process.env.E2E_SANDBOX || path.join(L.REPO, 'build/test/sandbox/cli.js');
	if (!fs.existsSync(cli)) {
		log('building the sandbox: npx tsc -p tsconfig.dev.json');
		spawnSync('npx', ['tsc', '-p', 'tsconfig.dev.json'], { cwd: L.REPO, encoding: 'utf8' });
	}
	if (!fs.existsSync(cli))
		throw new Error(`the sandbox is not built: ${cli} is missing (npm run build:tools)`);
	return startProcess(
		'sandbox',
		process.execPath,
		[cli, '--port', String(port), '--people', String(LISTED)],
		{ cwd: L.REPO },
	);
}

/** Parses n8n's JSON log lines (N8N_LOG_FORMAT=json) from a process's output. */
function jsonLogLines(entry) {
	const lines = [];
	for (const line of entry.output().split('\n')) {
		const s = line.trim();
		if (!s.startsWith('{')) continue;
		try {
			const l = JSON.parse(s);
			// n8n's JSON lines: { level, message, metadata: { ...fields } }
			lines.push({ ...(l.metadata || {}), ...l });
		} catch {}
	}
	return lines;
}

/** executionId → workerId, from the main process's "Execution N (job M) finished" lines. */
function finishedOnWorker(main) {
	const map = new Map();
	for (const l of jsonLogLines(main)) {
		const m = /^Execution (\d+) \(job \S+\) finished/.exec(String(l.message || ''));
		if (m && l.workerId) map.set(m[1], l.workerId);
	}
	return map;
}

/** executionIds a worker process itself says it finished. */
function finishedBy(worker) {
	const ids = new Set();
	for (const l of jsonLogLines(worker)) {
		const m = /^Worker finished execution (\d+)/.exec(String(l.message || ''));
		if (m) ids.add(m[1]);
	}
	return ids;
}

// ---------------------------------------------------------------- sandbox helpers
async function sandboxJson(sb, p, opts) {
	const r = await L.httpRequest(`${sb.urls.crm}${p}`, opts, 30000);
	return r.json();
}
const sandboxRequests = (sb) => L.sandboxRequests(sb, 30000);
const sandboxReset = (sb) => L.sandboxReset(sb, 30000);

/** The service's own order of every person of the default connection, read directly (not through n8n). */
async function servicePeopleOrder(sb) {
	const ids = [];
	let url = `${sb.urls.crm}/api/people?limit=100`;
	for (let page = 0; url && page < 1000; page++) {
		const r = await L.httpRequest(
			url,
			{
				headers: {
					authorization: 'Bearer sandbox-token',
					'x-service-credential-id': 'cred-default',
				},
			},
			30000,
		);
		const body = await r.json();
		for (const p of body.people || []) ids.push(p.id);
		url = body._metadata && body._metadata.nextLink;
	}
	return ids;
}

// ---------------------------------------------------------------- Postgres helpers
async function executionsOf(db, workflowId) {
	const r = await db.query(
		'SELECT id::text AS id, status, finished, mode FROM execution_entity WHERE "workflowId" = $1 ORDER BY id',
		[workflowId],
	);
	return r.rows;
}

const DONE = new Set(['success', 'error', 'crashed', 'canceled']);
/** Waits until `count` executions of the workflow have ended (or the time is up); returns them all. */
async function waitForExecutions(db, workflowId, count, timeoutMs = 240000) {
	const deadline = Date.now() + timeoutMs;
	let rows = [];
	while (Date.now() < deadline) {
		rows = await executionsOf(db, workflowId);
		if (rows.length >= count && rows.every((r) => DONE.has(r.status))) return rows;
		await L.sleep(500);
	}
	return rows;
}

/** Waits until the main process has logged the end of each execution (its log carries the worker id). */
async function workersOf(main, executionIds, timeoutMs = 30000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const map = finishedOnWorker(main);
		if (executionIds.every((id) => map.has(id)) || Date.now() > deadline) return map;
		await L.sleep(300);
	}
}

function webhookUrl(mainPort, p) {
	return `http://127.0.0.1:${mainPort}/webhook/${p}`;
}

// ---------------------------------------------------------------- main
async function main() {
	log(`queue-mode end-to-end test of ${L.PACKAGE_NAME} in n8n ${PINS.n8n}`);
	const missing = L.missingBuiltFiles();
	if (missing.length) {
		check(
			'build',
			false,
			`built package files missing (run "npm run build" first): ${missing.join(', ')}`,
		);
		return;
	}

	// 1) n8n (cached), Redis and Postgres (Debian packages)
	let inst;
	try {
		inst = await ensureInstalled({ log: (m) => log(`install: ${m}`), browser: false });
	} catch (e) {
		skip(e instanceof InstallSkip ? e.message : `n8n install error: ${e.message}`);
	}
	try {
		S.ensurePackages((m) => log(`install: ${m}`));
	} catch (e) {
		skip(e instanceof S.SkipError ? e.message : `redis/postgres install error: ${e.message}`);
	}
	const pg = require(path.join(inst.appDir, 'node_modules', 'pg'));

	tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-queue-'));
	// Postgres runs as its own user and must reach its folder inside this one.
	fs.chmodSync(tmpRoot, 0o711);
	const redis = await S.startRedis(path.join(tmpRoot, 'redis'), children, log);
	const postgres = await S.startPostgres(path.join(tmpRoot, 'postgres'), children, log, pg);

	// 2) sandbox (5,000 seeded people for the listing)
	const sbPort = await L.freePort(4);
	const sbProc = startSandbox(sbPort);
	for (let i = 0; i < 4; i++)
		await L.waitForHttp(`http://127.0.0.1:${sbPort + i}/__sandbox/counts`, {
			timeoutMs: 60000,
			child: sbProc.child,
			what: 'sandbox',
		});
	const sb = { urls: L.sandboxUrls(sbPort) };
	log(`sandbox on ports ${sbPort}..${sbPort + 3} with ${LISTED} seeded people`);

	// 3) one user folder per n8n process, each with the package installed like a user's install
	const encryptionKey = crypto.randomBytes(24).toString('hex');
	const mainPort = await L.freePort();
	const common = {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: postgres.database,
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: postgres.password,
		N8N_ENCRYPTION_KEY: encryptionKey,
		N8N_LOG_LEVEL: 'info',
		N8N_LOG_FORMAT: 'json',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PORT: String(mainPort),
		WEBHOOK_URL: `http://127.0.0.1:${mainPort}/`,
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '5',
		EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
	};
	const envFor = async (name, extra = {}) => {
		const folder = path.join(tmpRoot, name);
		fs.mkdirSync(folder, { recursive: true });
		L.installPackageInto(folder);
		return L.n8nEnv(inst, folder, {
			...common,
			N8N_RUNNERS_BROKER_PORT: String(await L.freePort()),
			...extra,
		});
	};
	const mainEnv = await envFor('main');

	// 4) credentials (encrypted by the importing process, decrypted by the workers) and workflows
	const hostUrls = {
		crmUrl: sb.urls.crm,
		universalUrl: sb.urls.universal,
		losUrl: sb.urls.los,
		calendarUrl: sb.urls.calendar,
		credentialId: 'cred-default',
	};
	const credentials = [
		{
			...TOKEN_CRED,
			type: L.CREDENTIAL_TYPE,
			data: { ...hostUrls, authentication: 'accessToken', accessToken: 'sandbox-token' },
		},
		{
			...CLIENT_CRED,
			type: L.CREDENTIAL_TYPE,
			data: {
				...hostUrls,
				authentication: 'clientCredentials',
				clientId: 'sandbox-client-id',
				clientSecret: 'sandbox-client-secret',
				userId: 'queue-user',
			},
		},
	];
	const wfs = buildWorkflows(TOKEN_CRED, CLIENT_CRED);
	const trig = trigger.prepare({ repo: L.REPO, credential: CLIENT_CRED });
	if (trig.workflow) wfs.trigger = trig.workflow;
	// Imported now, published by scenario 5 only (the first main process must not register it).
	const whTrig = trig.workflow ? webhookProcess.workflow(CLIENT_CRED) : undefined;
	const importDir = path.join(tmpRoot, 'import');
	fs.mkdirSync(path.join(importDir, 'workflows'), { recursive: true });
	fs.writeFileSync(path.join(importDir, 'credentials.json'), JSON.stringify(credentials, null, 2));
	for (const w of [...Object.values(wfs), ...(whTrig ? [whTrig.workflow] : [])])
		fs.writeFileSync(path.join(importDir, 'workflows', `${w.id}.json`), JSON.stringify(w, null, 2));
	let r = await L.runN8n(
		inst,
		mainEnv,
		['import:credentials', `--input=${path.join(importDir, 'credentials.json')}`],
		{ timeoutMs: 300000 },
	);
	if (
		!check(
			'setup',
			r.code === 0,
			`import:credentials into Postgres (${(r.ms / 1000).toFixed(1)} s, includes the migrations)`,
		)
	)
		return console.log((r.stdout + r.stderr).slice(-3000));
	r = await L.runN8n(inst, mainEnv, [
		'import:workflow',
		'--separate',
		`--input=${path.join(importDir, 'workflows')}`,
	]);
	if (
		!check(
			'setup',
			r.code === 0,
			`import:workflow: ${Object.keys(wfs).length + (whTrig ? 1 : 0)} workflows`,
		)
	)
		return console.log((r.stdout + r.stderr).slice(-3000));
	// Publish (activate) them the way `n8n publish:workflow` does (WorkflowRepository.publishVersion): one
	// UPDATE instead of one n8n start per workflow. The main process registers their webhooks when it starts.
	const setupDb = new pg.Client({
		host: '127.0.0.1',
		port: postgres.port,
		user: postgres.user,
		database: postgres.database,
	});
	await setupDb.connect();
	const published = await setupDb.query(
		'UPDATE workflow_entity SET active = true, "activeVersionId" = "versionId" WHERE id = ANY($1) AND "versionId" IN (SELECT "versionId" FROM workflow_history)',
		[Object.values(wfs).map((w) => w.id)],
	);
	await setupDb.end();
	if (
		!check(
			'setup',
			published.rowCount === Object.keys(wfs).length,
			`published ${published.rowCount} of ${Object.keys(wfs).length} workflows`,
		)
	)
		return;

	// 5) main + two workers
	// Scenario 5 restarts the main process with other settings; `mainProc` is always the current one.
	let mainProc;
	const startMain = (extra = {}) =>
		(mainProc = startProcess('main', inst.nodeBin, [inst.n8nMain, 'start'], {
			cwd: mainEnv.N8N_USER_FOLDER,
			env: { ...mainEnv, ...extra },
		}));
	startMain();
	const workers = [];
	const ownHostName = S.isRoot() && spawnSync('unshare', ['--uts', 'true']).status === 0;
	if (!ownHostName)
		log(
			"workers share this machine's host name (no unshare --uts here); they are told apart by their own logs",
		);
	for (let i = 1; i <= WORKERS; i++) {
		const healthPort = await L.freePort();
		const env = await envFor(`worker-${i}`, {
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(healthPort),
			N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
		});
		// Five jobs at most each: ten executions at once cannot all fit on one worker.
		const argv = [inst.nodeBin, inst.n8nMain, 'worker', '--concurrency=5'];
		// n8n names a worker after the host name inside a container (host id "worker-<hostname>"), so two
		// workers on one machine would share a name; each gets its own host name, like separate containers.
		const w = ownHostName
			? startProcess(
					`worker-${i}`,
					'unshare',
					['--uts', 'sh', '-c', 'hostname "$0" && exec "$@"', `queue-worker-${i}`, ...argv],
					{ cwd: env.N8N_USER_FOLDER, env },
				)
			: startProcess(`worker-${i}`, argv[0], argv.slice(1), { cwd: env.N8N_USER_FOLDER, env });
		w.healthPort = healthPort;
		w.ownHostName = ownHostName;
		workers.push(w);
	}
	try {
		await L.waitForHttp(`http://127.0.0.1:${mainPort}/healthz/readiness`, {
			timeoutMs: 240000,
			child: mainProc.child,
			what: 'n8n main',
		});
		for (const w of workers)
			await L.waitForHttp(`http://127.0.0.1:${w.healthPort}/healthz/readiness`, {
				timeoutMs: 240000,
				child: w.child,
				what: w.name,
			});
	} catch (e) {
		check('setup', false, `n8n processes ready: ${e.message}`);
		for (const p of [mainProc, ...workers])
			console.log(`---- ${p.name} (last lines) ----\n${p.output().slice(-2500)}`);
		return;
	}
	// Workflows are activated (webhooks registered) after readiness; the probe runs on a worker and waits for it.
	let ready = false;
	let probe = '';
	const probeDeadline = Date.now() + 180000;
	while (!ready && Date.now() < probeDeadline) {
		try {
			const pr = await L.httpRequest(webhookUrl(mainPort, PATHS.ready), {}, 30000);
			ready = pr.status === 200;
			probe = `${pr.status} ${(await pr.text()).slice(0, 200)}`;
		} catch (e) {
			probe = e.message;
		}
		if (!ready) await L.sleep(1000);
	}
	if (
		!check(
			'setup',
			ready,
			`main (port ${mainPort}) and ${WORKERS} workers ready; a probe webhook ran through the queue (last answer: ${probe})`,
		)
	) {
		for (const p of [mainProc, ...workers])
			console.log(`---- ${p.name} (last lines) ----\n${p.output().slice(-3000)}`);
		return;
	}
	const versions = {
		n8n: (await L.runN8n(inst, mainEnv, ['--version'])).stdout.trim().split('\n').pop(),
		node: spawnSync(inst.nodeBin, ['--version'], { encoding: 'utf8' }).stdout.trim(),
		redis: redis.version,
		postgres: postgres.version,
	};
	log(
		`versions: n8n ${versions.n8n} (Node ${versions.node}); ${versions.redis}; ${versions.postgres}`,
	);

	const db = new pg.Client({
		host: '127.0.0.1',
		port: postgres.port,
		user: postgres.user,
		database: postgres.database,
	});
	await db.connect();
	try {
		await scenarioList(sb, db, mainPort, mainProc);
		await scenarioCreate(sb, db, mainPort, mainProc, workers);
		await scenarioClientCredentials(sb, db, mainPort, mainProc);
		await trigger.run({
			trig,
			sb,
			db,
			mainPort,
			mainProc,
			workers,
			check,
			log,
			sandboxReset,
			sandboxRequests,
			waitForExecutions,
			workersOf,
			executionsOf,
		});
		if (whTrig)
			await webhookProcess.run({
				sb,
				db,
				check,
				log,
				sandboxReset,
				sandboxRequests,
				waitForExecutions,
				executionsOf,
				workersOf,
				webhookPath: whTrig.webhookPath,
				mainPort,
				freePort: () => L.freePort(),
				postSigned: trigger.postSigned,
				eventBody: trigger.eventBody,
				startMain,
				stopMain: () => L.stop(mainProc.child),
				stopProcess: (entry) => L.stop(entry.child),
				startWebhookProcess: async (name, port, url) => {
					const env = await envFor('webhook', { N8N_PORT: String(port), WEBHOOK_URL: url });
					return startProcess(name, inst.nodeBin, [inst.n8nMain, 'webhook'], {
						cwd: env.N8N_USER_FOLDER,
						env,
					});
				},
				waitReady: async (pairs) => {
					try {
						for (const [entry, url] of pairs)
							await L.waitForHttp(url, { timeoutMs: 240000, child: entry.child, what: entry.name });
						return true;
					} catch (e) {
						log(`not ready: ${e.message}`);
						for (const [entry] of pairs)
							console.log(`---- ${entry.name} (last lines) ----\n${entry.output().slice(-3000)}`);
						return false;
					}
				},
			});
	} finally {
		await db.end().catch(() => {});
	}
	log(
		`versions used: n8n ${versions.n8n}, Node ${versions.node}, ${versions.redis}, ${versions.postgres}`,
	);
	if (process.env.E2E_QUEUE_VERBOSE)
		for (const p of [mainProc, ...workers])
			console.log(`---- ${p.name} ----\n${p.output().slice(-6000)}`);
}

/** Scenario 2: Return All of 5,000 people, run on a worker, answered through the main process. */
async function scenarioList(sb, db, mainPort, mainProc) {
	const group = 'list 5000 on a worker';
	await sandboxReset(sb);
	const expected = await servicePeopleOrder(sb);
	check(
		group,
		expected.length === LISTED,
		`the service lists ${expected.length} people (seeded ${LISTED})`,
	);
	await sandboxReset(sb);
	const t = Date.now();
	const r = await L.httpRequest(
		webhookUrl(mainPort, PATHS.list),
		{ method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' },
		240000,
	);
	const body = await r.json().catch(() => undefined);
	const items = Array.isArray(body) ? body : [];
	const ids = items.map((p) => p && p.id);
	check(
		group,
		r.status === 200,
		`webhook answered ${r.status} after ${((Date.now() - t) / 1000).toFixed(1)} s`,
	);
	const firstDiff = ids.findIndex((id, i) => id !== expected[i]);
	check(
		group,
		ids.length === expected.length && firstDiff === -1,
		`${ids.length} items, in the service's order${firstDiff >= 0 ? ` (first difference at item ${firstDiff}: ${ids[firstDiff]} instead of ${expected[firstDiff]})` : ''}`,
	);
	check(
		group,
		new Set(ids).size === ids.length,
		`no duplicates (${new Set(ids).size} distinct ids)`,
	);
	const reqs = (await sandboxRequests(sb)).filter(
		(q) => q.method === 'GET' && q.path === '/api/people',
	);
	check(
		group,
		reqs.length === Math.ceil(LISTED / 100) && reqs.every((q) => q.status === 200),
		`${reqs.length} page requests of 100, all answered 200`,
	);
	const rows = await waitForExecutions(db, wfId('list'), 1);
	const workerMap = await workersOf(
		mainProc,
		rows.map((x) => x.id),
	);
	check(
		group,
		rows.length === 1 && rows[0].status === 'success',
		`execution_entity: ${rows.map((x) => `#${x.id} ${x.status}`).join(', ')}`,
	);
	check(
		group,
		rows.length === 1 && /^worker-/.test(workerMap.get(rows[0].id) || ''),
		`ran on ${rows[0] ? workerMap.get(rows[0].id) : 'nothing'}`,
	);
}

const wfId = (key) => buildWorkflows(TOKEN_CRED, CLIENT_CRED)[key].id;

/** Scenario 1: ten executions of 50 creates each, all posted at once to the main process. */
async function scenarioCreate(sb, db, mainPort, mainProc, workers) {
	const group = 'create 10x50 at once';
	await sandboxReset(sb);
	const before = (await executionsOf(db, wfId('create'))).length;
	const batches = Array.from({ length: BATCHES }, (_, b) =>
		Array.from({ length: PER_BATCH }, (_, i) => ({
			firstName: `Queue${b}`,
			lastName: `Person${i}`,
		})),
	);
	const t = Date.now();
	const answers = await Promise.all(
		batches.map((people) =>
			L.httpRequest(
				webhookUrl(mainPort, PATHS.create),
				{
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ people }),
				},
				60000,
			).then(
				(x) => x.status,
				(e) => `error ${e.message}`,
			),
		),
	);
	check(
		group,
		answers.every((s) => s === 200),
		`${BATCHES} webhook calls posted at once, answered: ${answers.join(', ')}`,
	);
	const rows = (await waitForExecutions(db, wfId('create'), before + BATCHES)).slice(before);
	log(
		`     [${group}] ${BATCHES} executions ended ${((Date.now() - t) / 1000).toFixed(1)} s after the first call`,
	);
	const statuses = rows.map((x) => x.status);
	check(
		group,
		rows.length === BATCHES && statuses.every((s) => s === 'success'),
		`execution_entity: ${rows.length} executions, statuses ${JSON.stringify(countBy(statuses))}`,
	);

	const reqs = (await sandboxRequests(sb)).filter(
		(q) => q.method === 'POST' && q.path === '/api/people',
	);
	const names = reqs.map((q) => `${q.body && q.body.firstName} ${q.body && q.body.lastName}`);
	const seen = countBy(names);
	const expectedNames = batches.flat().map((p) => `${p.firstName} ${p.lastName}`);
	const missingNames = expectedNames.filter((n) => !seen[n]);
	const duplicates = Object.entries(seen).filter(([, c]) => c > 1);
	check(
		group,
		reqs.length === BATCHES * PER_BATCH && reqs.every((q) => q.status === 200),
		`created ${reqs.length} people for ${BATCHES * PER_BATCH} items (all answered 200: ${reqs.every((q) => q.status === 200)})`,
	);
	check(
		group,
		reqs.every(
			(q) =>
				q.headers.authorization === 'Bearer sandbox-token' &&
				q.headers['x-service-credential-id'] === 'cred-default',
		),
		'access token mode: every create carried the decrypted token (Bearer sandbox-token) and X-Service-Credential-Id',
	);
	check(
		group,
		missingNames.length === 0 && duplicates.length === 0,
		`each person created exactly once: ${missingNames.length} missing, ${duplicates.length} duplicates${
			duplicates.length
				? ` (${duplicates
						.slice(0, 3)
						.map(([n, c]) => `${n} x${c}`)
						.join(', ')})`
				: ''
		}`,
	);
	const counts = await sandboxJson(sb, '/__sandbox/counts');
	check(
		group,
		counts.people === LISTED + BATCHES * PER_BATCH,
		`the service now holds ${counts.people} people (${LISTED} seeded + ${BATCHES * PER_BATCH} created)`,
	);

	const map = await workersOf(
		mainProc,
		rows.map((x) => x.id),
	);
	const perWorker = countBy(rows.map((x) => map.get(x.id) || 'unknown'));
	log(
		`     [${group}] worker ids seen in executions (main's job-finished records): ${Object.entries(
			perWorker,
		)
			.map(([w, c]) => `${w}: ${c}`)
			.join(', ')}`,
	);
	// Each worker process's own log says which executions it ran: the two sets must cover the ten, apart.
	const byProcess = workers.map((w) => ({
		name: w.name,
		ids: [...finishedBy(w)].filter((id) => rows.some((x) => x.id === id)),
	}));
	const union = new Set(byProcess.flatMap((p) => p.ids));
	check(
		group,
		byProcess.every((p) => p.ids.length > 0) &&
			union.size === BATCHES &&
			byProcess.reduce((s, p) => s + p.ids.length, 0) === BATCHES,
		`both workers ran some: ${byProcess.map((p) => `${p.name} ran ${p.ids.length} (${[...new Set(p.ids.map((id) => map.get(id)))].join(', ')})`).join('; ')}`,
	);
	check(
		group,
		!perWorker.unknown &&
			(!workers.every((w) => w.ownHostName) || Object.keys(perWorker).length === WORKERS),
		`main recorded a worker id for every execution${workers.every((w) => w.ownHostName) ? `, ${Object.keys(perWorker).length} distinct` : ''}`,
	);
}

/** Scenario 4: the client ID and secret mode signs its tokens on the worker (access token mode: scenarios 1 and 2). */
async function scenarioClientCredentials(sb, db, mainPort, mainProc) {
	const group = 'credential modes on workers';
	await sandboxReset(sb);
	const people = Array.from({ length: 4 }, (_, i) => ({
		firstName: 'Client',
		lastName: `Mode${i}`,
	}));
	const r = await L.httpRequest(
		webhookUrl(mainPort, PATHS.createClient),
		{
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ people }),
		},
		60000,
	);
	check(group, r.status === 200, `client id and secret workflow: webhook answered ${r.status}`);
	const rows = await waitForExecutions(db, wfId('createClient'), 1);
	const map = await workersOf(
		mainProc,
		rows.map((x) => x.id),
	);
	check(
		group,
		rows.length === 1 && rows[0].status === 'success' && /^worker-/.test(map.get(rows[0].id) || ''),
		`client id and secret: execution #${rows[0] && rows[0].id} ${rows[0] && rows[0].status} on ${rows[0] && map.get(rows[0].id)}`,
	);
	const reqs = (await sandboxRequests(sb)).filter(
		(q) => q.method === 'POST' && q.path === '/api/people',
	);
	const claims = reqs.map((q) => {
		const m = /^Bearer (\S+)$/.exec(q.headers.authorization || '');
		const parts = m ? m[1].split('.') : [];
		try {
			return parts.length === 3
				? JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'))
				: undefined;
		} catch {
			return undefined;
		}
	});
	check(
		group,
		reqs.length === people.length && reqs.every((q) => q.status === 200),
		`${reqs.length} creates, answered ${JSON.stringify(countBy(reqs.map((q) => q.status)))}`,
	);
	check(
		group,
		claims.length > 0 &&
			claims.every((c) => c && c.iss === 'sandbox-client-id' && c.sub === 'queue-user'),
		`each request carried a JWT signed on the worker (iss sandbox-client-id, sub queue-user)`,
	);
	// Access token mode ran in scenarios 1 and 2; the sandbox accepted its bearer token there.
	const tokenGroups = results.filter(
		(g) => g.name === 'create 10x50 at once' || g.name === 'list 5000 on a worker',
	);
	check(
		group,
		tokenGroups.length === 2 && tokenGroups.every((g) => g.ok),
		'access token: the create and list scenarios above ran with it on workers',
	);
}

function countBy(list) {
	const out = {};
	for (const x of list) out[x] = (out[x] || 0) + 1;
	return out;
}

main()
	.catch((e) => {
		console.error(e);
		check('runner', false, e.message);
	})
	.finally(summary);
