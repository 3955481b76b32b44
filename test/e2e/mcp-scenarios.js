'use strict';
/**
 * What an AI agent does with the node through n8n's MCP Server Trigger, with the official MCP client
 * (called by mcp-e2e.js once the workflow is published and n8n serves it). Every scenario asserts on
 * the sandbox's own request log and records: how many creates reached the service, with which body,
 * and how many people exist afterwards.
 */
const { isDeepStrictEqual } = require('node:util');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const {
	StreamableHTTPClientTransport,
} = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { DEFAULT_REQUEST_TIMEOUT_MSEC } = require('@modelcontextprotocol/sdk/shared/protocol.js');
const { ErrorCode, McpError } = require('@modelcontextprotocol/sdk/types.js');
const L = require('./lib');

/** The slow create: the client gives up at CLIENT_TIMEOUT_MS while the node still waits for the answer (its Timeout: 30 s). */
const CLIENT_TIMEOUT_MS = 20000;
/** How long the sandbox holds that create before it processes and answers it. */
const HELD_MS = 35000;
/** The node's own bounds for that create: its Timeout (30 s; a POST is not sent again), the deadline as a tool (45 s), the hold. */
const NODE_BOUND_MS = 50000;
/**
 * The rate-limited create is answered 429 with Retry-After: 50 this long after it was sent, so that a
 * node that waits the 50 s out sends again after the client's default 60 s timeout, as in the report
 * of issue 28; then the service is healthy.
 */
const LIMITED_AFTER_MS = 15000;
/** How long the agent keeps asking again after a failed create, and how long it thinks between two calls. */
const AGENT_PATIENCE_MS = 150000;
const AGENT_PAUSE_MS = 10000;
/** How long nothing more may arrive once the scenario's calls are over. */
const SETTLE_MS = 5000;

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const creates = (sandbox) =>
	sandbox.requests.filter((q) => q.method === 'POST' && q.path === '/api/people');
