#!/usr/bin/env node
'use strict';
/**
 * End-to-end proof in the real n8n application (`npm run test:e2e`).
 *
 *  1. installs n8n (once, cached outside the repo; see install-n8n.js)
 *  2. starts the repository's sandbox (build/test/sandbox/cli.js) on four free ports
 *  3. loads the built package (dist/ + package.json) into a fresh n8n user folder, the way a user's
 *     install does (<N8N_USER_FOLDER>/.n8n/nodes/node_modules/n8n-nodes-integration-service)
 *  4. imports a credential pointing at the sandbox and every workflow in examples/*.json (plus
 *     test/e2e/fixtures/*.json), runs each with `n8n execute`, and checks the result and the
 *     sandbox's request log
 *  5. editor check (editor-check.js): n8n start, node types, icon, screenshots with chromium
 *  6. workflows that start with the Integration Service Trigger (trigger-e2e.js): activated in
 *     n8n start, registration checked, one event delivered twice plus a forged copy: one execution;
 *     a second event, an n8n restart, the same event again: its action ran once
 *  The HTTP Request node with our credential (http-request-e2e.js): a create answered 500 reached the
 *  service once; after an edit to another tenant no request carries the previous tenant's token
 *
 * Exit: 0 all passed, 1 an assertion failed, 2 skipped (n8n could not be installed; the reason is
 * on the last line: "e2e: skipped: <reason>").
 *
 * Options: --no-editor (skip step 5), --only <substring> (run matching workflow files only),
 *          --keep (keep the temporary user folder). Environment: N8N_E2E_CACHE (cache folder),
 *          E2E_SANDBOX=<path of a built sandbox cli.js>, E2E_SCREENSHOTS (folder, default docs/screenshots),
 *          E2E_N8N_LOG_LEVEL (n8n's log level), E2E_VERBOSE=1 (print the last node's output).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const { spawn, spawnSync } = require('node:child_process');
const { ensureInstalled, SkipError } = require('./install-n8n');
const { DEFAULT_VERSION, versionArg } = require('./versions');
const L = require('./lib');
const { triggerScenario, isTriggerWorkflow } = require('./trigger-e2e');
const { httpRequestScenario } = require('./http-request-e2e');
const { FAMILY_EXPECTATIONS } = require('./family-expectations');

/**
 * Per-example expectations, keyed by file name (in examples/ or test/e2e/fixtures/).
 *   requests:  [method, host, path] that must each appear in the sandbox log (path: string = exact
 *              path, RegExp = pattern); host is crm | universal | los | calendar
 *   minItems:  items the last node must produce (default 1)
 *   bodies:    [method, host, path, partialBody] the request body must contain (deep partial match)
 *   exactBodies: [method, host, path, body] the request body must be exactly (nothing more is sent)
 *   minRequests / maxRequests: bounds on the number of sandbox requests (paging; no retried POST)
 *   people:    reseeds the sandbox with this many people before the run (default: the 25 it starts with)
 *   verify:    (runData) => [ok, message], a check of the run's own data
 * Examples not listed here get the generic checks: success, >= 1 item, >= 1 sandbox request.
 */
