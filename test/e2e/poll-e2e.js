#!/usr/bin/env node
'use strict';
/**
 * The Integration Service Changes Trigger (polling) in the real n8n application
 * (`npm run test:e2e:poll`; .ci/run runs and counts it on its own):
 *
 *  1. the sandbox in this process (build/test/sandbox, npm run build:tools), `n8n start` on a fresh user
 *     folder with the built package; through n8n's REST API as a user would: the owner, the credential, a
 *     workflow "Changes Trigger (people, New or Updated, Poll Times every minute) → HTTP Request" whose
 *     request posts each record to a tracker on 127.0.0.1, published
 *  2. activation's first poll starts nothing for the 25 seeded people
 *  3. a person is created and a seeded one updated: each reaches the tracker once; the new person is
 *     updated: once more
 *  4. n8n stops; a person is created meanwhile; n8n starts again on the same user folder: the new person
 *     arrives once, and one more poll later no change has come twice
 *  5. n8n's execution list: one successful execution per poll that found changes, each change in one
 *
 * About 5 minutes (Poll Times every minute: each step waits for the next minute's poll).
 * Exit: 0 passed, 1 a check failed, 2 skipped (n8n could not be installed). Option: --keep.
 */
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { ensureInstalled, SkipError } = require('./install-n8n');
const L = require('./lib');

const TRIGGER_TYPE = `${L.PACKAGE_NAME}.integrationServiceChangesTrigger`;
const GROUP = 'poll: Changes Trigger';
/** One poll a minute, plus room for n8n to start the execution and the request to arrive. */
const NEXT_POLL_MS = 75_000;

const keep = process.argv.includes('--keep');
const children = [];
const cleanups = [];
const { log, check, skip, summary } = L.createRun({ tag: 'e2e-poll', label: 'e2e-poll', cleanup });

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

