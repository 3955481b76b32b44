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
	if (!entry || !fs.existsSync(path.join(repo, entry)))
		return { reason: 'trigger not in this build' };
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
				parameters: {
					events: ['peopleCreated'],
					fetchRecords: true,
					verifySignature: true,
					registerWebhook: false,
				},
				credentials: { [L.CREDENTIAL_TYPE]: credential },
			},
			{
				id: uuid(902),
				name: 'Done',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [220, 0],
				parameters: {},
			},
		],
		connections: { 'On person created': { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
	// n8n's production path for a node with a webhookId: /webhook/<webhookId>/<path of the node's webhook>.
	return { workflow, webhookPath: `${webhookId}/webhook` };
}

const sign = (raw) =>
	crypto
		.createHmac('sha256', SIGNING_SECRET)
		.update(Buffer.from(raw).toString('base64'))
		.digest('hex');

async function postSigned(url, raw) {
	try {
		const r = await L.httpRequest(
			url,
			{
				method: 'POST',
				headers: { 'content-type': 'application/json', 'x-service-signature': sign(raw) },
				body: raw,
			},
			60000,
		);
		return { status: r.status, body: await r.text() };
	} catch (e) {
		return { status: 0, body: e.message };
	}
}

async function run(ctx) {
	const {
		trig,
		sb,
		db,
		mainPort,
		mainProc,
		check,
		log,
		sandboxReset,
		waitForExecutions,
		workersOf,
		executionsOf,
	} = ctx;
	const group = 'trigger in queue mode';
	if (!trig.workflow) {
		log(`trigger scenario: skipped (${trig.reason})`);
		return;
	}
	const url = `http://127.0.0.1:${mainPort}/webhook/${trig.webhookPath}`;
	await sandboxReset(sb);
	const auth = {
		authorization: 'Bearer sandbox-token',
		'x-service-credential-id': 'cred-default',
		'content-type': 'application/json',
	};
	const deliveries = await L.httpRequest(`${sb.urls.crm}/__sandbox/deliveries`, {}, 10000).catch(
		() => undefined,
	);
	const sandboxDelivers = deliveries !== undefined && deliveries.status === 200;
	log(
		`     [${group}] events delivered by ${sandboxDelivers ? 'the sandbox (/__sandbox/deliveries)' : 'this test (the sandbox has no event delivery in this build)'}`,
	);

	if (sandboxDelivers) {
		const put = await L.httpRequest(`${sb.urls.calendar}/api/webhooks/w-1`, {
			method: 'PUT',
			headers: auth,
			body: JSON.stringify({ url, event: 'peopleCreated' }),
		});
		check(
			group,
			put.status === 200,
			`sandbox webhook w-1 pointed at the main process (${put.status})`,
		);
		await L.httpRequest(`${sb.urls.crm}/__sandbox/deliveries`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ mode: 'normal' }),
		});
	}
	const before = (await executionsOf(db, WORKFLOW_ID)).length;
	const count = async () => (await executionsOf(db, WORKFLOW_ID)).length - before;
	const bodies = new Map(); // eventId -> raw body, for self-signed redeliveries
	let lastPersonId;

	/** Creates a person (so the trigger's record fetch in the main process finds it) and has its event delivered once. */
	const deliverNew = async (label) => {
		const person = await (
			await L.httpRequest(`${sb.urls.crm}/api/people`, {
				method: 'POST',
				headers: auth,
				body: JSON.stringify({ firstName: 'Trigger', lastName: label }),
			})
		).json();
		lastPersonId = person.id;
		if (sandboxDelivers) {
			const deadline = Date.now() + 20000;
			let hit;
			while (!hit && Date.now() < deadline) {
				const list = await (await L.httpRequest(`${sb.urls.crm}/__sandbox/deliveries`)).json();
				hit = list.find(
					(d) => d.event === 'peopleCreated' && d.url === url && !bodies.has(d.eventId),
				);
				if (!hit) await L.sleep(300);
			}
			if (hit) bodies.set(hit.eventId, eventBody(sb, hit.eventId, person.id));
			check(
				group,
				!!hit && hit.status === 200 && hit.signature === 'good',
				`${label}: the sandbox delivered event ${hit && hit.eventId} (signature ${hit && hit.signature}); main answered ${hit && hit.status}`,
			);
			return hit && hit.eventId;
		}
		const eventId = `evt-queue-${crypto.randomBytes(6).toString('hex')}`;
		bodies.set(eventId, eventBody(sb, eventId, person.id));
		const r = await postSigned(url, bodies.get(eventId));
		check(
			group,
			r.status === 200,
			`${label}: signed event ${eventId} posted to the main process, answered ${r.status}`,
		);
		return eventId;
	};
	/** The same eventId once more, after its first delivery was answered (how the service retries). */
	const redeliver = async (eventId) => {
		if (sandboxDelivers) {
			const r = await L.httpRequest(`${sb.urls.crm}/__sandbox/deliveries/redeliver`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ eventId }),
			});
			return (await r.json()).status;
		}
		return (await postSigned(url, bodies.get(eventId))).status;
	};

	// Two events one after the other: each starts one execution on a worker; each redelivery starts none.
	let expected = 0;
	const delivered = [];
	for (const label of ['first event', 'second event']) {
		const eventId = await deliverNew(label);
		delivered.push(eventId);
		expected += 1;
		const rows = (await waitForExecutions(db, WORKFLOW_ID, before + expected, 60000)).slice(before);
		const last = rows[rows.length - 1];
		const map = await workersOf(
			mainProc,
			rows.map((x) => x.id),
		);
		check(
			group,
			rows.length === expected &&
				last &&
				last.status === 'success' &&
				/^worker-/.test(map.get(last.id) || ''),
			`${label} started one execution: #${last && last.id} ${last && last.status} on ${last && map.get(last.id)}`,
		);
		// What a restart starts from: every event that ran, not only the first (issue 31).
		const remembered = await rememberedIds(db);
		check(
			group,
			delivered.every((id) => remembered.includes(id)),
			`after the ${label} Postgres remembers every event that ran (${delivered.length}): ${JSON.stringify(remembered)}`,
		);
		const status = await redeliver(eventId);
		await settle();
		const n = await count();
		check(
			group,
			status === 200 && n === expected,
			`${label}: the same eventId delivered again (answered ${status}) started ${n - expected} execution(s)`,
		);
		expected = n;
	}

	// Concurrently: copies of one new event at the same moment. n8n reads the workflow's static data for each
	// request and writes it back after queueing the execution, with no lock: what holds is pinned and printed.
	// Posted by this test (not the sandbox), about the last person: creating another would make the sandbox deliver too.
	const freshId = `evt-queue-${crypto.randomBytes(6).toString('hex')}`;
	const freshRaw = eventBody(sb, freshId, lastPersonId);
	const answers = await Promise.all(
		Array.from({ length: CONCURRENT }, () => postSigned(url, freshRaw)),
	);
	await settle();
	await waitForExecutions(db, WORKFLOW_ID, before + expected + 1, 60000);
	const startedConcurrently = (await count()) - expected;
	expected += startedConcurrently;
	log(
		`     [${group}] ${CONCURRENT} concurrent deliveries of one new eventId: answered ${answers.map((a) => a.status).join(', ')}; started ${startedConcurrently} execution(s)`,
	);
	check(
		group,
		answers.every((a) => a.status === 200) && startedConcurrently === 1,
		`${CONCURRENT} concurrent copies of one eventId started exactly one execution (${startedConcurrently})`,
	);
	const later = await postSigned(url, freshRaw);
	await settle();
	const startedLater = (await count()) - expected;
	expected += startedLater;
	check(
		group,
		later.status === 200 && startedLater === 0,
		`a later delivery of that eventId started ${startedLater} (remembered in Postgres: ${JSON.stringify(await rememberedIds(db))})`,
	);
	const finalRows = (await executionsOf(db, WORKFLOW_ID)).slice(before);
	check(
		group,
		finalRows.every((x) => x.status === 'success'),
		`every trigger execution succeeded on a worker (${finalRows.length})`,
	);
	log(
		`     [${group}] trigger scenario execution count: ${finalRows.length} (2 events delivered one after the other, each redelivered once; ${startedConcurrently} from ${CONCURRENT} concurrent copies of a third; ${startedLater} from its later redelivery)`,
	);
}

/** The trigger's remembered event IDs as saved in Postgres (workflow_entity.staticData). */
async function rememberedIds(db) {
	const r = await db.query('SELECT "staticData" AS s FROM workflow_entity WHERE id = $1', [
		WORKFLOW_ID,
	]);
	const data = r.rows[0] && r.rows[0].s;
	const parsed = typeof data === 'string' ? JSON.parse(data) : data || {};
	return Object.values(parsed).flatMap((v) =>
		v && Array.isArray(v.recentEventIds) ? v.recentEventIds : [],
	);
}

function eventBody(sb, eventId, personId) {
	return JSON.stringify({
		eventId,
		eventCreated: new Date().toISOString(),
		event: 'peopleCreated',
		resourceIds: [personId],
		uri: `${sb.urls.crm}/api/people?ids=${personId}`,
	});
}

/** Gives a wrongly started execution time to appear in Postgres before counting. */
const settle = () => L.sleep(3000);

module.exports = { prepare, run, postSigned, eventBody, TRIGGER_TYPE };
