'use strict';
/**
 * Scenario 3: the Integration Service Trigger, active in queue mode. The event reaches the main
 * process (which runs the trigger's webhook method and keeps the deduplication memory in the
 * workflow's static data, in Postgres); the execution runs on a worker.
 *
 * Runs only when the built package has the trigger node; otherwise it prints
 * "trigger scenario: skipped (trigger not in this build)". Events are delivered by the sandbox when
 * it has event delivery (`/__sandbox/deliveries`), else signed and posted by this test itself, exactly
 * as the delivery contract says (HMAC-SHA256, keyed with the signing secret, over the base64 of the
 * raw body, lowercase hex in X-Service-Signature).
 */
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const L = require('../e2e/lib');
const { uuid } = require('./workflows');

const TRIGGER_TYPE = `${L.PACKAGE_NAME}.integrationServiceTrigger`;
const SIGNING_SECRET = 'sandbox-client-secret';
const WORKFLOW_ID = 'queueTrigger0000001';
const CONCURRENT = 4;

/** Decides whether the scenario can run and, if so, the workflow to import. */
function prepare({ repo, credential }) {
	const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8'));
	const entry = (pkg.n8n.nodes || []).find((f) => /IntegrationServiceTrigger\.node\.js$/.test(f));
	if (!entry || !fs.existsSync(path.join(repo, entry))) return { reason: 'trigger not in this build' };
	const webhookId = uuid(900);
	const workflow = {
		id: WORKFLOW_ID,
		name: 'Queue: Integration Service Trigger',
		active: true,
		nodes: [
			{
				id: uuid(901),
				webhookId,
				name: 'On person created',
				type: TRIGGER_TYPE,
				typeVersion: 1,
				position: [0, 0],
				parameters: { events: ['peopleCreated'], fetchRecords: true, verifySignature: true, registerWebhook: false },
				credentials: { [L.CREDENTIAL_TYPE]: credential },
			},
			{ id: uuid(902), name: 'Done', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [220, 0], parameters: {} },
		],
		connections: { 'On person created': { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
	// n8n's production path for a node with a webhookId: /webhook/<webhookId>/<path of the node's webhook>.
	return { workflow, webhookPath: `${webhookId}/webhook` };
}

const sign = (raw) => crypto.createHmac('sha256', SIGNING_SECRET).update(Buffer.from(raw).toString('base64')).digest('hex');

async function postSigned(url, raw) {
	try {
		const r = await L.httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-signature': sign(raw) }, body: raw }, 60000);
		return { status: r.status, body: await r.text() };
	} catch (e) {
		return { status: 0, body: e.message };
	}
}

async function run(ctx) {
	const { trig, sb, db, mainPort, mainProc, check, log, sandboxReset, waitForExecutions, workersOf, executionsOf } = ctx;
	const group = 'trigger in queue mode';
	if (!trig.workflow) {
		log(`trigger scenario: skipped (${trig.reason})`);
		return;
	}
	const url = `http://127.0.0.1:${mainPort}/webhook/${trig.webhookPath}`;
	await sandboxReset(sb);
	const auth = { authorization: 'Bearer sandbox-token', 'x-service-credential-id': 'cred-default', 'content-type': 'application/json' };
	const deliveries = await L.httpRequest(`${sb.urls.crm}/__sandbox/deliveries`, {}, 10000).catch(() => undefined);
	const sandboxDelivers = deliveries !== undefined && deliveries.status === 200;
	log(`     [${group}] events delivered by ${sandboxDelivers ? 'the sandbox (/__sandbox/deliveries)' : 'this test (the sandbox has no event delivery in this build)'}`);

	if (sandboxDelivers) {
		const put = await L.httpRequest(`${sb.urls.calendar}/api/webhooks/w-1`, { method: 'PUT', headers: auth, body: JSON.stringify({ url, event: 'peopleCreated' }) });
		check(group, put.status === 200, `sandbox webhook w-1 pointed at the main process (${put.status})`);
		await L.httpRequest(`${sb.urls.crm}/__sandbox/deliveries`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'normal' }) });
	}
	// A real person, so the trigger's record fetch (run in the main process) finds it.
	const created = await (await L.httpRequest(`${sb.urls.crm}/api/people`, { method: 'POST', headers: auth, body: JSON.stringify({ firstName: 'Trigger', lastName: 'Queue' }) })).json();
	const before = (await executionsOf(db, WORKFLOW_ID)).length;

	let eventId;
	let raw;
	if (sandboxDelivers) {
		const deadline = Date.now() + 20000;
		let list = [];
		while (Date.now() < deadline) {
			list = await (await L.httpRequest(`${sb.urls.crm}/__sandbox/deliveries`)).json();
			if (list.some((d) => d.event === 'peopleCreated' && d.url === url && d.status !== undefined)) break;
			await L.sleep(300);
		}
		const first = list.find((d) => d.event === 'peopleCreated' && d.url === url);
		eventId = first && first.eventId;
		check(group, first && first.status === 200 && first.signature === 'good', `the sandbox delivered event ${eventId} (signature ${first && first.signature}), main answered ${first && first.status}`);
	} else {
		eventId = `evt-queue-${crypto.randomBytes(6).toString('hex')}`;
		raw = eventBody(sb, eventId, created.id);
		const r = await postSigned(url, raw);
		check(group, r.status === 200, `signed event ${eventId} posted to the main process: ${r.status} ${r.body.slice(0, 120)}`);
	}
	let rows = (await waitForExecutions(db, WORKFLOW_ID, before + 1, 60000)).slice(before);
	const map = await workersOf(mainProc, rows.map((x) => x.id));
	check(group, rows.length === 1 && rows[0].status === 'success' && /^worker-/.test(map.get(rows[0].id) || ''), `first delivery started ${rows.length} execution(s): ${rows.map((x) => `#${x.id} ${x.status} on ${map.get(x.id)}`).join(', ')}`);

	// The same eventId again, after the first answer: the main process reads the saved memory from Postgres.
	raw = raw || eventBody(sb, eventId, created.id);
	let again;
	if (sandboxDelivers) {
		const r = await L.httpRequest(`${sb.urls.crm}/__sandbox/deliveries/redeliver`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ eventId }) });
		again = { status: (await r.json()).status };
	} else {
		again = await postSigned(url, raw);
	}
	check(group, again.status === 200, `the same eventId delivered again, acknowledged ${again.status}`);
	await settle();
	rows = (await executionsOf(db, WORKFLOW_ID)).slice(before);
	check(group, rows.length === 1, `redelivery after the first answer started no execution (executions of the trigger workflow: ${rows.length})`);

	// Concurrently: the same bytes several times at once. n8n loads the workflow's static data per request
	// and saves it after starting the execution, with no lock; what holds is pinned and printed.
	const freshId = `evt-queue-${crypto.randomBytes(6).toString('hex')}`;
	const freshRaw = eventBody(sb, freshId, created.id);
	const beforeConcurrent = rows.length;
	const answers = await Promise.all(Array.from({ length: CONCURRENT }, () => postSigned(url, freshRaw)));
	await settle();
	rows = (await waitForExecutions(db, WORKFLOW_ID, before + beforeConcurrent + 1, 60000)).slice(before);
	const startedConcurrently = rows.length - beforeConcurrent;
	log(`     [${group}] ${CONCURRENT} concurrent deliveries of one new eventId: answered ${answers.map((a) => a.status).join(', ')}; started ${startedConcurrently} execution(s)`);
	check(group, answers.every((a) => a.status === 200) && startedConcurrently >= 1 && startedConcurrently <= CONCURRENT, `concurrent copies of one eventId started between 1 and ${CONCURRENT} executions (${startedConcurrently}; n8n's static data has no cross-request lock)`);
	const afterAll = await postSigned(url, freshRaw);
	await settle();
	const finalRows = (await executionsOf(db, WORKFLOW_ID)).slice(before);
	check(group, afterAll.status === 200 && finalRows.length === rows.length, `a later redelivery of that eventId started none (total ${finalRows.length})`);
	check(group, finalRows.every((x) => x.status === 'success'), `every trigger execution succeeded on a worker (${finalRows.length})`);
	log(`     [${group}] trigger scenario execution count: ${finalRows.length} (1 first delivery + 0 redelivery + ${startedConcurrently} from ${CONCURRENT} concurrent copies + 0 later redelivery)`);
}

function eventBody(sb, eventId, personId) {
	return JSON.stringify({ eventId, eventCreated: new Date().toISOString(), event: 'peopleCreated', resourceIds: [personId], uri: `${sb.urls.crm}/api/people?ids=${personId}` });
}

/** Gives a wrongly started execution time to appear in Postgres before counting. */
const settle = () => L.sleep(3000);

module.exports = { prepare, run, TRIGGER_TYPE };
