'use strict';
/**
 * What a model puts into the node (issue 32), in the real application through n8n's MCP Server Trigger
 * and the official MCP client (run by mcp-e2e.js): a second published workflow, on its own MCP path,
 * offers Person › Create twice: with Mapping Mode › Map From a JSON Record left at its default (one
 * `$fromAI('record', …, 'json')`), and with Average Price set up as the editor's "let the model define
 * this parameter" writes it for a text field that holds a number. Asserted on the sandbox's request log.
 * The same workflow offers Person › Get Many left at its defaults (no Page at a Time, Limit 50), the
 * read a model gets from a tool set up without thought: one bounded page, and how big it is; at
 * version 2 (a new node's) within 8,000 characters, with a cursor argument that reads the next page.
 */
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const {
	StreamableHTTPClientTransport,
} = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

const MCP_INPUT_PATH = 'integration-service-e2e-input';
const WEBHOOK_ID = '7d1f0b6e-2c4a-4e8b-9a3d-5f6e7a8b9c0d';
const RECORD_TOOL = 'Create person from record';
const PRICE_TOOL = 'Create person with price';
const DEFAULT_READ_TOOL = 'Get many people';
const SIMPLE_READ_TOOL = 'Read people';
/** What a model reads from Get Many at its defaults at version 2, at most (issue 41). */
const SIMPLE_MAX_CHARS = 8000;
/** What the node promises as a tool (docs/operations.md, "As an AI agent's tool"). */
const TOOL_PAGE = 20;
const TOOL_MAX_CHARS = 40000;

/** The workflow: the MCP Server Trigger (Bearer) and the three tools. */
function inputWorkflow({ packageName, credentialType, credential, mcpCredential }) {
	const tool = (name, parameters, x, typeVersion = 1) => ({
		parameters: { resource: 'person', operation: 'create', ...parameters },
		id: name,
		name,
		type: `${packageName}.integrationServiceTool`,
		typeVersion,
		position: [x, 200],
		credentials: { [credentialType]: credential },
	});
	const toTrigger = { ai_tool: [[{ node: 'MCP Server Trigger', type: 'ai_tool', index: 0 }]] };
	return {
		name: 'MCP Server Trigger: what a model puts in',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				parameters: { authentication: 'bearerAuth', path: MCP_INPUT_PATH },
				id: 'i1',
				name: 'MCP Server Trigger',
				type: '@n8n/n8n-nodes-langchain.mcpTrigger',
				typeVersion: 2.1,
				position: [0, 0],
				webhookId: WEBHOOK_ID,
				credentials: { httpBearerAuth: mcpCredential },
			},
			tool(RECORD_TOOL, { mappingMode: 'jsonRecord' }, 0),
			// What n8n 2.41's button writes: the label as key, no description, the parameter's type (text).
			tool(
				PRICE_TOOL,
				{
					lastName: "={{ $fromAI('Last_Name', ``, 'string') }}",
					additionalFields: { averagePrice: "={{ $fromAI('Average_Price', ``, 'string') }}" },
				},
				200,
			),
			tool(DEFAULT_READ_TOOL, { operation: 'getAll' }, 400),
			// A node added today (version 2), left at its defaults.
			tool(SIMPLE_READ_TOOL, { operation: 'getAll' }, 600, 2),
		],
		connections: {
			[RECORD_TOOL]: toTrigger,
			[PRICE_TOOL]: toTrigger,
			[DEFAULT_READ_TOOL]: toTrigger,
			[SIMPLE_READ_TOOL]: toTrigger,
		},
	};
}

const creates = (sandbox) =>
	sandbox.requests.filter((q) => q.method === 'POST' && q.path === '/api/people');