const EXPECTATIONS = {
	'person-create.json': {
		requests: [['POST', 'crm', '/api/people']],
		bodies: [['POST', 'crm', '/api/people', { firstName: 'Ada', lastName: 'Lovelace' }]],
		maxRequests: 1,
	},
	// Mapping Mode "Map Automatically": the row's wire-named fields, converted (a number, a tag list); rowNumber is not a field.
	'person-create-map-automatically.json': {
		requests: [['POST', 'crm', '/api/people']],
		exactBodies: [
			[
				'POST',
				'crm',
				'/api/people',
				{
					firstName: 'Grace',
					lastName: 'Hopper',
					averagePrice: 450000,
					tags: ['vip', 'navy'],
					emails: [{ value: 'grace@example.test', type: 'work' }],
				},
			],
		],
		maxRequests: 1,
	},
	// Schedule Trigger (replaced by a Manual Trigger), Return All over the sandbox's 25 seeded people in pages of 10.
	'people-list-schedule.json': {
		requests: [['GET', 'crm', '/api/people']],
		minItems: 25,
		minRequests: 3,
	},
	// examples/ (written with the package; one line each)
	'person-create-per-row.json': { requests: [['POST', 'crm', '/api/people']] },
	'people-export-scheduled.json': { requests: [['GET', 'crm', '/api/people']], minItems: 25 },
	'onboard-connection.json': {
		requests: [
			['POST', 'universal', '/api/oauth/authorize-url'],
			['POST', 'universal', '/api/credentials'],
			['PUT', 'universal', /^\/api\/credentials\/[^/]+$/],
		],
	},
	'borrower-update-and-document.json': {
		requests: [
			['PUT', 'los', /^\/api\/borrowers\/[^/]+$/],
			['POST', 'los', '/api/documents'],
		],
	},
	'webhook-point-at-url.json': { requests: [['PUT', 'calendar', /^\/api\/webhooks\/[^/]+$/]] },
	// Person › Update, then a Custom API Call with Return All over the sandbox's 230 loans (3 pages).
	'person-update-and-loans.json': {
		requests: [
			['PUT', 'crm', '/api/people/p_1'],
			['GET', 'los', '/api/loans'],
		],
		exactBodies: [
			['PUT', 'crm', '/api/people/p_1', { stage: 'Client', tags: ['vip', 'referral'] }],
		],
		minItems: 230,
		minRequests: 4,
		maxRequests: 4,
	},
	// Person › Create or Update over three web-form rows (the third resubmits the first's email in another
	// case), then Person › Find: each node scans the 25 people once (one page), then one request per item.
	'web-form-lead-upsert.json': {
		requests: [
			['GET', 'crm', '/api/people'],
			['POST', 'crm', '/api/people'],
			['PUT', 'crm', /^\/api\/people\/[^/]+$/],
			['GET', 'crm', /^\/api\/people\/[^/]+$/],
		],
		minItems: 3,
		minRequests: 8,
		maxRequests: 8,
		verify: (runData) => upsertedOnce(runData, 'Create or update person'),
	},
	// n8n's HTTP Request node with our credential as Predefined Credential Type, once per mode: the sandbox
	// answers only a valid token (and checks a signed one's signature), so success proves both.
	// A sub-workflow per batch of 5,000 over 12,000 people: the batches must be contiguous and cover the
	// list once (the ids are p_1..p_12000 in the service's order).
	'people-export-page-by-page.json': {
		people: 12000,
		requests: [['GET', 'crm', '/api/people']],
		minRequests: 120,
		verify: (runData) => exportedOnce(runData, 'Export one batch', 12000),
	},
	'http-request-predefined-credential.json': {
		requests: [['GET', 'crm', '/api/people']],
		minRequests: 2,
		maxRequests: 2,
	},
	// One workflow per resource family of issue 30 (test/e2e/fixtures/): family-expectations.js.
	...FAMILY_EXPECTATIONS,
};

const CRED_ID = 'sandboxCred';
const CRED_NAME = 'Integration Service sandbox';
const CLIENT_CRED_ID = 'sandboxClientCred';
const CLIENT_CRED_NAME = 'Integration Service sandbox (client ID and secret)';
const MANUAL_TRIGGER = 'n8n-nodes-base.manualTrigger';
const STARTING_TRIGGERS = new Set([MANUAL_TRIGGER, 'n8n-nodes-base.executeWorkflowTrigger']);
/**
 * Started by an MCP client or a chat, not by `n8n execute`: the examples of the node as an AI tool
 * (examples/ai-tools-*.json). mcp-e2e.js (npm run test:e2e:mcp) imports both and runs the MCP one.
 */
const AI_TRIGGERS = new Set([
	'@n8n/n8n-nodes-langchain.mcpTrigger',
	'@n8n/n8n-nodes-langchain.chatTrigger',
]);
const REPLACEABLE_TRIGGERS = new Set([
	'n8n-nodes-base.scheduleTrigger',
	'n8n-nodes-base.cron',
	'n8n-nodes-base.interval',
]);

