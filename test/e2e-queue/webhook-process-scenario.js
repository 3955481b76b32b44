'use strict';
/**
 * Scenario 5: the trigger behind queue mode's separate webhook process (`n8n webhook`), set up as
 * n8n's queue-mode docs do: the main process with N8N_DISABLE_PRODUCTION_MAIN_PROCESS=true (it
 * activates workflows but answers no production webhook), the webhook process on its own port, and
 * WEBHOOK_URL pointing at it, so the trigger's activation (in the main process) creates its CRM
 * webhook at the webhook process's URL. The sandbox then delivers there; executions run on workers.
 *
 * What it proves (issue 31): the first delivery of an event runs once; the webhook process and the
 * main process restart; the same eventId delivered again starts nothing (one execution in all), and
 * a new event after the restart still runs. The memory is the trigger's static data, which the
 * webhook process loads from Postgres for each delivery (n8n `dist/webhooks/live-webhooks.js` 105–117)
 * and saves when the trigger answers, before the run is queued (same file, 147).
 *
 * The workflow is imported with the others but published only here, so the first main process (which
 * serves production webhooks for scenarios 1 to 4) never registers it at its own URL.
 */
const L = require('../e2e/lib');
const { uuid } = require('./workflows');
const { TRIGGER_TYPE } = require('./trigger-scenario');

const WORKFLOW_ID = 'queueTriggerWhProc1';
const GROUP = 'trigger behind a separate webhook process';
const AUTH = {
	authorization: 'Bearer sandbox-token',
	'x-service-credential-id': 'cred-default',
	'content-type': 'application/json',
};

/** The workflow: trigger 1.1, Create and Delete Webhooks on (its default), one CRM event. */
function workflow(credential) {
	const webhookId = uuid(910);
	return {
		workflow: {
			id: WORKFLOW_ID,
			name: 'Queue: trigger behind the webhook process',
			active: false,
			nodes: [
				{
					id: uuid(911),
					webhookId,
					name: 'On person created',
					type: TRIGGER_TYPE,
					typeVersion: 1.1,
					position: [0, 0],
					parameters: { events: ['peopleCreated'], fetchRecords: true, verifySignature: true },
					credentials: { [L.CREDENTIAL_TYPE]: credential },
				},
				{
					id: uuid(912),
					name: 'Done',
					type: 'n8n-nodes-base.noOp',
					typeVersion: 1,
					position: [220, 0],
					parameters: {},
				},
			],
			connections: {
				'On person created': { main: [[{ node: 'Done', type: 'main', index: 0 }]] },
			},
			settings: { executionOrder: 'v1' },
			pinData: {},
		},
		webhookPath: `${webhookId}/webhook`,
	};
}

async function json(res) {
	try {
		return await res.json();
	} catch {
		return undefined;
	}
}

async function crmWebhooks(sb) {
	const body = await json(
		await L.httpRequest(`${sb.urls.crm}/api/webhooks?limit=100`, { headers: AUTH }, 30000),
	);
	return Array.isArray(body && body.webhooks) ? body.webhooks : [];
}

async function waitFor(fn, timeoutMs) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const v = await fn();
		if (v || Date.now() > deadline) return v;
		await L.sleep(500);
	}
}

/** The trigger's own requests to the CRM webhooks (its token is a signed one, not this test's). */
async function byTrigger(ctx, sb, method) {
	return (await ctx.sandboxRequests(sb)).filter(
		(q) =>
			q.method === method &&
			q.path === '/api/webhooks' &&
			q.headers.authorization !== AUTH.authorization,
	).length;
}

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

/**
 * ctx: { sb, db, check, log, sandboxReset, sandboxRequests, waitForExecutions, executionsOf, workersOf,
 *        webhookPath, mainPort, freePort(), postSigned(url, raw), eventBody(sb, eventId, personId),
 *        startMain(extraEnv) → entry, stopMain() → Promise, stopProcess(entry) → Promise,
 *        startWebhookProcess(name, port, webhookUrl) → Promise<entry>, waitReady([[entry, url]]) → Promise<boolean> }
 */
