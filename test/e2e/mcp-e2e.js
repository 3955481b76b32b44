#!/usr/bin/env node
'use strict';
/**
 * The node as an AI agent's tool in the real n8n application (`npm run test:e2e:mcp`): `n8n start` on a
 * fresh user folder, then what a user does in the editor, through n8n's REST API: the Integration
 * Service credential, an httpBearerAuth credential, a workflow with n8n's MCP Server Trigger (Bearer
 * Auth) and our node's Tool variant doing Person › Create with $fromAI fields, Publish. The official MCP
 * client (@modelcontextprotocol/sdk: Client + StreamableHTTPClientTransport) then calls the tool the way
 * an agent does (mcp-scenarios.js): the listing, a healthy create, a service text that echoes the
 * token, a 429 with Retry-After: 50 at the client's default 60 s timeout, and an answer held past the
 * client's timeout. Each create must reach the service once. A second workflow offers what a model
 * puts in (mcp-input-scenarios.js): Map From a JSON Record and an optional number left empty, and Get
 * Many at its defaults. The closing line gives the characters of each answer a model read.
 *
 * The sandbox runs in this process (build/test/sandbox/server.js, from `npm run build:tools`): the
 * scenarios read its request log and records directly.
 *
 * Exit: 0 passed, 1 a check failed, 2 skipped (n8n could not be installed; "e2e-mcp: skipped: <reason>").
 * Options: --keep (keep the n8n user folder). Environment: as run-e2e.js (N8N_E2E_CACHE, E2E_TARBALL,
 * E2E_N8N_LOG_LEVEL).
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ensureInstalled, SkipError, PINS } = require('./install-n8n');
const L = require('./lib');
const { mcpScenarios } = require('./mcp-scenarios');
const { MCP_INPUT_PATH, inputWorkflow, mcpInputScenarios } = require('./mcp-input-scenarios');
const { mcpExampleWorkflow, agentExampleCheck, MCP_EXAMPLE } = require('./mcp-examples');

const WEBHOOK_ID = '3c8e5a1f-7b2d-4e6a-9f0c-1d2e3f4a5b6c';
const MCP_PATH = 'integration-service-e2e';
const CRED = { name: 'Integration Service sandbox' };
const MCP_CRED = { name: 'MCP clients (Bearer)' };
/** The Bearer token MCP clients must send: random per run, so that its absence from errors means something. */
const MCP_TOKEN = crypto.randomBytes(24).toString('hex');

const keep = process.argv.includes('--keep');
const children = [];
const cleanups = [];
const { log, check, skip, summary } = L.createRun({ tag: 'e2e-mcp', label: 'e2e-mcp', cleanup });

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

/** The in-process sandbox, from the compiled tests (npm run build:tools). */
async function startSandbox() {
	const built = path.join(L.REPO, 'build/test/sandbox');
	if (!fs.existsSync(path.join(built, 'server.js')))
		throw new Error('the sandbox is not built: run "npm run build:tools"');
	const sandbox = await require(path.join(built, 'server.js')).startSandbox({ people: 25 });
	cleanups.push(() => void sandbox.close());
	const credential = require(path.join(built, 'credential.js')).sandboxCredential(sandbox);
	return { sandbox, credential };
}

/** A call to n8n's REST API as the owner; resolves the answer's `data`, throws on a status other than 200. */
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

/**
 * What a user does in the editor: both credentials, the workflow, Publish. Through the running n8n's REST
 * API, which takes a second where each `n8n import:*` or `publish:workflow` command boots n8n anew.
 */