const args = process.argv.slice(2);
const version = versionArg(args);
// Every other version of the matrix runs the core: the package, the examples, the credential test, the trigger.
const core = args.includes('--core') || version !== DEFAULT_VERSION;
const opt = {
	editor: !core && !args.includes('--no-editor'),
	only: args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined,
	keep: args.includes('--keep'),
};
const children = [];
const { log, results, check, skip, summary } = L.createRun({ tag: 'e2e', label: 'e2e', cleanup });

function cleanup() {
	for (const c of children)
		if (c.exitCode === null && c.signalCode === null) L.signalGroup(c, 'SIGTERM');
}
process.on('SIGINT', () => {
	cleanup();
	process.exit(130);
});
process.on('SIGTERM', () => {
	cleanup();
	process.exit(143);
});

// ---------------------------------------------------------------- sandbox
function sandboxCommand(port) {
	const forced = process.env.E2E_SANDBOX;
	const cli = forced || path.join(L.REPO, 'build/test/sandbox/cli.js');
	const srcDir = path.join(L.REPO, 'test/sandbox');
	const newestSource = fs.existsSync(srcDir)
		? Math.max(
				0,
				...fs
					.readdirSync(srcDir)
					.filter((f) => f.endsWith('.ts'))
					.map((f) => fs.statSync(path.join(srcDir, f)).mtimeMs),
			)
		: 0;
	const stale = !fs.existsSync(cli) || fs.statSync(cli).mtimeMs < newestSource;
	if (!forced && stale && fs.existsSync(path.join(L.REPO, 'tsconfig.dev.json'))) {
		log('building the sandbox: npx tsc -p tsconfig.dev.json');
		const r = spawnSync('npx', ['tsc', '-p', 'tsconfig.dev.json'], {
			cwd: L.REPO,
			encoding: 'utf8',
		});
		if (r.status !== 0)
			log(
				`tsc -p tsconfig.dev.json failed (continuing if the sandbox was emitted):\n${(r.stdout + r.stderr).slice(-2000)}`,
			);
	}
	if (!fs.existsSync(cli))
		throw new Error(
			`the sandbox is not built: ${path.relative(L.REPO, cli)} is missing (npx tsc -p tsconfig.dev.json)`,
		);
	return {
		argv: [cli, '--port', String(port), '--people', '25'],
		kind: path.relative(L.REPO, cli),
	};
}