const textOf = (result) =>
	((result && result.content) || []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');

async function connect(ctx) {
	const client = new Client({ name: 'n8n-nodes-integration-service-e2e', version: '1.0.0' });
	const transport = new StreamableHTTPClientTransport(new URL(ctx.url), {
		requestInit: { headers: { Authorization: `Bearer ${ctx.token}` } },
	});
	await client.connect(transport);
	return client;
}

/** One tools/call: { ms, result } when the client got an answer, { ms, error } when it gave up or failed. */
async function call(client, name, args, timeout) {
	const started = Date.now();
	try {
		const result = await client.callTool({ name, arguments: args }, undefined, { timeout });
		return { started, ms: Date.now() - started, result };
	} catch (error) {
		return { started, ms: Date.now() - started, error };
	}
}

const describe = (o) =>
	o.error
		? `no answer: ${o.error.message}`
		: `${o.result.isError ? 'tool error' : 'result'}: ${textOf(o.result).slice(0, 400)}`;
const timedOut = (o) => o.error instanceof McpError && o.error.code === ErrorCode.RequestTimeout;

/** A tool error a model (and a person) can act on: what happened and the status, no stack, no object dump, no secret. */
function checkReadable(ctx, group, text, pattern) {
	const leaked = ctx.secrets.filter((s) => s && text.includes(s));
	ctx.check(
		group,
		pattern.test(text) && !/\n\s+at \S/.test(text) && !text.includes('[object Object]'),
		`the tool error is readable: ${JSON.stringify(text.slice(0, 600))}`,
	);
	ctx.check(group, leaked.length === 0, `the tool error holds no token (${leaked.length} found)`);
}

async function listing(ctx, client) {
	const group = 'mcp: tool listing';
	const { tools } = await client.listTools();
	ctx.log(`what reaches the model: ${JSON.stringify(tools)}`);
	const tool = tools.find((t) => t.name === ctx.toolNode.replace(/ /g, '_'));
	ctx.check(group, tools.length === 1 && !!tool, `one tool, ${tool && tool.name}`);
	const schema = (tool && tool.inputSchema) || {};
	const fields = ['firstName', 'lastName', 'companyName'];
	ctx.check(
		group,
		schema.type === 'object' &&
			fields.every((f) => schema.properties && schema.properties[f].type === 'string') &&
			fields.every((f) => (schema.required || []).includes(f)),
		`its input schema asks for ${fields.join(', ')} as strings: ${JSON.stringify(schema)}`,
	);
	return tool;
}

async function healthy(ctx, client, tool) {
	const group = 'mcp: healthy create';
	ctx.sandbox.reset();
	const before = ctx.sandbox.count('people');
	const args = { firstName: 'Ada', lastName: 'Lovelace', companyName: 'Analytical Engines' };
	const o = await call(client, tool.name, args);
	const text = o.result ? textOf(o.result) : '';
	ctx.check(
		group,
		!!o.result && !o.result.isError && /"id":"p_/.test(text),
		`the tool answered the new person in ${seconds(o.ms)}: ${describe(o)}`,
	);
	const sent = creates(ctx.sandbox);
	ctx.check(
		group,
		sent.length === 1 && isDeepStrictEqual(sent[0].body, args) && sent[0].status < 300,
		`the create reached the service once with exactly the body given (${sent.length}: ${sent.map((q) => `${q.status} ${q.rawBody}`).join(', ')})`,
	);
	const made = ctx.sandbox.count('people') - before;
	ctx.check(group, made === 1, `one person was created (${made})`);
}

async function echoedToken(ctx, client, tool) {
	const group = 'mcp: a tool error holds no secret';
	ctx.sandbox.reset();
	ctx.sandbox.inject({
		status: 400,
		body: JSON.stringify({ error: `rejected: Authorization: Bearer ${ctx.sandbox.token}` }),
		count: 1,
		match: { method: 'POST', pathPrefix: '/api/people' },
	});
	const o = await call(client, tool.name, {
		firstName: 'Bad',
		lastName: 'Request',
		companyName: 'X',
	});
	ctx.check(
		group,
		!!o.result && o.result.isError === true,
		`a create answered 400 with the token echoed is a tool error after ${seconds(o.ms)}`,
	);
	checkReadable(ctx, group, textOf(o.result), /HTTP 400/);
	ctx.check(group, creates(ctx.sandbox).length === 1, 'the create was sent once');
}

async function rateLimited(ctx, client, tool) {
	const group = `mcp: 429 with Retry-After: 50 after ${seconds(LIMITED_AFTER_MS)}`;
	ctx.sandbox.reset();
	const before = ctx.sandbox.count('people');
	ctx.sandbox.inject({
		delayMs: LIMITED_AFTER_MS,
		status: 429,
		retryAfter: '50',
		count: 1,
		match: { method: 'POST', pathPrefix: '/api/people' },
	});
	const args = { firstName: 'Grace', lastName: 'Hopper', companyName: 'Navy' };
	// The client's default request timeout, as an agent has it.
	const calls = [await call(client, tool.name, args)];
	const first = calls[0];
	ctx.check(
		group,
		!!first.result && first.result.isError === true && first.ms < DEFAULT_REQUEST_TIMEOUT_MSEC,
		`the client got a tool error before its ${seconds(DEFAULT_REQUEST_TIMEOUT_MSEC)} timeout (after ${seconds(first.ms)}; ${describe(first)})`,
	);
	if (first.result && first.result.isError)
		checkReadable(ctx, group, textOf(first.result), /HTTP 429/);
	// As an agent would: ask again after a failed call, until it succeeds or the agent gives up.
	const succeeded = (o) => !!o.result && !o.result.isError;
	while (!succeeded(calls[calls.length - 1]) && Date.now() - first.started < AGENT_PATIENCE_MS) {
		await L.sleep(AGENT_PAUSE_MS);
		calls.push(await call(client, tool.name, args));
	}
	calls.forEach((o, i) =>
		ctx.log(
			`429 scenario: call ${i + 1} at +${seconds(o.started - first.started)}: ${describe(o)}`,
		),
	);
	await L.sleep(SETTLE_MS);
	const sent = creates(ctx.sandbox);
	const accepted = sent.filter((q) => q.status >= 200 && q.status < 300);
	const made = ctx.sandbox.count('people') - before;
	ctx.check(
		group,
		made === 1 && accepted.length === 1 && succeeded(calls[calls.length - 1]),
		`after ${calls.length} call(s) the service has exactly one person created (${made}; creates: ${sent.map((q) => q.status).join(', ')})`,
	);
}

async function slowAnswer(ctx, client, tool) {
	const group = `mcp: create held ${seconds(HELD_MS)}, client timeout ${seconds(CLIENT_TIMEOUT_MS)}`;
	ctx.sandbox.reset();
	const before = ctx.sandbox.count('people');
	ctx.sandbox.inject({
		delayMs: HELD_MS,
		count: 1,
		match: { method: 'POST', pathPrefix: '/api/people' },
	});
	const o = await call(
		client,
		tool.name,
		{
			firstName: 'Katherine',
			lastName: 'Johnson',
			companyName: 'NASA',
		},
		CLIENT_TIMEOUT_MS,
	);
	ctx.check(group, timedOut(o), `the client gave up after ${seconds(o.ms)} (${describe(o)})`);
	const atTimeout = creates(ctx.sandbox).length;
	ctx.check(
		group,
		atTimeout === 1,
		`when it gave up, the service had the create once (${atTimeout})`,
	);
	await L.sleep(Math.max(0, o.started + NODE_BOUND_MS - Date.now()));
	const sent = creates(ctx.sandbox);
	const made = ctx.sandbox.count('people') - before;
	ctx.check(
		group,
		sent.length === 1 && made === 1,
		`${seconds(NODE_BOUND_MS)} after the call (past the node's Timeout, the hold and the deadline as a tool) the create had reached the service once (${sent.length}) and one person exists (${made})`,
	);
}

/** ctx: { url, token, toolNode, sandbox, secrets, log, check }. */
async function mcpScenarios(ctx) {
	const client = await connect(ctx);
	try {
		const tool = await listing(ctx, client);
		if (!tool) return;
		await healthy(ctx, client, tool);
		await echoedToken(ctx, client, tool);
		await rateLimited(ctx, client, tool);
		await slowAnswer(ctx, client, tool);
	} finally {
		await client.close().catch(() => undefined);
	}
}

module.exports = { mcpScenarios };