async function createWorkflow(base, sandboxData) {
	const group = 'mcp: setup';
	const session = await L.ownerSession(base);
	check(group, session.status === 200, `owner session (${session.how} -> ${session.status})`);
	const { cookie } = session;
	const cred = await rest(base, cookie, 'POST', 'credentials', {
		name: CRED.name,
		type: L.CREDENTIAL_TYPE,
		data: sandboxData,
	});
	const mcpCred = await rest(base, cookie, 'POST', 'credentials', {
		name: MCP_CRED.name,
		type: 'httpBearerAuth',
		data: { token: MCP_TOKEN },
	});
	// The example as a user imports it; only the credentials, the path and the webhook id are this run's.
	const credential = { id: cred.id, name: CRED.name };
	const wf = mcpExampleWorkflow({
		credential,
		mcpCredential: { id: mcpCred.id, name: MCP_CRED.name },
		mcpPath: MCP_PATH,
		webhookId: WEBHOOK_ID,
	});
	const created = await rest(base, cookie, 'POST', 'workflows', wf);
	const published = await rest(base, cookie, 'POST', `workflows/${created.id}/activate`, {
		versionId: created.versionId,
	});
	check(
		group,
		published.active === true || !!published.activeVersionId,
		`credentials ${cred.id} (${L.CREDENTIAL_TYPE}) and ${mcpCred.id} (httpBearerAuth) created; ${path.relative(L.REPO, MCP_EXAMPLE)} imported as workflow ${created.id} and published`,
	);
	const input = await rest(
		base,
		cookie,
		'POST',
		'workflows',
		inputWorkflow({
			packageName: L.PACKAGE_NAME,
			credentialType: L.CREDENTIAL_TYPE,
			credential: { id: cred.id, name: CRED.name },
			mcpCredential: { id: mcpCred.id, name: MCP_CRED.name },
		}),
	);
	await rest(base, cookie, 'POST', `workflows/${input.id}/activate`, {
		versionId: input.versionId,
	});
	// Its own group: a failure there leaves the MCP scenarios to run.
	await agentExampleCheck({
		base,
		cookie,
		credential,
		rest: (method, route, body) => rest(base, cookie, method, route, body),
		check,
		log,
	}).catch((e) => check('mcp: AI Agent example imports', false, e.stack || e.message));
}

/**
 * Waits until n8n serves the published trigger: before that its path answers 404. The request carries
 * no token, so it also shows that the endpoint refuses a client without one.
 */
async function waitForEndpoint(url) {
	const started = Date.now();
	let status = 0;
	while (Date.now() - started < 90000) {
		status = await L.httpRequest(url, { method: 'GET', headers: { Accept: 'text/event-stream' } })
			.then((res) => (res.body && res.body.cancel().catch(() => undefined), res.status))
			.catch(() => 0);
		if (status !== 404 && status !== 0) break;
		await L.sleep(500);
	}
	return { status, ms: Date.now() - started };
}

async function main() {
	log(`n8n ${PINS.n8n}: ${L.PACKAGE_NAME} as a tool behind the MCP Server Trigger`);
	const missing = L.missingBuiltFiles();
	if (missing.length) {
		check(
			'mcp: setup',
			false,
			`built package files missing (npm run build): ${missing.join(', ')}`,
		);
		return summary();
	}
	let inst;
	try {
		inst = await ensureInstalled({ log: (m) => log(`install: ${m}`), browser: false });
	} catch (e) {
		skip(e instanceof SkipError ? e.message : `install error: ${e.message}`);
	}
	const { sandbox, credential } = await startSandbox();
	log(`sandbox (in this process) at ${sandbox.urls.crm} and the next three ports`);

	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-mcp-'));
	if (!keep) cleanups.push(() => fs.rmSync(userFolder, { recursive: true, force: true }));
	L.installPackageInto(userFolder);
	const env = L.n8nEnv(inst, userFolder);
	const n8n = await L.startN8n({ inst, env, log, children, host: '127.0.0.1', webhookUrl: true });
	// Characters of each answer a model read: the closing line, for issue 32's before/after table.
	const sizes = [];
	try {
		await createWorkflow(n8n.base, credential);
		const url = `${n8n.base}/mcp/${MCP_PATH}`;
		const endpoint = await waitForEndpoint(url);
		check(
			'mcp: setup',
			endpoint.status === 401 || endpoint.status === 403,
			`the MCP endpoint ${url} is served and refuses a client without the Bearer token (${endpoint.status} after ${(endpoint.ms / 1000).toFixed(1)} s)`,
		);
		await mcpScenarios({
			url,
			token: MCP_TOKEN,
			sandbox,
			secrets: [MCP_TOKEN, sandbox.token],
			sizes,
			log,
			check,
		});
		const inputUrl = `${n8n.base}/mcp/${MCP_INPUT_PATH}`;
		await waitForEndpoint(inputUrl);
		await mcpInputScenarios({ url: inputUrl, token: MCP_TOKEN, sandbox, sizes, log, check });
		log(`characters per answer: ${sizes.join('; ')}`);
	} catch (e) {
		check('mcp: runner', false, `${e.stack || e.message}`);
		console.log(n8n.output().slice(-4000));
	} finally {
		await L.stop(n8n.child);
	}
	if (keep) log(`kept user folder ${userFolder}`);
	return summary();
}

main().catch((e) => {
	console.error(e);
	check('mcp: runner', false, e.message);
	summary();
});
