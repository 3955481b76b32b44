/**
 * The node as an AI tool, the two ways n8n 2.41 runs one (read in n8n-core and
 * @n8n/n8n-nodes-langchain of the e2e install):
 * - `mcp`: the MCP Server Trigger (DirectExecutionStrategy) asks its ai_tool input for tools
 *   (getInputConnectionData); n8n-core wraps the node as a LangChain tool whose invocation runs the
 *   node's execute() in a SupplyDataContext, whose isToolExecution() is true. Here a stand-in for the
 *   trigger, the Tool Caller, asks for the tool the same way and invokes it with the arguments.
 * - `agent`: the AI Agent (V3) hands the engine a request, and the engine runs the tool node as an
 *   ordinary node (ExecuteContext, isToolExecution() false); only its type name, ending in "Tool",
 *   says it is a tool.
 */
import type { IDataObject, INode, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes, Workflow } from 'n8n-workflow';
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';

import {
	additionalDataFor,
	CREDENTIAL_TYPE,
	loadPackage,
	NODE_TYPE,
	registerNodeType,
	runNode,
	TestCredentialsHelper,
	type RunOptions,
} from './engine';

export const TOOL_NODE_TYPE = `${NODE_TYPE}Tool`;
const CALLER_TYPE = 'harness.toolCaller';

/** Invokes the tool connected to its ai_tool input once with its Arguments, as the MCP Server Trigger does. */
const toolCaller: INodeType = {
	description: {
		displayName: 'Tool Caller',
		name: CALLER_TYPE,
		group: ['transform'],
		version: 1,
		description: 'Calls the connected tool once, as an MCP client through the MCP Server Trigger',
		defaults: { name: 'Tool Caller' },
		inputs: [
			NodeConnectionTypes.Main,
			{ type: NodeConnectionTypes.AiTool, displayName: 'Tools', required: true },
		],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Arguments', name: 'args', type: 'json', default: '{}' }],
	},
	async execute(this) {
		const tools = (await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) as Array<{
			invoke(args: IDataObject): Promise<unknown>;
		}>;
		const args = JSON.parse(this.getNodeParameter('args', 0) as string) as IDataObject;
		try {
			return [[{ json: { response: (await tools[0].invoke(args)) as string } }]];
		} catch (error) {
			return [[{ json: { error: (error as Error).message } }]];
		}
	},
};
registerNodeType(toolCaller);

export interface ToolCall {
	/** What the tool answered (its output items as JSON text), when it succeeded. */
	response?: string;
	/** The error message the caller got. */
	error?: string;
}

let calls = 0;

/** Calls the node as a tool once, with `args` as the tool call's arguments (what $fromAI reads). */
export async function callAsTool(
	via: 'mcp' | 'agent',
	options: Pick<RunOptions, 'parameters' | 'credentials' | 'typeVersion'> & {
		/** MCP only: the n8n credential's id, to share one tenant (its pace and 429 pause) between calls. */
		credentialId?: string;
	},
	args: IDataObject,
): Promise<ToolCall> {
	if (via === 'agent') {
		const result = await runNode({ ...options, nodeType: TOOL_NODE_TYPE, items: [args] });
		if (result.error) return { error: result.error.message };
		return { response: JSON.stringify(result.items.map((item) => item.json)) };
	}
	const { nodeTypes, credentialTypes } = await loadPackage();
	// Each call its own n8n credential, so calls share no tenant pace (as runNode's runs).
	const credentialId = options.credentialId ?? `toolCred${++calls}`;
	const credentialsHelper = new TestCredentialsHelper(credentialTypes, {
		[credentialId]: options.credentials,
	});
	const nodes: INode[] = [
		{
			id: 'input',
			name: 'Test Items',
			type: 'harness.items',
			typeVersion: 1,
			position: [0, 0],
			parameters: { items: '[{}]' },
		},
		{
			id: 'caller',
			name: 'Tool Caller',
			type: CALLER_TYPE,
			typeVersion: 1,
			position: [200, 0],
			parameters: { args: JSON.stringify(args) },
		},
		{
			id: 'tool',
			name: 'Integration Service Tool',
			type: TOOL_NODE_TYPE,
			typeVersion: options.typeVersion ?? 1,
			position: [200, 200],
			parameters: options.parameters,
			credentials: { [CREDENTIAL_TYPE]: { id: credentialId, name: 'Integration Service account' } },
		},
	];
	const workflow = new Workflow({
		id: 'tool-workflow',
		name: 'tool',
		nodes,
		connections: {
			'Test Items': { main: [[{ node: 'Tool Caller', type: 'main', index: 0 }]] },
			'Integration Service Tool': {
				ai_tool: [[{ node: 'Tool Caller', type: 'ai_tool', index: 0 }]],
			},
		},
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1' },
	});
	const hooks = new ExecutionLifecycleHooks('manual', 'tool-execution', {
		id: 'tool-workflow',
		name: 'tool',
		active: false,
		isArchived: false,
		nodes,
		connections: workflow.connectionsBySourceNode,
		createdAt: new Date(),
		updatedAt: new Date(),
		activeVersionId: null,
	} as never);
	const execution = new WorkflowExecute(additionalDataFor(credentialsHelper, hooks), 'manual');
	const run = await execution.run({ workflow, startNode: workflow.getNode('Test Items')! });
	const failed = run.data.resultData.error;
	if (failed) return { error: failed.message };
	const answer = run.data.resultData.runData['Tool Caller']?.[0]?.data?.main?.[0]?.[0]?.json;
	return (answer ?? { error: 'the Tool Caller gave no output' }) as ToolCall;
}
