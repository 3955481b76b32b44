'use strict';
/**
 * The Integration Service Trigger in the real n8n application (called by run-e2e.js):
 *
 *  1. the example examples/person-created-task.json is imported with a Client-ID-and-Secret credential
 *     (its client secret is the sandbox's signing secret) and its "Create task" URL pointed at a task
 *     tracker run here on 127.0.0.1; `n8n publish:workflow` makes it active (1.x: `update:workflow --active`)
 *  2. `n8n start`: activation must create one webhook per CRM event (peopleCreated and notesCreated, the
 *     second added here) on the sandbox's CRM host at n8n's production webhook URL; a hand-made webhook
 *     and the seeded w-1 are left alone
 *  3. a person is created through the sandbox; the signed peopleCreated event is delivered twice, then
 *     once with a forged signature. With the sandbox's event delivery (contract 1: /__sandbox/deliveries)
 *     the sandbox sends them ("twice" mode, then a redelivery with a bad signature); with an older
 *     sandbox this script signs and POSTs the same event itself (same body, same rules)
 *  4. exactly one execution runs (n8n's execution list), and the task tracker receives exactly one task,
 *     made from the fetched person; the forged delivery gets 401
 *  5. a second person's event runs, n8n restarts, the event is redelivered: no execution more, and the
 *     restart's activation creates no duplicate webhook
 *  6. deactivating the workflow (REST, as the editor does) deletes exactly the two webhooks it created
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const L = require('./lib');

const TRIGGER_TYPE = `${L.PACKAGE_NAME}.integrationServiceTrigger`;
const CLIENT_CRED_ID = 'sandboxClientCred';
const CLIENT_CRED_NAME = 'Integration Service sandbox (client ID and secret)';
/** contract 1: the sandbox signs deliveries with this key, which is also its client secret. */
const SIGNING_SECRET = 'sandbox-client-secret';
const CLIENT_ID = 'sandbox-client-id';

function isTriggerWorkflow(wf) {
	return Array.isArray(wf.nodes) && wf.nodes.some((n) => n.type === TRIGGER_TYPE && !n.disabled);
}

/** The credential the trigger workflow uses: client mode, so its client secret is the signing key. */
function clientCredential(urls) {
	return {
		id: CLIENT_CRED_ID,
		name: CLIENT_CRED_NAME,
		type: L.CREDENTIAL_TYPE,
		data: {
			crmUrl: urls.crm,
			universalUrl: urls.universal,
			losUrl: urls.los,
			calendarUrl: urls.calendar,
			credentialId: 'cred-default',
			authentication: 'clientCredentials',
			accessToken: '',
			clientId: CLIENT_ID,
			clientSecret: SIGNING_SECRET,
			userId: 'e2e-user',
		},
	};
}