async function startSandbox() {
	const port = await L.freePort(4);
	const { argv, kind } = sandboxCommand(port); // throws when the sandbox cannot be built
	log(`starting sandbox ${kind} on ports ${port}..${port + 3}`);
	const child = spawn(process.execPath, argv, {
		cwd: L.REPO,
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	children.push(child);
	let out = '';
	child.stdout.on('data', (d) => (out += d));
	child.stderr.on('data', (d) => (out += d));
	try {
		for (let i = 0; i < 4; i++)
			await L.waitForHttp(`http://127.0.0.1:${port + i}/__sandbox/counts`, {
				timeoutMs: 30000,
				child,
				what: 'sandbox',
			});
	} catch (e) {
		throw new Error(`${e.message}\n${out.slice(-2000)}`);
	}
	const urls = L.sandboxUrls(port);
	const hostOfPort = Object.fromEntries(L.HOSTS.map((h, i) => [String(port + i), h]));
	return { port, urls, hostOfPort, kind, output: () => out };
}

async function sandboxRequests(sb) {
	return (await L.sandboxRequests(sb)).map((q) => ({ ...q, hostName: hostName(sb, q) }));
}

/** crm | universal | los | calendar for a logged request, whatever form its `host` field has. */
function hostName(sb, q) {
	const h = String(q.host || (q.headers && q.headers.host) || '');
	if (L.HOSTS.includes(h)) return h;
	const m = /:(\d+)$/.exec(h);
	if (m && sb.hostOfPort[m[1]]) return sb.hostOfPort[m[1]];
	return L.HOSTS.find((x) => h.toLowerCase().includes(x)) || h;
}

// ---------------------------------------------------------------- workflows
function collectWorkflows() {
	const dirs = [path.join(L.REPO, 'examples'), path.join(__dirname, 'fixtures')];
	const files = [];
	for (const dir of dirs) {
		if (!fs.existsSync(dir)) continue;
		for (const f of fs.readdirSync(dir).sort()) {
			if (!f.endsWith('.json')) continue;
			// --only a,b: any of the comma-separated parts
			if (opt.only && !opt.only.split(',').some((part) => f.includes(part))) continue;
			files.push(path.join(dir, f));
		}
	}
	return files;
}

/** Makes an example executable by `n8n execute`: fixed id, Manual Trigger, the sandbox credential. */
function prepareWorkflow(file) {
	const wf = JSON.parse(fs.readFileSync(file, 'utf8'));
	const rel = path.relative(L.REPO, file);
	const id = `e2e${crypto.createHash('sha1').update(rel).digest('hex').slice(0, 16)}`; // 19 chars (<= 21)
	const notes = [];
	if (!Array.isArray(wf.nodes)) throw new Error('no "nodes" array');
	// Started by deliveries, not by `n8n execute`: trigger-e2e.js activates it in a running n8n.
	const trigger = isTriggerWorkflow(wf);
	const aiTools = wf.nodes.some((n) => AI_TRIGGERS.has(n.type) && !n.disabled);
	if (aiTools) return { file, base: path.basename(file), rel, aiTools };
	const hasStart = wf.nodes.some((n) => STARTING_TRIGGERS.has(n.type) && !n.disabled);
	if (!hasStart && !trigger) {
		const toReplace = wf.nodes.filter((n) => REPLACEABLE_TRIGGERS.has(n.type));
		if (toReplace.length === 0)
			throw new Error('neither a Manual Trigger nor a Schedule Trigger to replace');
		for (const n of toReplace) {
			// Same name and position: the connections stay wired the same way.
			notes.push(
				`replaced ${n.type.replace('n8n-nodes-base.', '')} "${n.name}" with a Manual Trigger`,
			);
			n.type = MANUAL_TRIGGER;
			n.typeVersion = 1;
			n.parameters = {};
		}
	}
	for (const n of wf.nodes) {
		const named = n.credentials && n.credentials[L.CREDENTIAL_TYPE];
		// A fixture may ask for the Client ID and Secret credential by naming it "client mode".
		if (named)
			n.credentials[L.CREDENTIAL_TYPE] =
				named.name === 'client mode'
					? { id: CLIENT_CRED_ID, name: CLIENT_CRED_NAME }
					: { id: CRED_ID, name: CRED_NAME };
	}
	const out = {
		...wf,
		id,
		name: wf.name || path.basename(file, '.json'),
		active: false,
		connections: wf.connections || {},
		settings: wf.settings || { executionOrder: 'v1' },
	};
	delete out.shared;
	delete out.tags;
	delete out.meta;
	return { file, base: path.basename(file), rel, id, wf: out, notes, trigger };
}

function matches(pattern, value) {
	return pattern instanceof RegExp ? pattern.test(value) : pattern === value;
}

function partialMatch(expected, actual) {
	if (expected === null || typeof expected !== 'object') return expected === actual;
	if (actual === null || typeof actual !== 'object') return false;
	return Object.entries(expected).every(([k, v]) => partialMatch(v, actual[k]));
}

function lastNodeItems(run) {
	const rd = run && run.resultData ? run.resultData : run && run.data && run.data.resultData;
	if (!rd) return { node: undefined, items: undefined };
	const node = rd.lastNodeExecuted;
	const runs = rd.runData && rd.runData[node];
	const main =
		runs && runs[runs.length - 1] && runs[runs.length - 1].data && runs[runs.length - 1].data.main;
	const items = Array.isArray(main)
		? main.reduce((s, out) => s + (Array.isArray(out) ? out.length : 0), 0)
		: 0;
	return { node, items, error: rd.error, runData: rd.runData };
}

async function executeAndCheck(inst, env, sb, w) {
	const group = w.rel;
	const exp = EXPECTATIONS[w.base];
	await L.sandboxReset(sb);
	if (exp && exp.people !== undefined) {
		await L.httpRequest(`${sb.urls.crm}/__sandbox/config`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ people: exp.people }),
		});
	}
	const brokerPort = await L.freePort();
	const r = await L.runN8n(
		inst,
		{
			...env,
			N8N_RUNNERS_BROKER_PORT: String(brokerPort),
			N8N_LOG_LEVEL: process.env.E2E_N8N_LOG_LEVEL || 'info',
		},
		['execute', `--id=${w.id}`, '--rawOutput'],
		{ timeoutMs: 240000 },
	);
	const run = L.parseRawOutput(r.stdout);
	const { node, items, error, runData } = lastNodeItems(run);
	const errMsg = error ? error.message || JSON.stringify(error).slice(0, 300) : '';
	for (const n of w.notes) log(`     [${group}] ${n}`);
	// n8n 2.41's CLI has crashed at exit (SIGSEGV) after printing a complete, successful run: the run is
	// judged by its output then, and the signal is named. Our package has no native code.
	const crashedAfterRun = r.code === null && r.signal !== null && run !== undefined && !error;
	const okExec = check(
		group,
		(r.code === 0 || crashedAfterRun) && run && !error,
		`execution succeeded in ${(r.ms / 1000).toFixed(1)} s (exit ${r.code ?? `by signal ${r.signal} after reporting the run`}${errMsg ? `; error: ${errMsg}` : ''})`,
	);
	if (!okExec) {
		const detail = (r.stdout + '\n' + r.stderr).trim().split('\n').slice(-25).join('\n');
		console.log(`---- n8n output (last lines) ----\n${detail}\n---------------------------------`);
		if (runData) {
			for (const [name, runs] of Object.entries(runData)) {
				const e = runs[runs.length - 1] && runs[runs.length - 1].error;
				if (e)
					console.log(
						`node "${name}" error: ${e.message}${e.description ? ` (${e.description})` : ''}`,
					);
			}
		}
	}
	const minItems = exp && exp.minItems !== undefined ? exp.minItems : 1;
	check(
		group,
		run !== undefined && items >= minItems,
		`last node "${node}" produced ${items} item(s) (>= ${minItems})`,
	);
	if (run && process.env.E2E_VERBOSE)
		console.log(JSON.stringify(runData && runData[node], null, 2).slice(0, 3000));

	const reqs = await sandboxRequests(sb);
	const summary = reqs.map((q) => `${q.method} ${q.hostName}${q.path || q.url} -> ${q.status}`);
	check(
		group,
		reqs.length >= 1,
		`sandbox saw ${reqs.length} request(s)${reqs.length ? `: ${summary.slice(0, 6).join(', ')}${summary.length > 6 ? ', ...' : ''}` : ''}`,
	);
	// Every request carries the bearer token; crm/los/calendar also carry the credential id.
	const header = (q, h) => q.headers && (q.headers[h] || q.headers[h.toLowerCase()]);
	const noAuth = reqs.filter((q) => !/^Bearer \S+/.test(String(header(q, 'authorization') || '')));
	check(
		group,
		noAuth.length === 0,
		`every request carries "Authorization: Bearer ..."${noAuth.length ? ` (missing on ${noAuth.length})` : ''}`,
	);
	const noCred = reqs.filter(
		(q) => q.hostName !== 'universal' && header(q, 'x-service-credential-id') !== 'cred-default',
	);
	check(
		group,
		noCred.length === 0,
		`every crm/los/calendar request carries X-Service-Credential-Id: cred-default${noCred.length ? ` (missing/wrong on ${noCred.length})` : ''}`,
	);
	if (exp) {
		for (const [method, host, p] of exp.requests || []) {
			const hit = reqs.find(
				(q) =>
					q.method === method &&
					q.hostName === host &&
					matches(p, q.path || String(q.url).split('?')[0]),
			);
			check(
				group,
				!!hit,
				`expected request ${method} ${host} ${p}${hit ? ` (status ${hit.status})` : ''}`,
			);
		}
		for (const [method, host, p, body] of exp.bodies || []) {
			const hit = reqs.find(
				(q) =>
					q.method === method &&
					q.hostName === host &&
					matches(p, q.path || String(q.url).split('?')[0]) &&
					partialMatch(body, typeof q.body === 'string' ? safeJson(q.body) : q.body),
			);
			check(
				group,
				!!hit,
				`request ${method} ${host} ${p} has body containing ${JSON.stringify(body)}`,
			);
		}
		for (const [method, host, p, body] of exp.exactBodies || []) {
			const sent = reqs.filter(
				(q) =>
					q.method === method &&
					q.hostName === host &&
					matches(p, q.path || String(q.url).split('?')[0]),
			);
			const exact = sent.some(
				(q) =>
					partialMatch(body, typeof q.body === 'string' ? safeJson(q.body) : q.body) &&
					partialMatch(typeof q.body === 'string' ? safeJson(q.body) : q.body, body),
			);
			check(
				group,
				exact,
				`request ${method} ${host} ${p} has exactly the body ${JSON.stringify(body)}${exact || !sent.length ? '' : ` (sent: ${JSON.stringify(sent[0].body)})`}`,
			);
		}
		if (exp.verify) check(group, ...exp.verify(runData || {}));
		if (exp.minRequests !== undefined)
			check(
				group,
				reqs.length >= exp.minRequests,
				`at least ${exp.minRequests} sandbox request(s) (saw ${reqs.length})`,
			);
		if (exp.maxRequests !== undefined)
			check(
				group,
				reqs.length <= exp.maxRequests,
				`at most ${exp.maxRequests} sandbox request(s) (saw ${reqs.length})`,
			);
	}
	return { ok: results.find((g) => g.name === group).ok, ms: r.ms };
}

