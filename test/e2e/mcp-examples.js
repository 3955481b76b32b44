'use strict';
/**
 * The two AI-tool examples in the real app (called by mcp-e2e.js; run-e2e.js leaves them out of
 * `n8n execute`, which cannot start them):
 * - examples/ai-tools-mcp-server.json is what mcp-e2e.js publishes and the MCP client drives: only the
 *   credentials, the trigger's path and its webhook id are replaced.
 * - examples/ai-tools-agent-chat.json needs a chat model and its credential, left to the user, so it
 *   cannot run here: it is imported through the REST API as a user's import does, and checked as n8n
 *   sees it (its nodes known at their versions, each tool a node that offers ai_tool wired into the
 *   agent, the $fromAI expressions stored unchanged), and n8n's own check at Publish must find nothing
 *   to fix but the model's credential.
 */
const fs = require('node:fs');
const path = require('node:path');
const L = require('./lib');

const MCP_EXAMPLE = path.join(L.REPO, 'examples/ai-tools-mcp-server.json');
const AGENT_EXAMPLE = path.join(L.REPO, 'examples/ai-tools-agent-chat.json');
const MCP_TRIGGER = '@n8n/n8n-nodes-langchain.mcpTrigger';
const TOOL_TYPE = `${L.PACKAGE_NAME}.integrationServiceTool`;

const readExample = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));

/** The example's node with our credential replaced by `credential` ({ id, name }). */
function withCredential(node, credential) {
	if (!node.credentials || !node.credentials[L.CREDENTIAL_TYPE]) return node;
	return { ...node, credentials: { ...node.credentials, [L.CREDENTIAL_TYPE]: credential } };
}

/** examples/ai-tools-mcp-server.json ready to create: the run's credentials, path and webhook id. */
function mcpExampleWorkflow({ credential, mcpCredential, mcpPath, webhookId }) {
	const wf = readExample(MCP_EXAMPLE);
	const nodes = wf.nodes.map((node) =>
		node.type === MCP_TRIGGER
			? {
					...node,
					webhookId,
					parameters: { ...node.parameters, path: mcpPath },
					credentials: { httpBearerAuth: mcpCredential },
				}
			: withCredential(node, credential),
	);
	return { ...wf, nodes, active: false };
}

/** The example's tool nodes (what the MCP client must be offered), in file order. */
function mcpExampleTools() {
	return readExample(MCP_EXAMPLE).nodes.filter((n) => n.type === TOOL_TYPE);
}

function describeIssues(issues) {
	return JSON.stringify(issues || {}).slice(0, 600);
}

/**
 * Imports examples/ai-tools-agent-chat.json as a user does and checks what n8n makes of it.
 * ctx: { base, cookie, rest, credential, check, log }.
 */
async function agentExampleCheck(ctx) {
	const group = 'mcp: AI Agent example imports';
	const example = readExample(AGENT_EXAMPLE);
	const wf = { ...example, nodes: example.nodes.map((n) => withCredential(n, ctx.credential)) };
	const created = await ctx.rest('POST', 'workflows', { ...wf, active: false });
	const stored = await ctx.rest('GET', `workflows/${created.id}`);
	const names = (w) => w.nodes.map((n) => n.name).sort();
	ctx.check(
		group,
		JSON.stringify(names(stored)) === JSON.stringify(names(example)),
		`n8n stored the example as workflow ${created.id} with its ${example.nodes.length} nodes`,
	);
	const res = await L.httpRequest(`${ctx.base}/types/nodes.json`, {
		headers: { cookie: ctx.cookie },
	});
	const types = await res.json();
	const typeOf = (node) =>
		types.find(
			(t) =>
				t.name === node.type &&
				[].concat(t.version).some((v) => Number(v) === Number(node.typeVersion)),
		);
	const unknown = stored.nodes.filter((n) => !typeOf(n));
	ctx.check(
		group,
		unknown.length === 0,
		`every node's type is known to n8n at its version (${stored.nodes.map((n) => `${n.type.split('.').pop()}@${n.typeVersion}`).join(', ')})${unknown.length ? `; unknown: ${unknown.map((n) => `${n.type}@${n.typeVersion}`).join(', ')}` : ''}`,
	);
	const agent = stored.nodes.find((n) => n.type === '@n8n/n8n-nodes-langchain.agent');
	const tools = stored.nodes.filter((n) => n.type === TOOL_TYPE);
	const wiredAsTool = (node) => {
		const out = stored.connections[node.name] && stored.connections[node.name].ai_tool;
		const outputs = typeOf(node) ? JSON.stringify(typeOf(node).outputs) : '';
		return (
			!!agent &&
			outputs.includes('ai_tool') &&
			!!out &&
			out.flat().some((c) => c.node === agent.name && c.type === 'ai_tool')
		);
	};
	ctx.check(
		group,
		tools.length === mcpExampleTools().length && tools.every(wiredAsTool),
		`its ${tools.length} tools (${tools.map((t) => t.name).join(', ')}) are ${TOOL_TYPE} nodes, whose type offers ai_tool, each wired into "${agent && agent.name}"`,
	);
	const original = Object.fromEntries(example.nodes.map((n) => [n.name, n.parameters]));
	const changed = tools.filter(
		(t) => JSON.stringify(t.parameters) !== JSON.stringify(original[t.name]),
	);
	ctx.check(
		group,
		changed.length === 0,
		`the tools' parameters ($fromAI expressions) are stored unchanged${changed.length ? `; changed: ${changed.map((t) => t.name).join(', ')}` : ''}`,
	);
	await publishNeedsOnlyTheModel(ctx, group, created, stored);
}

/**
 * Publish runs n8n's own check of every node (its parameters, credentials and connections). The only
 * thing the example leaves to the user is the chat model's credential: n8n must refuse for that alone.
 */
async function publishNeedsOnlyTheModel(ctx, group, created, stored) {
	const res = await L.httpRequest(
		`${ctx.base}/rest/workflows/${created.id}/activate`,
		{
			method: 'POST',
			headers: { cookie: ctx.cookie, 'content-type': 'application/json' },
			body: JSON.stringify({ versionId: created.versionId }),
		},
		60000,
	);
	const text = await res.text();
	ctx.log(
		`AI Agent example, Publish without a model credential: HTTP ${res.status}: ${text.slice(0, 800)}`,
	);
	const model = stored.nodes.find((n) => n.type === '@n8n/n8n-nodes-langchain.lmChatOpenAi');
	const others = stored.nodes.filter((n) => n !== model).map((n) => n.name);
	const namesOther = others.filter(
		(name) => text.includes(`"${name}"`) || text.includes(`'${name}'`),
	);
	ctx.check(
		group,
		res.status !== 200 && !!model && text.includes(model.name) && namesOther.length === 0,
		`n8n refuses to publish it until the chat model has a credential, naming "${model && model.name}" and no other node (HTTP ${res.status}${namesOther.length ? `; also names ${namesOther.join(', ')}` : ''}): ${describeIssues(text.slice(0, 300))}`,
	);
}

module.exports = { mcpExampleWorkflow, mcpExampleTools, agentExampleCheck, MCP_EXAMPLE };