/** A task tracker on 127.0.0.1 that records every task posted to it. */
async function startTaskTracker() {
	const tasks = [];
	const server = http.createServer((req, res) => {
		let body = '';
		req.on('data', (d) => (body += d));
		req.on('end', () => {
			let json;
			try {
				json = JSON.parse(body);
			} catch {
				json = body;
			}
			tasks.push({ method: req.method, url: req.url, body: json });
			res.writeHead(201, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify({ id: `task-${tasks.length}` }));
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${server.address().port}/api/tasks`,
		tasks,
		close: () => new Promise((r) => server.close(r)),
	};
}

/**
 * The trigger workflow's ID: at most 16 characters, as n8n's own. n8n 1.x saves a workflow's static data
 * only for such IDs (`isWorkflowIdValid`: `id.length <= 16`); run-e2e.js's IDs have 19.
 */
const triggerWorkflowId = (w) => w.id.slice(0, 16);

/** Rewrites the example for this run: fixed id, the client credential, the local task tracker. */
function prepareTriggerWorkflow(w, taskUrl) {
	const wf = JSON.parse(JSON.stringify(w.wf));
	wf.id = triggerWorkflowId(w);
	for (const n of wf.nodes) {
		if (n.credentials && n.credentials[L.CREDENTIAL_TYPE])
			n.credentials[L.CREDENTIAL_TYPE] = { id: CLIENT_CRED_ID, name: CLIENT_CRED_NAME };
		if (n.type === 'n8n-nodes-base.httpRequest') n.parameters.url = taskUrl;
		// Two CRM events: activation must create two webhooks (issue 31); no notesCreated event is raised here.
		if (n.type === TRIGGER_TYPE) n.parameters.events = ['peopleCreated', 'notesCreated'];
	}
	return wf;
}

async function waitFor(what, fn, timeoutMs = 30000) {
	const t = Date.now();
	for (;;) {
		const value = await fn();
		if (value) return value;
		if (Date.now() - t > timeoutMs)
			throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await L.sleep(250);
	}
}

async function json(res) {
	const text = await res.text();
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

/** Whether the sandbox delivers events itself (contract 1). */
async function sandboxDelivers(sb) {
	try {
		const res = await L.httpRequest(`${sb.urls.crm}/__sandbox/deliveries`);
		return res.status === 200 && Array.isArray(await json(res));
	} catch {
		return false;
	}
}

function signature(raw, secret) {
	return crypto
		.createHmac('sha256', secret)
		.update(Buffer.from(raw).toString('base64'))
		.digest('hex');
}

async function deliver(url, raw, sig) {
	const headers = { 'Content-Type': 'application/json' };
	if (sig !== undefined) headers['X-Service-Signature'] = sig;
	const res = await L.httpRequest(url, { method: 'POST', headers, body: raw });
	return { status: res.status, body: await json(res) };
}

/**
 * The peopleCreated event of a new person, signed, for a sandbox without event delivery. Such a sandbox
 * also ignores `ids`: the uri names the person by its position (the newest), so that reading it answers
 * that one record, as contract 1 does.
 */
async function scriptedEvent(sb, person) {
	const counts = await json(await L.httpRequest(`${sb.urls.crm}/__sandbox/counts`));
	const raw = JSON.stringify({
		eventId: `e2e-${person.id}-${Date.now()}`,
		eventCreated: new Date().toISOString(),
		event: 'peopleCreated',
		resourceIds: [person.id],
		uri: `${sb.urls.crm}/api/people?ids=${encodeURIComponent(person.id)}&offset=${counts.people - 1}&limit=1`,
	});
	return { raw, sig: signature(raw, SIGNING_SECRET) };
}

/**
 * Creates a person through the sandbox and has its peopleCreated event delivered (by the sandbox, in
 * its "twice" mode, or signed and sent here once); `redeliver()` sends the same event once more, signed.
 */
async function createAndDeliver(sb, productionUrl, viaSandbox, firstName, lastName) {
	const before = viaSandbox
		? await json(await L.httpRequest(`${sb.urls.crm}/__sandbox/deliveries`))
		: [];
	const earlier = new Set((Array.isArray(before) ? before : []).map((d) => d.eventId));
	const res = await L.httpRequest(`${sb.urls.crm}/api/people`, {
		method: 'POST',
		headers: {
			Authorization: 'Bearer sandbox-token',
			'X-Service-Credential-Id': 'cred-default',
			'Content-Type': 'application/json',
		},
		body: JSON.stringify({ firstName, lastName }),
	});
	const person = await json(res);
	if (viaSandbox) {
		const attempts = await waitFor(`the deliveries of ${firstName}'s event`, async () => {
			const list = await json(await L.httpRequest(`${sb.urls.crm}/__sandbox/deliveries`));
			const mine = Array.isArray(list)
				? list.filter(
						(d) =>
							d.event === 'peopleCreated' && d.url === productionUrl && !earlier.has(d.eventId),
					)
				: [];
			return mine.length >= 1 && mine.every((d) => d.status !== undefined) ? mine : undefined;
		});
		const redeliver = async () => {
			const answer = await L.httpRequest(`${sb.urls.crm}/__sandbox/deliveries/redeliver`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ eventId: attempts[0].eventId, signature: 'good' }),
			});
			return (await json(answer)).status;
		};
		return { person, statuses: attempts.map((d) => d.status), redeliver };
	}
	const { raw, sig } = await scriptedEvent(sb, person);
	const redeliver = async () => (await deliver(productionUrl, raw, sig)).status;
	return { person, statuses: [await redeliver()], redeliver };
}

