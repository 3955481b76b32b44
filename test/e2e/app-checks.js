'use strict';
/**
 * The package as `n8n start` serves it, on every n8n version of the matrix (called by run-e2e.js):
 *
 *  - loaded as a community package: /types/nodes.json has the node, its Tool variant (what an AI Agent
 *    offers as a tool; n8n makes it from `usableAsTool`) and the trigger; /types/credentials.json the
 *    credential. When the node is missing, n8n's own words about the package are printed (what a user
 *    sees in the log)
 *  - n8n's credential test (what the credential form's "Test" and "Save" run, POST /rest/credentials/test)
 *    passes with the sandbox's token and with its client ID and secret, each reading one person with the
 *    bearer token and the credential ID, and a wrong token fails with the credential's own message (on
 *    2.41.1; the tester of 1.123.81 shows n8n's own message for a 401 instead)
 *
 * Starting n8n here also writes the roles' scopes into the new database, which `n8n execute` needs for a
 * sub-workflow that uses a credential (see tenant-pace-e2e.js).
 */
const L = require('./lib');
const { DEFAULT_VERSION } = require('./versions');

const TRIGGER_TYPE = `${L.PACKAGE_NAME}.integrationServiceTrigger`;
const LOADED = 'community package loaded';
const CREDENTIAL_TEST = 'credential test';
/** The credential's message for a refused token (credentials/IntegrationServiceApi.credentials.ts). */
const REFUSED = 'The CRM host refused the token (HTTP 401)';
/**
 * n8n's own message for a 401, which the credential tester of some versions (1.123.81) shows instead of
 * the credential's rules: it applies them only to an error of another shape than its RoutingNode throws.
 */
const N8N_401 = 'Authorization failed - please check your credentials';

/** GET url as JSON; a refused or reset connection is tried once more (n8n on a loaded machine). */
async function getJson(url, cookie) {
	let res;
	try {
		res = await L.httpRequest(url, { headers: { cookie } }, 60000);
	} catch {
		await L.sleep(2000);
		res = await L.httpRequest(url, { headers: { cookie } }, 60000);
	}
	return { status: res.status, body: res.status === 200 ? await res.json() : undefined };
}

/** The node, its Tool variant, the trigger and the credential, as the editor receives them. */
async function loadedChecks({ base, cookie, check, output }) {
	const nodes = await getJson(`${base}/types/nodes.json`, cookie);
	const types = Array.isArray(nodes.body) ? nodes.body : [];
	const has = (name) => types.some((t) => t.name === name);
	const main = check(
		LOADED,
		has(L.NODE_TYPE),
		`/types/nodes.json (HTTP ${nodes.status}, ${types.length} types) has ${L.NODE_TYPE}`,
	);
	check(LOADED, has(`${L.NODE_TYPE}Tool`), `it has ${L.NODE_TYPE}Tool: the node as an AI tool`);
	check(LOADED, has(TRIGGER_TYPE), `it has ${TRIGGER_TYPE}`);
	const creds = await getJson(`${base}/types/credentials.json`, cookie);
	check(
		LOADED,
		Array.isArray(creds.body) && creds.body.some((c) => c.name === L.CREDENTIAL_TYPE),
		`/types/credentials.json (HTTP ${creds.status}) has ${L.CREDENTIAL_TYPE}`,
	);
	if (!main) {
		const said = output()
			.split('\n')
			.filter((l) => l.includes(L.PACKAGE_NAME) || /error/i.test(l))
			.slice(-15);
		console.log(`---- what n8n said about the package ----\n${said.join('\n')}\n----`);
	}
}

/** POST /rest/credentials/test for the stored credential `stored` with `data`; resolves n8n's answer. */
async function testCredential(base, cookie, stored, data) {
	const res = await L.httpRequest(
		`${base}/rest/credentials/test`,
		{
			method: 'POST',
			headers: { cookie, 'content-type': 'application/json' },
			body: JSON.stringify({ credentials: { ...stored, type: L.CREDENTIAL_TYPE, data } }),
		},
		60000,
	);
	const text = await res.text();
	let body;
	try {
		body = JSON.parse(text);
	} catch {
		body = text;
	}
	const answer = body && body.data !== undefined ? body.data : body;
	return { status: res.status, answer: answer || {} };
}

/**
 * The credential test, once per mode and once with a wrong token. `credentials`: the stored credentials
 * run-e2e.js imported ({ id, name, data }), token mode first (a copy the examples do not use: its wrong
 * token is stored on n8n 1.x), client mode second.
 */
async function credentialTestChecks({ base, cookie, sb, check, credentials, strict = true }) {
	const [token, client] = credentials;
	for (const [what, cred] of [
		['token', token],
		['client ID and secret', client],
	]) {
		await L.sandboxReset(sb);
		const r = await testCredential(base, cookie, { id: cred.id, name: cred.name }, cred.data);
		const reads = (await L.sandboxRequests(sb)).filter((q) =>
			String(q.path || q.url).startsWith('/api/people'),
		);
		const headers = (reads[reads.length - 1] || {}).headers || {};
		check(
			CREDENTIAL_TEST,
			r.status === 200 && r.answer.status === 'OK',
			`${what}: HTTP ${r.status} ${JSON.stringify(r.answer)}`,
		);
		check(
			CREDENTIAL_TEST,
			reads.length >= 1 &&
				/^Bearer \S+/.test(String(headers.authorization)) &&
				headers['x-service-credential-id'] === cred.data.credentialId,
			`${what}: the test read the people list with a bearer token and the credential ID (${reads.length} read(s))`,
		);
	}
	const wrong = { ...token.data, accessToken: 'not-the-sandbox-token' };
	const r = await testCredential(base, cookie, { id: token.id, name: token.name }, wrong);
	const message = String(r.answer.message);
	const ours = message.includes(REFUSED);
	check(
		CREDENTIAL_TEST,
		r.answer.status === 'Error' && (ours || (!strict && message === N8N_401)),
		`a wrong token fails with ${ours ? "the credential's message" : "n8n's own 401 message (this n8n's tester skips the credential's rules)"}: ${JSON.stringify(r.answer)}`,
	);
}

/** Starts n8n, signs the owner in, runs both groups of checks, stops n8n. */
async function appChecks({ inst, env, sb, log, check, children, credentials }) {
	const n8n = await L.startN8n({ inst, env, log, children, logPrefix: 'app: ' });
	try {
		const session = await L.ownerSession(n8n.base);
		check(LOADED, session.status === 200, `${session.how} -> ${session.status}`);
		await loadedChecks({ base: n8n.base, cookie: session.cookie, check, output: n8n.output });
		// The credential's own messages are checked strictly on 2.41.1; an older tester may show n8n's.
		const strict = inst.version === DEFAULT_VERSION;
		const cookie = session.cookie;
		await credentialTestChecks({ base: n8n.base, cookie, sb, check, credentials, strict });
	} finally {
		await L.stop(n8n.child);
	}
}

module.exports = { appChecks, credentialTestChecks };