/**
 * Every person exactly once across the batches of a page-at-a-time loop: each run of `node` returned
 * { count, firstId, lastId, done }; the ids p_1..p_total must follow on from batch to batch.
 */
/** The resubmitted lead updated the person its first row created: created, created, updated, one ID. */
function upsertedOnce(runData, node) {
	const items = (runData[node] || []).flatMap((run) =>
		run.data && run.data.main && run.data.main[0] ? run.data.main[0].map((item) => item.json) : [],
	);
	const isNew = items.map((item) => item.isNew);
	const ok =
		JSON.stringify(isNew) === '[true,true,false]' &&
		items[0].id === items[2].id &&
		items[0].id !== items[1].id;
	return [
		ok,
		`Create or Update: isNew ${JSON.stringify(isNew)}, IDs ${items.map((i) => i.id).join(', ')}`,
	];
}

function exportedOnce(runData, node, total) {
	const batches = (runData[node] || []).map((run) =>
		run.data && run.data.main && run.data.main[0] && run.data.main[0][0]
			? run.data.main[0][0].json
			: {},
	);
	const index = (id) => Number(String(id).replace(/^p_/, ''));
	let next = 1;
	let counted = 0;
	let contiguous = batches.length > 0;
	for (const batch of batches) {
		if (batch.count === 0) continue;
		contiguous =
			contiguous && index(batch.firstId) === next && index(batch.lastId) === next + batch.count - 1;
		next += batch.count;
		counted += batch.count;
	}
	const done = batches.length > 0 && batches[batches.length - 1].done === true;
	return [
		contiguous && counted === total && done,
		`every one of the ${total} people arrived exactly once: ${batches.length} batch(es) of ${batches.map((b) => b.count).join(', ')}, contiguous ${contiguous}, ${counted} in all, done ${done}`,
	];
}