const SANDBOX_AUTH = {
	Authorization: 'Bearer sandbox-token',
	'X-Service-Credential-Id': 'cred-default',
	'Content-Type': 'application/json',
};

/** The sandbox connection's webhooks (GET {crm}/api/webhooks, one page is all of them here). */
async function crmWebhooks(sb) {
	const res = await L.httpRequest(`${sb.urls.crm}/api/webhooks?limit=100`, {
		headers: SANDBOX_AUTH,
	});
	const body = await json(res);
	return Array.isArray(body && body.webhooks) ? body.webhooks : [];
}

/** Deactivates the workflow as the editor does: 2.x `POST …/deactivate`, 1.x `PATCH` with active false. */
async function deactivateWorkflow(n8n, cookie, workflowId) {
	const headers = { cookie, 'Content-Type': 'application/json' };
	const url = `${n8n.base}/rest/workflows/${workflowId}`;
	let res = await L.httpRequest(`${url}/deactivate`, { method: 'POST', headers, body: '{}' });
	if (res.status !== 404) return res.status;
	const current = await json(await L.httpRequest(url, { headers }));
	const versionId = current && (current.data || current).versionId;
	res = await L.httpRequest(url, {
		method: 'PATCH',
		headers,
		body: JSON.stringify({ active: false, versionId }),
	});
	return res.status;
}

async function executions(n8n, cookie, workflowId) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const res = await L.httpRequest(`${n8n.base}/rest/executions?filter=${filter}&limit=50`, {
		headers: { cookie },
	});
	const body = await json(res);
	const data = body && body.data ? body.data : body;
	return { status: res.status, results: (data && data.results) || [] };
}

/**
 * Runs the scenario for one trigger workflow `w` (from run-e2e.js's prepareWorkflow). Credentials and
 * workflows are imported here into the same user folder.
 */
