'use strict';
/**
 * Executions of one tenant started at once in the real n8n application share Max Requests Per Second
 * (called by run-e2e.js, before the examples run).
 *
 * A published workflow (Webhook → Split Out → Person › Create, Request Options at their defaults) is
 * called EXECUTIONS times at once by `n8n start`; each call creates PEOPLE_PER_EXECUTION people. The
 * sandbox's request log must show every person created exactly once, and a pace the cap allows: the
 * last create arrives no sooner than (n - 1) / cap seconds after the calls were made (a bound that a
 * loaded machine cannot break, and that separate budgets per execution would break), and no second
 * holds more than the cap: a request counts against it from its start until a second after its
 * answer, so a busy n8n process that holds a started request cannot bunch arrivals.
 *
 * Starting n8n here also does what every real instance has done before it runs a workflow: `n8n
 * start` writes the roles' scopes into a new database. Without that, `n8n execute` on a database that
 * was never started gives the owner no scopes, and an inline sub-workflow that uses a credential
 * (examples/people-export-page-by-page.json) is refused before it runs.
 */
const fs = require('node:fs');
const path = require('node:path');
const L = require('./lib');
const { busiestSecond } = require('../harness/busiest-second');

const WORKFLOW_ID = 'e2eTenantPaceCreate1';
const WEBHOOK_ID = '6f1d2c3b-5a4e-4f7a-9c8b-7e6d5c4b3a21';
const EXECUTIONS = 4;
const PEOPLE_PER_EXECUTION = 100;
const CAP = 50; // the node's default Max Requests Per Second

function workflow(credential) {
	return {
		id: WORKFLOW_ID,
		name: 'Tenant pace: create the posted people',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				parameters: {
					httpMethod: 'POST',
					path: 'tenant-pace',
					responseMode: 'lastNode',
					options: {},
				},
				id: 't1',
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: WEBHOOK_ID,
			},
			{
				parameters: { fieldToSplitOut: 'body.people', options: {} },
				id: 't2',
				name: 'One item per person',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [220, 0],
			},
			{
				parameters: {
					resource: 'person',
					operation: 'create',
					mappingMode: 'defineBelow',
					firstName: '={{ $json.firstName }}',
					lastName: 'Pace',
				},
				id: 't3',
				name: 'Create people',
				type: `${L.PACKAGE_NAME}.integrationService`,
				typeVersion: 1,
				position: [440, 0],
				credentials: { [L.CREDENTIAL_TYPE]: credential },
			},
		],
		connections: {
			Webhook: { main: [[{ node: 'One item per person', type: 'main', index: 0 }]] },
			'One item per person': { main: [[{ node: 'Create people', type: 'main', index: 0 }]] },
		},
	};
}

async function waitForWebhook(url, timeoutMs) {
	const started = Date.now();
	let status = 0;
	while (Date.now() - started < timeoutMs) {
		status = await L.httpRequest(
			url,
			{
				method: 'OPTIONS',
				headers: { Origin: 'http://127.0.0.1', 'Access-Control-Request-Method': 'POST' },
			},
			10000,
		)
			.then((res) => res.status)
			.catch(() => 0);
		// A 2xx only: n8n has answered the preflight with 500 while it was still activating, then 404 to the POSTs.
		if (status >= 200 && status < 300) return { ok: true, status, ms: Date.now() - started };
		await L.sleep(500);
	}
	return { ok: false, status, ms: Date.now() - started };
}

/**
 * How many requests a rate limiter of `rate` per second with a burst of `rate` (a token bucket, the
 * usual way a service counts "about 50 per second") would have refused, given their arrival times.
 */
function refusedByTokenBucket(times, rate) {
	let tokens = rate;
	let last = -Infinity;
	let refused = 0;
	for (const t of [...times].sort((a, b) => a - b)) {
		tokens = Math.min(rate, tokens + ((t - last) / 1000) * rate);
		last = t;
		if (tokens >= 1) tokens -= 1;
		else refused++;
	}
	return refused;
}