/** A tracker on 127.0.0.1 that records each record the workflow posts. */
async function startTracker() {
	const posts = [];
	const server = http.createServer((req, res) => {
		let body = '';
		req.on('data', (d) => (body += d));
		req.on('end', () => {
			try {
				posts.push(JSON.parse(body));
			} catch {
				posts.push({ unparsed: body });
			}
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end('{"ok":true}');
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	cleanups.push(() => server.close());
	return { url: `http://127.0.0.1:${server.address().port}/records`, posts };
}

function workflow(credential, trackerUrl) {
	return {
		name: 'Changes Trigger e2e',
		nodes: [
			{
				id: 'a1b2c3d4-0000-4000-8000-000000000001',
				name: 'People changed',
				type: TRIGGER_TYPE,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					resource: 'person',
					event: 'newOrUpdated',
				},
				credentials: { [L.CREDENTIAL_TYPE]: credential },
			},
			{
				id: 'a1b2c3d4-0000-4000-8000-000000000002',
				name: 'Post record',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [300, 0],
				parameters: {
					method: 'POST',
					url: trackerUrl,
					sendBody: true,
					specifyBody: 'json',
					jsonBody:
						'={{ JSON.stringify({ id: $json.id, firstName: $json.firstName, serviceUpdated: $json.serviceUpdated, execution: $execution.id }) }}',
					options: {},
				},
			},
		],
		connections: {
			'People changed': { main: [[{ node: 'Post record', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

async function rest(base, cookie, method, route, body) {
	const res = await L.httpRequest(
		`${base}/rest/${route}`,
		{ method, headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) },
		60000,
	);
	const text = await res.text();
	if (res.status !== 200)
		throw new Error(`${method} /rest/${route} -> ${res.status}: ${text.slice(0, 500)}`);
	return JSON.parse(text).data;
}

async function waitFor(what, fn, timeoutMs) {
	const t = Date.now();
	for (;;) {
		const value = await fn();
		if (value) return value;
		if (Date.now() - t > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
		await L.sleep(500);
	}
}

/** A change made as another app would make it (not through n8n). */
async function change(sandbox, method, route, body) {
	const res = await fetch(`${sandbox.urls.crm}/api/${route}`, {
		method,
		headers: {
			Authorization: `Bearer ${sandbox.token}`,
			'X-Service-Credential-Id': sandbox.defaultCredentialId,
			'Content-Type': 'application/json',
		},
		body: JSON.stringify(body),
	});
	return await res.json();
}

async function executions(base, cookie, workflowId) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const res = await L.httpRequest(`${base}/rest/executions?filter=${filter}&limit=100`, {
		headers: { cookie },
	});
	const body = await res.json();
	const data = body && body.data ? body.data : body;
	return (data && data.results) || [];
}

/** Each change the tracker received, as `id@serviceUpdated`, with how many times. */
function counts(posts) {
	const seen = new Map();
	for (const p of posts)
		seen.set(`${p.id}@${p.serviceUpdated}`, (seen.get(`${p.id}@${p.serviceUpdated}`) || 0) + 1);
	return seen;
}

async function scenario({ inst, sandbox, credentialData, userFolder }) {
	const env = L.n8nEnv(inst, userFolder);
	const tracker = await startTracker();
	let n8n = await L.startN8n({ inst, env, log, children, host: '127.0.0.1' });
	const { cookie } = await L.ownerSession(n8n.base);
	const cred = await rest(n8n.base, cookie, 'POST', 'credentials', {
		name: 'Integration Service sandbox',
		type: L.CREDENTIAL_TYPE,
		data: credentialData,
	});
	const wf = workflow({ id: cred.id, name: 'Integration Service sandbox' }, tracker.url);
	const created = await rest(n8n.base, cookie, 'POST', 'workflows', wf);
	const published = await rest(n8n.base, cookie, 'POST', `workflows/${created.id}/activate`, {
		versionId: created.versionId,
	});
	check(
		GROUP,
		!!(published.active || published.activeVersionId),
		`workflow ${created.id} published`,
	);
	// Activation's first poll reads the list; wait until it has.
	await waitFor(
		'the first poll',
		async () => (await L.sandboxRequests(sandbox)).some((q) => q.path === '/api/people'),
		30000,
	);
	await L.sleep(2000);
	check(
		GROUP,
		tracker.posts.length === 0,
		`the first poll started nothing for the 25 seeded people (${tracker.posts.length} posted)`,
	);

	const ann = await change(sandbox, 'POST', 'people', { firstName: 'Ann', lastName: 'Poll' });
	await L.sleep(5);
	await change(sandbox, 'PUT', 'people/p_2', { firstName: 'Updated' });
	await waitFor('Ann and p_2', () => tracker.posts.length >= 2, 2 * NEXT_POLL_MS);
	const first = tracker.posts.map((p) => p.id).sort();
	check(
		GROUP,
		first.join() === [ann.id, 'p_2'].sort().join(),
		`a created and an updated person arrived: ${first.join(', ')}`,
	);

	await L.sleep(5);
	await change(sandbox, 'PUT', `people/${ann.id}`, { firstName: 'Ann2' });
	await waitFor("Ann's update", () => tracker.posts.length >= 3, 2 * NEXT_POLL_MS);
	check(
		GROUP,
		tracker.posts[2].firstName === 'Ann2',
		`the update arrived once (${tracker.posts.length} posts)`,
	);

	await L.stop(n8n.child);
	const bea = await change(sandbox, 'POST', 'people', { firstName: 'Bea', lastName: 'Downtime' });
	log('poll: n8n stopped; a person created meanwhile; starting n8n again on the same user folder');
	n8n = await L.startN8n({
		inst,
		env,
		log,
		children,
		host: '127.0.0.1',
		logPrefix: 'poll (restarted): ',
	});
	await waitFor(
		'Bea after the restart',
		() => tracker.posts.some((p) => p.id === bea.id),
		2 * NEXT_POLL_MS,
	);
	// One more poll: nothing may come twice after the restart.
	const reads = (await L.sandboxRequests(sandbox)).filter((q) => q.path === '/api/people').length;
	await waitFor(
		'one more poll',
		async () =>
			(await L.sandboxRequests(sandbox)).filter((q) => q.path === '/api/people').length > reads,
		NEXT_POLL_MS,
	);
	await L.sleep(5000);
	const seen = counts(tracker.posts);
	const twice = [...seen].filter(([, n]) => n > 1);
	check(
		GROUP,
		tracker.posts.length === 4 && twice.length === 0,
		`after the restart each change arrived exactly once: ${[...seen.keys()].join(', ')}${twice.length ? `; twice: ${twice.map(([k]) => k).join(', ')}` : ''}`,
	);

	const session = await L.ownerSession(n8n.base);
	const list = await executions(n8n.base, session.cookie, created.id);
	const carried = new Set(tracker.posts.map((p) => String(p.execution)));
	check(
		GROUP,
		list.length === carried.size && list.every((e) => e.status === 'success'),
		`${list.length} successful executions, one per poll that found changes (${carried.size} carried the 4 changes)`,
	);
	await L.stop(n8n.child);
}

async function main() {
	const t0 = Date.now();
	log(`${L.PACKAGE_NAME}: the Changes Trigger (polling) in n8n start`);
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
	const sandbox = await require(path.join(built, 'server.js')).startSandbox({ people: 25 });
	cleanups.push(() => void sandbox.close());
	const credentialData = require(path.join(built, 'credential.js')).sandboxCredential(sandbox);
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-poll-'));
	if (!keep) cleanups.push(() => fs.rmSync(userFolder, { recursive: true, force: true }));
	L.installPackageInto(userFolder);
	try {
		await scenario({ inst, sandbox, credentialData, userFolder });
	} catch (e) {
		check(GROUP, false, `scenario: ${e.stack || e.message}`);
	}
	log(`poll scenario took ${((Date.now() - t0) / 1000).toFixed(0)} s`);
	if (keep) log(`kept user folder ${userFolder}`);
	return summary();
}

main().catch((e) => {
	console.error(e);
	check('runner', false, e.message);
	summary();
});
