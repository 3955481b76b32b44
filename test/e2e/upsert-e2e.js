#!/usr/bin/env node
'use strict';
/**
 * Person › Create or Update at scale in the real n8n application (`npm run test:e2e:upsert`; .ci/run
 * runs and counts it on its own): 1,000 rows upserted against 50,000 sandbox people in one run.
 *
 *  1. the sandbox in this process (build/test/sandbox, npm run build:tools) seeded with 50,000 people;
 *     a fresh user folder with the built package, the credential and the workflow imported; n8n started
 *     once (as every real instance has been) and stopped
 *  2. `n8n execute` of "1,000 rows → Person › Create or Update (Match By: Email Only, Merge Tags)": 500
 *     rows carry the emails of seeded people spread over the whole list (in other case and with spaces),
 *     400 new emails, and 100 rows repeat new emails of earlier rows in capitals
 *  3. the wire: requests equal the list's pages plus the rows (one scan for the run, one write per
 *     row); 400 creates, 600 updates; nothing created twice (each new email is one person)
 *  4. the closing note: the node's wall time and its ratio to the paced floor (requests ÷ Max Requests
 *     Per Second, 50 by default)
 *
 * The seeded people's phones are random 7-digit numbers that collide, so the rows match on email only.
 * Exit: 0 passed, 1 a check failed, 2 skipped (n8n could not be installed). Option: --keep.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ensureInstalled, SkipError } = require('./install-n8n');
const L = require('./lib');

const GROUP = 'upsert: 1,000 rows against 50,000 people';
const PEOPLE = 50_000;
const EXISTING = 500;
const NEW = 400;
const REPEATS = 100;
const PAGE = 100;
/** Request Options › Max Requests Per Second, as the node's default. */
const MAX_RPS = 50;
const CRED = { id: 'upsertCred', name: 'Integration Service sandbox' };
const WORKFLOW_ID = 'e2eUpsert1000';
const UPSERT_NODE = 'Create or update person';

const keep = process.argv.includes('--keep');
const children = [];
const cleanups = [];
const { log, check, skip, summary } = L.createRun({
	tag: 'e2e-upsert',
	label: 'e2e-upsert',
	cleanup,
});

function cleanup() {
	for (const c of children)
		if (c.exitCode === null && c.signalCode === null) L.signalGroup(c, 'SIGTERM');
	for (const fn of cleanups.splice(0)) fn();
}
for (const signal of ['SIGINT', 'SIGTERM'])
	process.on(signal, () => {
		cleanup();
		process.exit(signal === 'SIGINT' ? 130 : 143);
	});

/** The rows: seeded people's emails as a form would send them, new leads, and resubmissions. */
function rowsFor(sandbox) {
	const people = sandbox.people();
	const rows = [];
	for (let n = 1; n <= EXISTING; n++) {
		const person = people[n * (PEOPLE / EXISTING) - 1];
		const email = person.emails[0].value;
		const written = n % 3 === 0 ? email.toUpperCase() : n % 3 === 1 ? ` ${email} ` : email;
		rows.push({ first: person.firstName, email: written, tag: 'seen-again' });
	}
	const fresh = Array.from({ length: NEW }, (_, n) => `lead${n}@new-leads.test`);
	for (const email of fresh) rows.push({ first: 'Lead', email, tag: 'web-form' });
	for (let n = 0; n < REPEATS; n++)
		rows.push({ first: 'Lead', email: fresh[n * 4].toUpperCase(), tag: 'resubmitted' });
	return { rows, fresh };
}

