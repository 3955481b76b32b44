'use strict';
/**
 * Our credential in n8n's own HTTP Request node (Predefined Credential Type) in the real n8n
 * application (called by run-e2e.js), in Client ID and Secret mode:
 *
 *  1. a POST that the sandbox processes and then answers 500: n8n's request helper re-sends after a
 *     failure whenever the credential hands back a new token; the sandbox must see the POST once
 *  2. the credential is edited to another tenant, keeping the stored Session Token of the first one
 *     (the worst case: n8n keeps hidden fields when a credential is edited): the next run must not
 *     send the first tenant's token, and its create must land once, with a token that names the new one
 */
const fs = require('node:fs');
const path = require('node:path');
const L = require('./lib');

const CRED_ID = 'httpRequestCred';
const CRED_NAME = 'Integration Service for the HTTP Request node';
const WORKFLOW_ID = 'e2eHttpRequestPost01';

function workflow(crmUrl) {
	return {
		id: WORKFLOW_ID,
		name: 'HTTP Request node: create a person with the Integration Service credential',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				parameters: {},
				id: 'h1',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
			},
			{
				parameters: {
					method: 'POST',
					url: `${crmUrl}/api/people`,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: 'integrationServiceApi',
					sendHeaders: true,
					headerParameters: {
						parameters: [{ name: 'X-Service-Credential-Id', value: 'cred-default' }],
					},
					sendBody: true,
					specifyBody: 'json',
					jsonBody: '{"firstName": "Once", "lastName": "Only"}',
					options: {},
				},
				id: 'h2',
				name: 'Create person',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [220, 0],
				credentials: { integrationServiceApi: { id: CRED_ID, name: CRED_NAME } },
			},
		],
		connections: { Start: { main: [[{ node: 'Create person', type: 'main', index: 0 }]] } },
	};
}

/** The tenant (sub) a bearer token names, '' for none. */
function tenantOf(authorization) {
	const token = String(authorization || '').replace(/^Bearer ?/, '');
	try {
		return (
			JSON.parse(Buffer.from(token.split('.')[1] || '', 'base64url').toString('utf8')).sub || ''
		);
	} catch {
		return '';
	}
}

async function postsToPeople(sb) {
	const reqs = await L.sandboxRequests(sb);
	return reqs.filter(
		(q) => q.method === 'POST' && String(q.path || q.url).startsWith('/api/people'),
	);
}

async function httpRequestScenario({ inst, env, sb, importDir, log, check }) {
	const group = 'HTTP Request node with our credential';
	const data = {
		...require(path.join(L.REPO, 'build/test/sandbox/credential.js')).sandboxCredential(
			sb,
			'clientCredentials',
		),
		userId: 'tenant-a',
	};
	const credFile = path.join(importDir, 'http-request-credential.json');
	fs.writeFileSync(
		credFile,
		JSON.stringify([{ id: CRED_ID, name: CRED_NAME, type: L.CREDENTIAL_TYPE, data }], null, 2),
	);
	let r = await L.runN8n(inst, env, ['import:credentials', `--input=${credFile}`]);
	check(group, r.code === 0, `import:credentials exit ${r.code}`);
	const wfFile = path.join(importDir, 'http-request-workflow.json');
	fs.writeFileSync(wfFile, JSON.stringify(workflow(sb.urls.crm), null, 2));
	r = await L.runN8n(inst, env, ['import:workflow', `--input=${wfFile}`]);
	check(group, r.code === 0, `import:workflow exit ${r.code}`);

	// 1) processed, then answered 500: sent once, and the run fails.
	await L.sandboxReset(sb);
	let res = await L.httpRequest(`${sb.urls.crm}/__sandbox/faults`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({
			status: 500,
			afterProcessing: true,
			count: 1,
			match: { method: 'POST', pathPrefix: '/api/people' },
		}),
	});
	check(group, res.status < 300, `sandbox fault "500 after processing" injected (${res.status})`);
	r = await L.runN8n(inst, env, ['execute', `--id=${WORKFLOW_ID}`, '--rawOutput'], {
		timeoutMs: 240000,
	});
	let posts = await postsToPeople(sb);
	log(
		`http request: POST answered 500 -> ${posts.length} POST(s): ${posts.map((q) => `${q.status} ${tenantOf(q.headers && q.headers.authorization) || 'no token'}`).join(', ')}`,
	);
	check(
		group,
		posts.length === 1,
		`a POST answered 500 reached the service once (${posts.length} POSTs; n8n exit ${r.code})`,
	);

	// 2) edited to another tenant, the stored Session Token of tenant-a kept.
	const exported = path.join(importDir, 'http-request-credential-export.json');
	r = await L.runN8n(inst, env, [
		'export:credentials',
		`--id=${CRED_ID}`,
		'--decrypted',
		`--output=${exported}`,
	]);
	const stored = r.code === 0 ? JSON.parse(fs.readFileSync(exported, 'utf8')) : [];
	const storedData = (Array.isArray(stored) ? stored[0] : stored)?.data || {};
	const storedToken = String(storedData.sessionToken || '');
	check(
		group,
		storedToken.startsWith('["') && storedToken.includes('tenant-a'),
		`the stored Session Token names the identity it was signed for (${storedToken.slice(0, storedToken.indexOf(']') + 1)} then the token)`,
	);
	fs.writeFileSync(
		credFile,
		JSON.stringify(
			[
				{
					id: CRED_ID,
					name: CRED_NAME,
					type: L.CREDENTIAL_TYPE,
					data: { ...storedData, userId: 'tenant-b' },
				},
			],
			null,
			2,
		),
	);
	r = await L.runN8n(inst, env, ['import:credentials', `--input=${credFile}`]);
	check(
		group,
		r.code === 0,
		`credential edited to tenant-b, Session Token of tenant-a kept (exit ${r.code})`,
	);
	await L.sandboxReset(sb);
	r = await L.runN8n(inst, env, ['execute', `--id=${WORKFLOW_ID}`, '--rawOutput'], {
		timeoutMs: 240000,
	});
	posts = await postsToPeople(sb);
	const tenants = posts.map((q) => tenantOf(q.headers && q.headers.authorization));
	log(
		`http request: after the edit -> ${posts.map((q, i) => `${q.status} ${tenants[i] || 'no token'}`).join(', ')}`,
	);
	check(
		group,
		!tenants.includes('tenant-a'),
		`no request carried tenant-a's token after the edit (${tenants.map((t) => t || 'none').join(', ')})`,
	);
	check(
		group,
		posts.filter((q) => q.status < 300).length === 1 && tenants[tenants.length - 1] === 'tenant-b',
		`the create landed once, with a token for tenant-b (exit ${r.code})`,
	);
	res = await L.httpRequest(`${sb.urls.crm}/__sandbox/faults`, { method: 'DELETE' });
}

module.exports = { httpRequestScenario };