async function run(ctx) {
	const { sb, db, check, log, waitForExecutions, executionsOf, workersOf } = ctx;
	const t0 = Date.now();
	const whPort = await ctx.freePort();
	const whBase = `http://127.0.0.1:${whPort}`;
	const productionUrl = `${whBase}/webhook/${ctx.webhookPath}`;

	// Deliveries of scenario 3 (w-1, at the old main's URL) stop here: reset forgets every delivery target.
	await ctx.sandboxReset(sb);
	await ctx.stopMain();
	const published = await db.query(
		'UPDATE workflow_entity SET active = true, "activeVersionId" = "versionId" WHERE id = $1 AND "versionId" IN (SELECT "versionId" FROM workflow_history)',
		[WORKFLOW_ID],
	);
	check(GROUP, published.rowCount === 1, `workflow ${WORKFLOW_ID} published`);

	/** Starts (or restarts) the main process without production webhooks, and the webhook process. */
	const startBoth = async (label) => {
		const t = Date.now();
		const main = ctx.startMain({
			N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
			WEBHOOK_URL: `${whBase}/`,
		});
		const webhook = await ctx.startWebhookProcess(`webhook-${label}`, whPort, `${whBase}/`);
		const ok = await ctx.waitReady([
			[main, `http://127.0.0.1:${ctx.mainPort}/healthz/readiness`],
			[webhook, `${whBase}/healthz/readiness`],
		]);
		log(
			`     [${GROUP}] ${label}: main and webhook process (port ${whPort}) ready after ${((Date.now() - t) / 1000).toFixed(1)} s`,
		);
		return { main, webhook, ok };
	};
	let procs = await startBoth('first start');
	if (!check(GROUP, procs.ok, 'main (no production webhooks) and `n8n webhook` ready')) return;

	// Activation runs in the main process, after its readiness: it creates the webhook at WEBHOOK_URL.
	const ours = (list) => list.filter((w) => w.url === productionUrl && w.event === 'peopleCreated');
	const created = await waitFor(async () => ours(await crmWebhooks(sb)).length > 0, 120000);
	const listed = await crmWebhooks(sb);
	check(
		GROUP,
		created && ours(listed).length === 1,
		`the main process's activation created ${ours(listed).length} CRM webhook at the webhook process's URL ${productionUrl} (all: ${JSON.stringify(listed.map((w) => `${w.id} ${w.event} ${w.url}`))})`,
	);

	const before = (await executionsOf(db, WORKFLOW_ID)).length;
	const count = async () => (await executionsOf(db, WORKFLOW_ID)).length - before;
	const seen = new Set();
	const personOf = new Map(); // eventId -> the person it is about

	/** Creates a person; the sandbox delivers its event to the webhook process. Resolves the eventId. */
	const deliverNew = async (label) => {
		const person = await json(
			await L.httpRequest(
				`${sb.urls.crm}/api/people`,
				{
					method: 'POST',
					headers: AUTH,
					body: JSON.stringify({ firstName: 'Webhook', lastName: label }),
				},
				30000,
			),
		);
		let hit;
		await waitFor(async () => {
			const list = await json(await L.httpRequest(`${sb.urls.crm}/__sandbox/deliveries`));
			hit = (list || []).find((d) => d.url === productionUrl && !seen.has(d.eventId));
			return hit && hit.status !== 0;
		}, 30000);
		if (hit) seen.add(hit.eventId);
		if (hit) personOf.set(hit.eventId, person && person.id);
		check(
			GROUP,
			!!hit && hit.status === 200 && hit.signature === 'good',
			`${label}: the sandbox delivered ${hit && hit.eventId} to the webhook process, answered ${hit && hit.status}`,
		);
		return hit && hit.eventId;
	};
	const redeliver = async (eventId) =>
		(
			await json(
				await L.httpRequest(
					`${sb.urls.crm}/__sandbox/deliveries/redeliver`,
					{
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify({ eventId }),
					},
					30000,
				),
			)
		).status;
	const ranOnWorker = async (label, expected, proc) => {
		const rows = (await waitForExecutions(db, WORKFLOW_ID, before + expected, 90000)).slice(before);
		const last = rows[rows.length - 1];
		// The process that queued the job logs which worker finished it (the earlier one: its own log).
		const map = await workersOf(proc, last ? [last.id] : []);
		check(
			GROUP,
			rows.length === expected &&
				last.status === 'success' &&
				/^worker-/.test(map.get(last.id) || ''),
			`${label}: ${rows.length} execution(s) in all, the last #${last && last.id} ${last && last.status} on ${last && map.get(last.id)}`,
		);
	};

	// The main process serves no production webhook: a signed event posted there starts nothing.
	const atMain = await ctx.postSigned(
		`http://127.0.0.1:${ctx.mainPort}/webhook/${ctx.webhookPath}`,
		ctx.eventBody(sb, 'evt-posted-to-main', 'p-none'),
	);
	const first = await deliverNew('first event');
	await ranOnWorker('first event', 1, procs.webhook);
	check(
		GROUP,
		atMain.status !== 200 && (await count()) === 1,
		`the main process answered a production webhook ${atMain.status} and started nothing`,
	);
	const statusBefore = await redeliver(first);
	await L.sleep(3000);
	check(
		GROUP,
		statusBefore === 200 && (await count()) === 1,
		`the same eventId again, before the restart (answered ${statusBefore}): ${(await count()) - 1} more`,
	);
	check(
		GROUP,
		(await rememberedIds(db)).includes(first),
		`Postgres remembers ${first}: ${JSON.stringify(await rememberedIds(db))}`,
	);

	// Restart both: the webhook process's in-process memory is gone; only Postgres remembers.
	const tRestart = Date.now();
	const listedBefore = await byTrigger(ctx, sb, 'GET');
	await Promise.all([ctx.stopProcess(procs.webhook), ctx.stopMain()]);
	procs = await startBoth('restart');
	if (!check(GROUP, procs.ok, 'main and webhook process restarted')) return;
	// No duplicate webhook after the restart. n8n 2.41's publication service (on by default) does not run a
	// published workflow's webhook methods again when it restarts: its startup reconcile re-publishes only
	// workflows with missing or outdated triggers (dist/workflows/publication/
	// workflow-publication-reconciler.service.js 65–80), and the webhook rows stay in Postgres. So nothing
	// is listed or created; the wait gives a wrong create the time it took on the first start (about 1 s).
	await L.sleep(5000);
	const afterRestart = ours(await crmWebhooks(sb));
	const creates = await byTrigger(ctx, sb, 'POST');
	const relisted = (await byTrigger(ctx, sb, 'GET')) - listedBefore;
	check(
		GROUP,
		creates === 1 && afterRestart.length === 1,
		`after the restart: ${creates} create(s) in all, ${afterRestart.length} webhook at the webhook process's URL (the restarted main listed the CRM webhooks ${relisted} time(s))`,
	);
	const statusAfter = await redeliver(first);
	// A copy signed by this test shows whose answer it is: the trigger's own, refusing a duplicate.
	const copy = await ctx.postSigned(productionUrl, ctx.eventBody(sb, first, personOf.get(first)));
	await L.sleep(3000);
	const n = await count();
	check(
		GROUP,
		statusAfter === 200 && n === 1,
		`${first} delivered again after the restart (answered ${statusAfter}): ${n} execution(s) in all`,
	);
	check(
		GROUP,
		copy.status === 200 && /"duplicate eventId"/.test(copy.body),
		`a signed copy of ${first} posted to the restarted webhook process: ${copy.status} ${copy.body.slice(0, 120)}`,
	);
	await deliverNew('new event after the restart');
	await ranOnWorker('new event after the restart', 2, procs.webhook);
	const rows = (await executionsOf(db, WORKFLOW_ID)).slice(before);
	check(
		GROUP,
		rows.length === 2 && rows.every((x) => x.status === 'success' && x.mode === 'webhook'),
		`execution_entity: ${rows.map((x) => `#${x.id} ${x.mode} ${x.status}`).join(', ')}`,
	);
	log(
		`     [${GROUP}] scenario took ${((Date.now() - t0) / 1000).toFixed(0)} s (restart and after: ${((Date.now() - tRestart) / 1000).toFixed(0)} s)`,
	);
}

module.exports = { workflow, run, WORKFLOW_ID };