function workflow(rows) {
	return {
		id: WORKFLOW_ID,
		name: 'Create or Update e2e: 1,000 rows',
		active: false,
		nodes: [
			{
				id: 'b1c2d3e4-0000-4000-8000-000000000001',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'b1c2d3e4-0000-4000-8000-000000000002',
				name: 'Rows',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [200, 0],
				parameters: { mode: 'raw', jsonOutput: JSON.stringify({ rows }), options: {} },
			},
			{
				id: 'b1c2d3e4-0000-4000-8000-000000000003',
				name: 'One item per row',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [400, 0],
				parameters: { fieldToSplitOut: 'rows', options: {} },
			},
			{
				id: 'b1c2d3e4-0000-4000-8000-000000000004',
				name: UPSERT_NODE,
				type: L.NODE_TYPE,
				typeVersion: 2,
				position: [600, 0],
				parameters: {
					resource: 'person',
					operation: 'upsert',
					matchBy: 'email',
					firstName: '={{ $json.first }}',
					additionalFields: {
						emailsJson: '={{ [{ value: $json.email }] }}',
						tags: '={{ [$json.tag] }}',
					},
					options: { mergeTags: true },
					output: { fields: 'id,isNew' },
				},
				credentials: { [L.CREDENTIAL_TYPE]: CRED },
			},
		],
		connections: {
			Start: { main: [[{ node: 'Rows', type: 'main', index: 0 }]] },
			Rows: { main: [[{ node: 'One item per row', type: 'main', index: 0 }]] },
			'One item per row': { main: [[{ node: UPSERT_NODE, type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

async function prepare({ inst, sandbox, userFolder, rows }) {
	const env = L.n8nEnv(inst, userFolder);
	const importDir = path.join(userFolder, 'import');
	fs.mkdirSync(path.join(importDir, 'workflows'), { recursive: true });
	const built = path.join(L.REPO, 'build/test/sandbox');
	const data = require(path.join(built, 'credential.js')).sandboxCredential(sandbox);
	const credentials = [{ ...CRED, type: L.CREDENTIAL_TYPE, data }];
	fs.writeFileSync(path.join(importDir, 'credentials.json'), JSON.stringify(credentials));
	fs.writeFileSync(
		path.join(importDir, 'workflows', `${WORKFLOW_ID}.json`),
		JSON.stringify(workflow(rows)),
	);
	for (const args of [
		['import:credentials', `--input=${path.join(importDir, 'credentials.json')}`],
		['import:workflow', '--separate', `--input=${path.join(importDir, 'workflows')}`],
	]) {
		const r = await L.runN8n(inst, env, args);
		if (!check(GROUP, r.code === 0, `${args[0]} (${(r.ms / 1000).toFixed(1)} s)`))
			throw new Error((r.stdout + r.stderr).slice(-3000));
	}
	// n8n start once, as every real instance has been, before `n8n execute`.
	const n8n = await L.startN8n({ inst, env, log, children, host: '127.0.0.1' });
	await L.ownerSession(n8n.base);
	await L.stop(n8n.child);
	return env;
}

async function scenario({ inst, sandbox, userFolder }) {
	const { rows, fresh } = rowsFor(sandbox);
	const env = await prepare({ inst, sandbox, userFolder, rows });
	sandbox.requests.length = 0;
	const brokerPort = await L.freePort();
	const r = await L.runN8n(
		inst,
		{ ...env, N8N_RUNNERS_BROKER_PORT: String(brokerPort) },
		['execute', `--id=${WORKFLOW_ID}`, '--rawOutput'],
		{ timeoutMs: 600_000 },
	);
	// Judged by its exit and the wire: `n8n execute --rawOutput` prints every node's items and exits at
	// once, so the output of a run this size reaches the pipe cut short and is no evidence either way.
	const run = L.parseRawOutput(r.stdout);
	const resultData = run && (run.resultData || (run.data && run.data.resultData));
	const error = resultData && resultData.error;
	if (
		!check(
			GROUP,
			(r.code === 0 || (r.code === null && run !== undefined)) && !error,
			`n8n execute succeeded in ${(r.ms / 1000).toFixed(1)} s, start-up included${error ? `: ${error.message}` : ''}`,
		)
	)
		console.log((r.stdout + '\n' + r.stderr).trim().split('\n').slice(-25).join('\n'));

	const requests = sandbox.requests;
	const lists = requests.filter((q) => q.method === 'GET' && q.path === '/api/people');
	const posts = requests.filter((q) => q.method === 'POST').length;
	const puts = requests.filter((q) => q.method === 'PUT').length;
	const pages = Math.ceil(PEOPLE / PAGE);
	check(
		GROUP,
		lists.length === pages && requests.length === lists.length + rows.length,
		`requests = list pages + rows: ${requests.length} = ${lists.length} + ${rows.length} (the list read once: ${pages} pages of ${PAGE})`,
	);
	check(
		GROUP,
		posts === NEW && puts === EXISTING + REPEATS,
		`${posts} creates (${NEW} new emails), ${puts} updates (${EXISTING} seeded people found, ${REPEATS} resubmissions)`,
	);
	const made = new Map(fresh.map((email) => [email, 0]));
	for (const person of sandbox.people().slice(PEOPLE))
		for (const entry of person.emails || [])
			if (made.has(String(entry.value).trim().toLowerCase()))
				made.set(entry.value.trim().toLowerCase(), made.get(entry.value.trim().toLowerCase()) + 1);
	const twice = [...made].filter(([, n]) => n !== 1);
	check(
		GROUP,
		sandbox.people().length === PEOPLE + NEW && twice.length === 0,
		`nothing created twice: ${sandbox.people().length} people, each new email one person${twice.length ? `; not once: ${twice.slice(0, 5).join(' ')}` : ''}`,
	);
	// The node's wall time as the service saw it: its first request to its last (answered at once).
	const wallMs = requests.length
		? requests[requests.length - 1].receivedAt - requests[0].receivedAt
		: 0;
	const floorMs = (requests.length / MAX_RPS) * 1000;
	const note = `Create or Update of ${rows.length} rows against ${PEOPLE} people: ${requests.length} requests in ${(wallMs / 1000).toFixed(1)} s (first to last request); paced floor ${requests.length} ÷ ${MAX_RPS}/s = ${(floorMs / 1000).toFixed(1)} s; ratio ${(wallMs / floorMs).toFixed(3)}`;
	check(GROUP, wallMs > 0, note);
}

async function main() {
	log(`${L.PACKAGE_NAME}: Person › Create or Update, 1,000 rows against 50,000 people, in n8n`);
	const missing = L.missingBuiltFiles();
	if (missing.length) {
		check(GROUP, false, `built package files missing (npm run build): ${missing.join(', ')}`);
		return summary();
	}
	let inst;
	try {
		inst = await ensureInstalled({ log: (m) => log(`install: ${m}`), browser: false });
	} catch (e) {
		skip(e instanceof SkipError ? e.message : `install error: ${e.message}`);
	}
	const built = path.join(L.REPO, 'build/test/sandbox');
	if (!fs.existsSync(path.join(built, 'server.js'))) {
		check(GROUP, false, 'the sandbox is not built: run "npm run build:tools"');
		return summary();
	}
	const sandbox = await require(path.join(built, 'server.js')).startSandbox({ people: PEOPLE });
	cleanups.push(() => void sandbox.close());
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-upsert-'));
	if (!keep) cleanups.push(() => fs.rmSync(userFolder, { recursive: true, force: true }));
	L.installPackageInto(userFolder);
	try {
		await scenario({ inst, sandbox, userFolder });
	} catch (e) {
		check(GROUP, false, `scenario: ${e.stack || e.message}`);
	}
	if (keep) log(`kept user folder ${userFolder}`);
	return summary();
}

main().catch((e) => {
	console.error(e);
	check('runner', false, e.message);
	summary();
});