const textOf = (result) =>
	((result && result.content) || []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** One call; the bodies it made reach the service (none when it was refused). */
async function sent(ctx, client, name, args) {
	const before = creates(ctx.sandbox).length;
	const result = await client
		.callTool({ name: name.replace(/ /g, '_'), arguments: args })
		.catch((error) => ({ isError: true, content: [{ type: 'text', text: error.message }] }));
	return {
		result,
		text: textOf(result),
		bodies: creates(ctx.sandbox)
			.slice(before)
			.map((q) => q.body),
	};
}

/**
 * Get Many at its defaults as a tool: one page of at most TOOL_PAGE records under TOOL_MAX_CHARS,
 * saying that more follow (the sandbox holds more), from one GET.
 */
async function defaultRead(ctx, client) {
	const group = 'mcp: Get Many at its defaults as a tool';
	ctx.sandbox.reset();
	const result = await client
		.callTool({ name: DEFAULT_READ_TOOL.replace(/ /g, '_'), arguments: {} })
		.catch((error) => ({ isError: true, content: [{ type: 'text', text: error.message }] }));
	const text = textOf(result);
	let page;
	try {
		page = [].concat(JSON.parse(text))[0] || {};
	} catch {
		page = {};
	}
	const people = Array.isArray(page.people) ? page.people : [];
	const gets = ctx.sandbox.requests.filter((q) => q.method === 'GET');
	ctx.sizes.push(`${DEFAULT_READ_TOOL} (defaults, ${people.length} records) ${text.length}`);
	ctx.check(
		group,
		!result.isError &&
			people.length > 0 &&
			people.length <= TOOL_PAGE &&
			text.length <= TOOL_MAX_CHARS &&
			typeof page.more === 'string' &&
			gets.length === 1,
		`one page of ${people.length} people (at most ${TOOL_PAGE}) in ${text.length} chars (at most ${TOOL_MAX_CHARS}), more: ${JSON.stringify(page.more)}; ${gets.length} GET (${gets.map((q) => q.url || q.path).join(', ')})${result.isError ? `; ${text.slice(0, 300)}` : ''}`,
	);
}

/** One call of a read tool: the answer's text, its page, and the GETs it made. */
async function read(ctx, client, name, args) {
	const before = ctx.sandbox.requests.filter((q) => q.method === 'GET').length;
	const result = await client
		.callTool({ name: name.replace(/ /g, '_'), arguments: args })
		.catch((error) => ({ isError: true, content: [{ type: 'text', text: error.message }] }));
	const text = textOf(result);
	let page;
	try {
		page = [].concat(JSON.parse(text))[0] || {};
	} catch {
		page = {};
	}
	const people = Array.isArray(page.people) ? page.people : [];
	const gets = ctx.sandbox.requests.filter((q) => q.method === 'GET').length - before;
	return { result, text, page, ids: people.map((p) => p.id), gets };
}

/**
 * Person › Get Many at its defaults at version 2: at most 8,000 characters for 20 people, and a
 * cursor argument (optional) whose value, the answer's nextCursor, reads the next page.
 */
async function simpleRead(ctx, client, tools) {
	const group = 'mcp: Person › Get Many at its defaults (version 2)';
	const schema =
		(tools.find((t) => t.name === SIMPLE_READ_TOOL.replace(/ /g, '_')) || {}).inputSchema || {};
	const cursor = (schema.properties || {}).cursor || {};
	ctx.check(
		group,
		cursor.type === 'string' && !(schema.required || []).includes('cursor'),
		`the tool offers an optional cursor argument: ${JSON.stringify(cursor).slice(0, 200)}`,
	);
	const first = await read(ctx, client, SIMPLE_READ_TOOL, {});
	ctx.sizes.push(
		`${SIMPLE_READ_TOOL} (version 2 defaults, ${first.ids.length} records) ${first.text.length}`,
	);
	ctx.check(
		group,
		!first.result.isError &&
			first.ids.length === TOOL_PAGE &&
			first.text.length <= SIMPLE_MAX_CHARS &&
			typeof first.page.nextCursor === 'string' &&
			first.page.nextCursor !== '' &&
			first.gets === 1,
		`${first.ids.length} people in ${first.text.length} chars (at most ${SIMPLE_MAX_CHARS}), ${first.gets} GET, more: ${JSON.stringify(first.page.more)}${first.result.isError ? `; ${first.text.slice(0, 300)}` : ''}`,
	);
	const next = await read(ctx, client, SIMPLE_READ_TOOL, { cursor: first.page.nextCursor });
	ctx.check(
		group,
		!next.result.isError &&
			next.ids[0] === `p_${TOOL_PAGE + 1}` &&
			next.ids.every((id) => !first.ids.includes(id)) &&
			next.gets === 1,
		`its cursor, passed back, reads the next page: ${JSON.stringify(next.ids)}${next.result.isError ? `; ${next.text.slice(0, 300)}` : ''}`,
	);
}

/** ctx: { url, token, sandbox, sizes, log, check }. */
async function mcpInputScenarios(ctx) {
	const group = 'mcp: what a model puts in';
	const client = new Client({ name: 'n8n-nodes-integration-service-e2e-input', version: '1.0.0' });
	await client.connect(
		new StreamableHTTPClientTransport(new URL(ctx.url), {
			requestInit: { headers: { Authorization: `Bearer ${ctx.token}` } },
		}),
	);
	try {
		const { tools } = await client.listTools();
		const schemaOf = (name) =>
			(tools.find((t) => t.name === name.replace(/ /g, '_')) || {}).inputSchema || {};
		const record = (schemaOf(RECORD_TOOL).properties || {}).record || {};
		ctx.check(
			group,
			/averagePrice \(number\)/.test(record.description || '') &&
				(schemaOf(RECORD_TOOL).required || []).includes('record'),
			`Record (JSON) reaches the model as one required argument naming every field: ${JSON.stringify(record).slice(0, 300)}…`,
		);
		const price = (schemaOf(PRICE_TOOL).properties || {}).Average_Price || {};
		ctx.check(
			group,
			price.type === 'string',
			`Average Price reaches the model as text: ${JSON.stringify(price)}`,
		);

		const ada = {
			firstName: 'Ada',
			averagePrice: '450000',
			emails: [{ value: 'ada@example.test' }],
		};
		let call = await sent(ctx, client, RECORD_TOOL, { record: ada });
		const adaBody = { ...ada, averagePrice: 450000 };
		ctx.check(
			group,
			!call.result.isError && same(call.bodies, [adaBody]),
			`a record: sent once as ${JSON.stringify(call.bodies)}`,
		);

		call = await sent(ctx, client, RECORD_TOOL, { record: { firstName: 'Ada', avgPrice: 1 } });
		ctx.check(
			group,
			call.result.isError &&
				call.text.includes('Record (JSON): "avgPrice" is not one of') &&
				call.bodies.length === 0,
			`a misspelt key: refused, nothing sent: ${JSON.stringify(call.text.slice(0, 200))}`,
		);
		call = await sent(ctx, client, RECORD_TOOL, { record: '{"firstName": "Ada"}' });
		ctx.check(
			group,
			call.result.isError && call.bodies.length === 0,
			`the record as JSON text: refused by n8n's schema check, nothing sent: ${JSON.stringify(call.text.slice(0, 200))}`,
		);

		call = await sent(ctx, client, PRICE_TOOL, { Last_Name: 'NoPrice', Average_Price: '' });
		ctx.check(
			group,
			same(call.bodies, [{ lastName: 'NoPrice' }]),
			`no price known: ${JSON.stringify(call.bodies)}`,
		);
		call = await sent(ctx, client, PRICE_TOOL, { Last_Name: 'Priced', Average_Price: '450000' });
		ctx.check(
			group,
			same(call.bodies, [{ lastName: 'Priced', averagePrice: 450000 }]),
			`a price as text: ${JSON.stringify(call.bodies)}`,
		);
		await defaultRead(ctx, client);
		await simpleRead(ctx, client, tools);
	} finally {
		await client.close();
	}
}

module.exports = { MCP_INPUT_PATH, inputWorkflow, mcpInputScenarios };