function safeJson(s) {
	try {
		return JSON.parse(s);
	} catch {
		return s;
	}
}

// ---------------------------------------------------------------- main
async function main() {
	log(`n8n ${version} end-to-end test of ${L.PACKAGE_NAME}${core ? ' (core)' : ''}`);
	// 0) the built package must exist (npm run build)
	const missing = L.missingBuiltFiles();
	if (missing.length) {
		check(
			'build',
			false,
			`built package files missing (run "npm run build" first): ${missing.join(', ')}`,
		);
		return summary();
	}

	// 1) install (once)
	const tInstall = Date.now();
	let inst;
	try {
		inst = await ensureInstalled({
			log: (m) => log(`install: ${m}`),
			browser: opt.editor,
			version,
		});
	} catch (e) {
		if (e instanceof SkipError) skip(e.message);
		skip(`install error: ${e.message}`);
	}
	const installSeconds = (Date.now() - tInstall) / 1000;
	log(
		`install ready in ${installSeconds.toFixed(1)} s (cache ${inst.root}, Node ${inst.pins.node})`,
	);
	L.recordRun({
		n8n: version,
		node: inst.pins.node,
		core,
		installSeconds: Math.round(installSeconds),
	});

	// 2) sandbox
	let sb;
	try {
		sb = await startSandbox();
	} catch (e) {
		check('sandbox', false, `sandbox started: ${e.message}`);
		return summary();
	}

	// 3) user folder with our package
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-'));
	const target = L.installPackageInto(userFolder);
	log(
		`user folder ${userFolder}; package ${process.env.E2E_TARBALL ? `installed from the packed tarball ${path.basename(process.env.E2E_TARBALL)}` : 'copied'} to ${path.relative(userFolder, target)}`,
	);
	const env = L.n8nEnv(inst, userFolder);

	// 4) credential + workflows
	const credentials = [
		{
			id: CRED_ID,
			name: CRED_NAME,
			type: L.CREDENTIAL_TYPE,
			// The same credential data as the jest suites, from the compiled sandbox (built with it above).
			data: require(path.join(L.REPO, 'build/test/sandbox/credential.js')).sandboxCredential(sb),
		},
		{
			id: CLIENT_CRED_ID,
			name: CLIENT_CRED_NAME,
			type: L.CREDENTIAL_TYPE,
			data: require(path.join(L.REPO, 'build/test/sandbox/credential.js')).sandboxCredential(
				sb,
				'clientCredentials',
			),
		},
		{
			// The credential test's own copy: n8n 1.x stores the data a test ran with (its pre-authentication
			// saves the credential), so the wrong token it tries must not land in the examples' credential.
			id: 'sandboxCredTest',
			name: 'Integration Service sandbox (credential test)',
			type: L.CREDENTIAL_TYPE,
			data: require(path.join(L.REPO, 'build/test/sandbox/credential.js')).sandboxCredential(sb),
		},
	];
	const testedCredentials = [credentials[2], credentials[1]];
	const importDir = path.join(userFolder, 'import');
	fs.mkdirSync(path.join(importDir, 'workflows'), { recursive: true });
	fs.writeFileSync(path.join(importDir, 'credentials.json'), JSON.stringify(credentials, null, 2));
	let r = await L.runN8n(inst, env, [
		'import:credentials',
		`--input=${path.join(importDir, 'credentials.json')}`,
	]);
	if (!check('import', r.code === 0, `import:credentials (${(r.ms / 1000).toFixed(1)} s)`))
		console.log((r.stdout + r.stderr).slice(-3000));

	const workflows = [];
	const triggerWorkflows = [];
	for (const file of collectWorkflows()) {
		try {
			const w = prepareWorkflow(file);
			if (w.aiTools) {
				log(
					`not run here: ${w.rel} starts from an MCP client or a chat (AI tools): npm run test:e2e:mcp imports it (and runs the MCP one)`,
				);
				continue;
			}
			// Fixtures that call the sandbox directly (the HTTP Request node) name its CRM host as __CRM_URL__.
			w.wf = JSON.parse(JSON.stringify(w.wf).split('__CRM_URL__').join(sb.urls.crm));
			if (w.trigger) {
				triggerWorkflows.push(w);
				continue;
			}
			fs.writeFileSync(
				path.join(importDir, 'workflows', `${w.id}.json`),
				JSON.stringify(w.wf, null, 2),
			);
			workflows.push(w);
		} catch (e) {
			check(path.relative(L.REPO, file), false, `prepare workflow: ${e.message}`);
		}
	}
	check(
		'import',
		workflows.length + triggerWorkflows.length > 0,
		`${workflows.length + triggerWorkflows.length} workflow file(s) found: ${[...workflows, ...triggerWorkflows].map((w) => w.rel).join(', ')}`,
	);
	if (workflows.length) {
		r = await L.runN8n(inst, env, [
			'import:workflow',
			'--separate',
			`--input=${path.join(importDir, 'workflows')}`,
		]);
		if (
			!check('import', r.code === 0, `import:workflow --separate (${(r.ms / 1000).toFixed(1)} s)`)
		)
			console.log((r.stdout + r.stderr).slice(-3000));
	}

	// n8n start once, as every real instance has been (the roles' scopes), before any `n8n execute`.
	if (core || !opt.editor) {
		try {
			const { appChecks } = require('./app-checks');
			await appChecks({ inst, env, sb, log, check, children, credentials: testedCredentials });
		} catch (e) {
			const cause = e.cause ? ` (cause: ${e.cause.code || e.cause.message})` : '';
			check('community package loaded', false, `n8n start: ${e.stack || e.message}${cause}`);
		}
	}
	// Runs of one tenant at once share its pace.
	if (!core) {
		try {
			const { tenantPaceScenario } = require('./tenant-pace-e2e');
			await tenantPaceScenario({
				inst,
				env,
				sb,
				importDir,
				log,
				check,
				children,
				credential: { id: CRED_ID, name: CRED_NAME },
			});
		} catch (e) {
			check(
				'tenant pace: concurrent executions in n8n start',
				false,
				`scenario: ${e.stack || e.message}`,
			);
		}
	}

	const timings = [];
	// The core goes on past a failed app check: each example then shows what a user of that version gets.
	if (results.filter((g) => !core || g.name === 'import').every((g) => g.ok)) {
		for (const w of workflows) {
			log(`executing ${w.rel} (id ${w.id})`);
			const { ms } = await executeAndCheck(inst, env, sb, w);
			timings.push(`${w.rel}: ${(ms / 1000).toFixed(1)} s`);
		}
	}

	// Our credential in n8n's HTTP Request node: a create answered 500 is sent once; an edited identity.
	if (
		!core &&
		(!opt.only || 'http-request'.includes(opt.only) || opt.only.includes('http-request'))
	) {
		try {
			await httpRequestScenario({ inst, env, sb, importDir, log, check });
		} catch (e) {
			check('HTTP Request node with our credential', false, `scenario: ${e.stack || e.message}`);
		}
	}

	// 5) editor
	if (opt.editor) {
		const { editorCheck } = require('./editor-check');
		try {
			await editorCheck({
				inst,
				env,
				userFolder,
				log,
				check,
				screenshotsDir: process.env.E2E_SCREENSHOTS || path.join(L.REPO, 'docs', 'screenshots'),
				children,
				sb,
				credentials: testedCredentials,
			});
		} catch (e) {
			check('editor', false, `editor check: ${e.stack || e.message}`);
		}
	}

	// 6) triggers, after the editor check: their credential and active workflow would otherwise show up in
	// the editor's screenshots.
	if (results.filter((g) => g.name === 'import').every((g) => g.ok)) {
		for (const w of triggerWorkflows) {
			const t = Date.now();
			log(`activating ${w.rel} (id ${w.id}) in n8n start`);
			await triggerScenario({ inst, env, sb, w, importDir, log, check, children });
			timings.push(`${w.rel}: ${((Date.now() - t) / 1000).toFixed(1)} s`);
		}
	}

	cleanup();
	if (!opt.keep) fs.rmSync(userFolder, { recursive: true, force: true });
	else log(`kept user folder ${userFolder}`);
	log(`timings: install/verify ${installSeconds.toFixed(1)} s; ${timings.join('; ')}`);
	log(`sandbox: ${sb.kind}`);
	return summary();
}

main().catch((e) => {
	console.error(e);
	check('runner', false, e.message);
	summary();
});