async function triggerScenario({ inst, env, sb, w, importDir, log, check, children }) {
	const group = `trigger: ${w.rel}`;
	const tracker = await startTaskTracker();
	let n8n;
	try {
		const credFile = path.join(importDir, 'trigger-credentials.json');
		fs.writeFileSync(credFile, JSON.stringify([clientCredential(sb.urls)], null, 2));
		let r = await L.runN8n(inst, env, ['import:credentials', `--input=${credFile}`]);
		check(group, r.code === 0, `import:credentials (client ID and secret mode) exit ${r.code}`);
		const wfFile = path.join(importDir, 'trigger-workflow.json');
		fs.writeFileSync(wfFile, JSON.stringify(prepareTriggerWorkflow(w, tracker.url), null, 2));
		r = await L.runN8n(inst, env, ['import:workflow', `--input=${wfFile}`]);
		check(group, r.code === 0, `import:workflow exit ${r.code}`);
		const workflowId = triggerWorkflowId(w);
		const activate = L.activateArgs(inst, workflowId);
		r = await L.runN8n(inst, env, activate);
		if (!check(group, r.code === 0, `${activate.join(' ')} exit ${r.code}`))
			console.log((r.stdout + r.stderr).slice(-2000));

		await L.sandboxReset(sb);
		// A webhook made by hand on the CRM host: the trigger must neither use nor delete it.
		const handMade = await json(
			await L.httpRequest(`${sb.urls.crm}/api/webhooks`, {
				method: 'POST',
				headers: SANDBOX_AUTH,
				body: JSON.stringify({
					url: 'https://hooks.example.test/hand-made',
					event: 'peopleCreated',
				}),
			}),
		);
		check(
			group,
			handMade && typeof handMade.id === 'string',
			`hand-made webhook ${handMade && handMade.id}`,
		);
		// The production webhook URL n8n hands the trigger, and that the service must deliver to: WEBHOOK_URL.
		n8n = await L.startN8n({
			inst,
			env,
			log,
			children,
			host: '127.0.0.1',
			webhookUrl: true,
			logPrefix: 'trigger: ',
		});
		const node = w.wf.nodes.find((n) => n.type === TRIGGER_TYPE);
		const productionUrl = `${n8n.base}/webhook/${node.webhookId}/webhook`;

		// 2) activation created one webhook per CRM event at the production URL
		const bodyOf = (q) => (typeof q.body === 'string' ? JSON.parse(q.body) : q.body) || {};
		// The trigger's creates: the hand-made webhook above was created through the same endpoint.
		const isCreate = (q) =>
			q.method === 'POST' &&
			/\/api\/webhooks$/.test(q.path || q.url) &&
			bodyOf(q).url === productionUrl;
		const creates = await waitFor(
			'the webhooks created on activation',
			async () => {
				const made = (await L.sandboxRequests(sb)).filter(isCreate);
				return made.length >= 2 ? made : undefined;
			},
			60000,
		).catch((e) => {
			console.log(n8n.output().slice(-3000));
			throw e;
		});
		const bodies = creates.map(bodyOf);
		check(
			group,
			creates.length === 2 &&
				creates.every((q) => q.status === 201) &&
				bodies.every((b) => b.url === productionUrl) &&
				bodies
					.map((b) => b.event)
					.sort()
					.join() === 'notesCreated,peopleCreated',
			`activation created 2 webhooks at ${productionUrl}: ${JSON.stringify(bodies)} (${creates.map((q) => q.status).join(', ')})`,
		);
		const ownIds = (await crmWebhooks(sb)).filter((h) => h.url === productionUrl).map((h) => h.id);

		// Owner session for the execution list: set the owner up, or sign in if the editor check did.
		const session = await L.ownerSession(n8n.base);
		const { cookie } = session;
		check(
			group,
			session.status === 200 && /n8n-auth=/.test(cookie),
			`owner session -> ${session.status}`,
		);

		// The node as the editor sees it: a trigger with its own icon.
		let res = await L.httpRequest(`${n8n.base}/types/nodes.json`, { headers: { cookie } }, 30000);
		const types = res.status === 200 ? await res.json() : [];
		const described = types.find((t) => t.name === TRIGGER_TYPE);
		check(
			group,
			!!described && described.group.includes('trigger') && described.inputs.length === 0,
			`/types/nodes.json has ${TRIGGER_TYPE} (group ${described && described.group}, no inputs)`,
		);
		const iconUrl =
			described &&
			(typeof described.iconUrl === 'object' ? described.iconUrl.light : described.iconUrl);
		if (iconUrl) {
			res = await L.httpRequest(new URL(iconUrl, `${n8n.base}/`).href, { headers: { cookie } });
			const svg = await res.text();
			check(
				group,
				res.status === 200 && /<svg[\s>]/.test(svg) && /integrationServiceTrigger/.test(iconUrl),
				`trigger icon ${iconUrl} -> ${res.status} (SVG)`,
			);
		} else {
			check(group, false, 'the trigger has an iconUrl');
		}

		// 3) a person is created; its event is delivered twice, then once forged
		const viaSandbox = await sandboxDelivers(sb);
		log(
			`trigger: deliveries ${viaSandbox ? 'by the sandbox (contract 1)' : 'signed and sent by this script (the sandbox has no event delivery)'}`,
		);
		if (viaSandbox) {
			res = await L.httpRequest(`${sb.urls.crm}/__sandbox/deliveries`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ mode: 'twice' }),
			});
			check(group, res.status < 300, `sandbox delivery mode "twice" -> ${res.status}`);
		}
		res = await L.httpRequest(`${sb.urls.crm}/api/people`, {
			method: 'POST',
			headers: {
				Authorization: 'Bearer sandbox-token',
				'X-Service-Credential-Id': 'cred-default',
				'Content-Type': 'application/json',
			},
			body: JSON.stringify({
				firstName: 'Katherine',
				lastName: 'Johnson',
				emails: [{ value: 'katherine@example.com', type: 'work', isPrimary: true }],
			}),
		});
		const person = await json(res);
		check(
			group,
			res.status < 300 && person && person.id,
			`person created through the sandbox: ${res.status} ${person && person.id}`,
		);

		let forged;
		let genuine;
		if (viaSandbox) {
			const attempts = await waitFor('two deliveries of the event', async () => {
				const list = await json(await L.httpRequest(`${sb.urls.crm}/__sandbox/deliveries`));
				const mine = Array.isArray(list)
					? list.filter((d) => d.event === 'peopleCreated' && d.url === productionUrl)
					: [];
				return mine.length >= 2 && mine.every((d) => d.status !== undefined) ? mine : undefined;
			});
			genuine = attempts.map((d) => d.status);
			const eventIds = new Set(attempts.map((d) => d.eventId));
			check(
				group,
				eventIds.size === 1 && attempts.every((d) => d.signature === 'good'),
				`the sandbox delivered one eventId ${attempts.length} times, signed`,
			);
			res = await L.httpRequest(`${sb.urls.crm}/__sandbox/deliveries/redeliver`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ eventId: attempts[0].eventId, signature: 'bad' }),
			});
			forged = (await json(res)).status;
		} else {
			const { raw, sig } = await scriptedEvent(sb, person);
			genuine = [
				(await deliver(productionUrl, raw, sig)).status,
				(await deliver(productionUrl, raw, sig)).status,
			];
			forged = (await deliver(productionUrl, raw, signature(raw, 'not-the-signing-secret'))).status;
		}
		check(
			group,
			genuine.length === 2 && genuine.every((s) => s === 200),
			`both genuine deliveries answered 200 (got ${genuine.join(', ')})`,
		);
		check(group, forged === 401, `the forged delivery got 401 (got ${forged})`);

		// 4) exactly one execution, with the fetched person
		await waitFor(
			'the task from the execution',
			async () => tracker.tasks.length >= 1,
			60000,
		).catch(() => undefined);
		const execs = await waitFor(
			'the execution to finish',
			async () => {
				const list = await executions(n8n, cookie, workflowId);
				return list.results.length >= 1 &&
					list.results.every(
						(e) => e.finished || ['success', 'error', 'crashed'].includes(e.status),
					)
					? list
					: undefined;
			},
			60000,
		).catch(() => ({ results: [] }));
		await L.sleep(3000); // room for a wrongly started second execution to show up
		const final = await executions(n8n, cookie, workflowId);
		check(
			group,
			final.results.length === 1,
			`exactly one execution of the workflow (found ${final.results.length}: ${final.results.map((e) => `${e.id} ${e.mode} ${e.status}`).join(', ')})`,
		);
		check(
			group,
			execs.results.length === 1 && execs.results[0].status === 'success',
			`the execution succeeded (${execs.results.map((e) => e.status).join(', ')})`,
		);
		const task = tracker.tasks[0];
		check(
			group,
			tracker.tasks.length === 1,
			`the task tracker received exactly one task (${tracker.tasks.length})`,
		);
		check(
			group,
			task &&
				task.body &&
				task.body.personId === person.id &&
				task.body.title === 'Welcome call with Katherine Johnson' &&
				task.body.borrowerEmail === 'katherine@example.com',
			`the task was made from the fetched person: ${JSON.stringify(task && task.body)}`,
		);
		const reqs = await L.sandboxRequests(sb);
		const reads = reqs.filter(
			(q) => q.method === 'GET' && String(q.path || q.url).startsWith('/api/people'),
		);
		check(
			group,
			reads.length === 1 &&
				/^Bearer \S+/.test(String(reads[0].headers && reads[0].headers.authorization)),
			`the trigger read the person once at the event's uri with a bearer token (${reads.length} GET(s))`,
		);

		// 5) across a restart: a second person's event starts one execution; n8n restarts (a deploy while the
		// service retries); the service delivers that event again: the workflow's action does not run again.
		const second = await createAndDeliver(sb, productionUrl, viaSandbox, 'Dorothy', 'Vaughan');
		check(
			group,
			second.statuses.every((status) => status === 200),
			`the second person's deliveries answered 200 (${second.statuses.join(', ')})`,
		);
		await waitFor('the second task', async () => tracker.tasks.length >= 2, 60000).catch(
			() => undefined,
		);
		check(
			group,
			tracker.tasks.length === 2 && tracker.tasks[1].body.personId === second.person.id,
			`the second person made the second task (${tracker.tasks.length} tasks)`,
		);
		await L.stop(n8n.child);
		log(
			'trigger: n8n stopped; starting it again on the same user folder and port (the production URL stays)',
		);
		const port = Number(new URL(n8n.base).port);
		n8n = await L.startN8n({
			inst,
			env,
			log,
			children,
			host: '127.0.0.1',
			webhookUrl: true,
			logPrefix: 'trigger (restarted): ',
			port,
		});
		// Until n8n has registered the active workflow's webhook again it answers 404 and starts nothing.
		let again = 0;
		await waitFor(
			'the redelivery to reach the restarted trigger',
			async () => (again = await second.redeliver()) !== 404,
			60000,
		).catch(() => undefined);
		check(group, again === 200, `the redelivery after the restart answered 200 (got ${again})`);
		const restartedSession = await L.ownerSession(n8n.base);
		const finished = (list) =>
			list.results.every((e) => e.finished || ['success', 'error', 'crashed'].includes(e.status));
		// The trigger answers a delivery that starts the workflow itself, so n8n saves its memory before the run
		// starts: after the restart it refuses the redelivery, and there are still two executions.
		await L.sleep(5000); // room for a wrongly started third execution to show up and finish
		const afterRestart = await executions(n8n, restartedSession.cookie, workflowId);
		const count = afterRestart.results.length;
		const statuses = afterRestart.results.map((e) => e.status).join(', ');
		check(
			group,
			count === 2 && finished(afterRestart),
			`after the restart the redelivered event started no execution: one execution for it in all (${count} executions for the two people: ${statuses})`,
		);
		check(
			group,
			tracker.tasks.length === 2,
			`after the restart the redelivered event made no second task for its person (tasks: ${tracker.tasks.length})`,
		);
		const allCreates = (await L.sandboxRequests(sb)).filter(isCreate);
		check(
			group,
			allCreates.length === 2 &&
				(await crmWebhooks(sb)).filter((h) => h.url === productionUrl).length === 2,
			`re-activation after the restart created no duplicate webhook (${allCreates.length} creates in all)`,
		);

		// 6) deactivation deletes exactly the webhooks the trigger created
		const deactivated = await deactivateWorkflow(n8n, restartedSession.cookie, workflowId);
		const isDelete = (q) => q.method === 'DELETE' && /\/api\/webhooks\//.test(q.path || q.url);
		const deletes = await waitFor(
			'the webhooks deleted on deactivation',
			async () => {
				const gone = (await L.sandboxRequests(sb)).filter(isDelete);
				return gone.length >= 2 ? gone : undefined;
			},
			30000,
		).catch(() => []);
		await L.sleep(1000);
		const deleted = (await L.sandboxRequests(sb)).filter(isDelete).map((q) =>
			String(q.path || q.url)
				.split('/')
				.pop(),
		);
		const left = (await crmWebhooks(sb)).map((h) => h.id).sort();
		check(
			group,
			deactivated === 200 &&
				deleted.length === 2 &&
				deleted.slice().sort().join() === ownIds.slice().sort().join() &&
				deletes.every((q) => q.status === 200),
			`deactivation (${deactivated}) deleted exactly the trigger's webhooks ${ownIds.join(', ')}: ${deleted.join(', ')}`,
		);
		check(
			group,
			left.join() === [handMade.id, 'w-1'].sort().join(),
			`the hand-made webhook ${handMade.id} and w-1 survive (left: ${left.join(', ')})`,
		);
	} catch (e) {
		check(group, false, `trigger scenario: ${e.message}`);
		if (n8n) console.log(n8n.output().slice(-4000));
	} finally {
		if (n8n) await L.stop(n8n.child);
		await tracker.close();
	}
}

module.exports = { triggerScenario, isTriggerWorkflow, TRIGGER_TYPE };