async function tenantPaceScenario({ inst, env, sb, importDir, log, check, children, credential }) {
	const group = 'tenant pace: concurrent executions in n8n start';
	const wfFile = path.join(importDir, 'tenant-pace-workflow.json');
	fs.writeFileSync(wfFile, JSON.stringify(workflow(credential), null, 2));
	let r = await L.runN8n(inst, env, ['import:workflow', `--input=${wfFile}`]);
	check(group, r.code === 0, `import:workflow exit ${r.code}`);
	r = await L.runN8n(inst, env, ['publish:workflow', `--id=${WORKFLOW_ID}`]);
	if (!check(group, r.code === 0, `publish:workflow exit ${r.code}`))
		console.log((r.stdout + r.stderr).slice(-2000));

	const n8n = await L.startN8n({
		inst,
		env,
		log,
		children,
		host: '127.0.0.1',
		webhookUrl: true,
		logPrefix: 'tenant pace: ',
	});
	try {
		const url = `${n8n.base}/webhook/tenant-pace`;
		// n8n reports ready before it has activated the published workflows: wait until the webhook is
		// registered (a preflight for an unknown path answers 404).
		const registered = await waitForWebhook(url, 90000);
		check(
			group,
			registered.ok,
			`the webhook is registered (OPTIONS ${url} -> ${registered.status} after ${(registered.ms / 1000).toFixed(1)} s)`,
		);
		await L.sandboxReset(sb);
		const calls = Array.from({ length: EXECUTIONS }, (_, execution) => ({
			people: Array.from({ length: PEOPLE_PER_EXECUTION }, (__, index) => ({
				firstName: `e${execution}-${index}`,
			})),
		}));
		const postedAt = Date.now();
		const answers = await Promise.all(
			calls.map(async (body) => {
				const res = await L.httpRequest(
					url,
					{
						method: 'POST',
						headers: { 'Content-Type': 'application/json' },
						body: JSON.stringify(body),
					},
					180000,
				);
				return { status: res.status, text: await res.text() };
			}),
		);
		const seconds = (Date.now() - postedAt) / 1000;
		check(
			group,
			answers.every((a) => a.status === 200),
			`${EXECUTIONS} webhook calls made at once all answered 200 after ${seconds.toFixed(1)} s (${answers.map((a) => a.status).join(', ')})`,
		);

		const creates = (await L.sandboxRequests(sb)).filter(
			(q) => q.method === 'POST' && q.path === '/api/people',
		);
		const names = creates.map((q) => q.body && q.body.firstName);
		const expected = calls.flatMap((c) => c.people.map((p) => p.firstName));
		const once =
			new Set(names).size === names.length &&
			names.length === expected.length &&
			expected.every((name) => names.includes(name));
		check(
			group,
			once && creates.every((q) => q.status >= 200 && q.status < 300),
			`every one of the ${expected.length} people was created exactly once (${creates.length} creates, ${new Set(names).size} distinct, statuses ${[...new Set(creates.map((q) => q.status))].join(', ')})`,
		);

		const times = creates.map((q) => q.receivedAt);
		const busiest = busiestSecond(times);
		const lastAt = Math.max(...times);
		const floorMs = ((expected.length - 1) * 1000) / CAP;
		log(
			`tenant pace: ${EXECUTIONS} executions x ${PEOPLE_PER_EXECUTION} creates at once: busiest second ${busiest} requests (cap ${CAP}); the last create arrived ${((lastAt - postedAt) / 1000).toFixed(2)} s after the calls (shared budget: >= ${(floorMs / 1000).toFixed(2)} s)`,
		);
		check(
			group,
			lastAt - postedAt >= floorMs,
			`one budget for the tenant: the ${expected.length} creates took ${((lastAt - postedAt) / 1000).toFixed(2)} s (>= ${(floorMs / 1000).toFixed(2)} s at ${CAP} per second; separate budgets would take about ${(floorMs / EXECUTIONS / 1000).toFixed(1)} s)`,
		);
		check(
			group,
			busiest <= CAP,
			`the service's busiest second held ${busiest} creates (cap ${CAP})`,
		);
		const refused = refusedByTokenBucket(times, CAP);
		check(
			group,
			refused === 0,
			`a limiter of ${CAP} per second (burst ${CAP}) at the service would have refused ${refused} of the ${times.length} creates`,
		);
	} finally {
		await L.stop(n8n.child);
	}
}

module.exports = { tenantPaceScenario };
