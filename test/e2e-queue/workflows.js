'use strict';
/**
 * The workflows of the queue-mode run. Each starts with a production Webhook, so the main process
 * receives the call and enqueues the execution for a worker (what `n8n execute` would never do).
 */
const L = require('../e2e/lib');

const PATHS = Object.freeze({
	ready: 'queue-ready',
	create: 'queue-create',
	list: 'queue-list',
	createClient: 'queue-create-client',
});

let nodeSeq = 0;
const uuid = (n) => `7a1c2a4e-0000-4000-8000-${String(n).padStart(12, '0')}`;

function webhook(pathName, { method = 'POST', respond = 'onReceived' } = {}) {
	const id = uuid(++nodeSeq);
	return {
		id,
		webhookId: id,
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		parameters: {
			httpMethod: method,
			path: pathName,
			responseMode: respond,
			...(respond === 'lastNode' ? { responseData: 'allEntries' } : {}),
			options: {},
		},
	};
}

function serviceNode(name, parameters, credential, x = 440) {
	return {
		id: uuid(++nodeSeq),
		name,
		type: L.NODE_TYPE,
		typeVersion: 1,
		position: [x, 0],
		parameters,
		credentials: { [L.CREDENTIAL_TYPE]: credential },
	};
}

function chain(nodes) {
	const connections = {};
	for (let i = 0; i < nodes.length - 1; i++)
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	return connections;
}

function workflow(id, name, nodes) {
	return {
		id,
		name,
		active: true,
		nodes,
		connections: chain(nodes),
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

/** Webhook body `{ people: [{ firstName, lastName }] }` → one item per person → Person › Create. */
function createWorkflow(id, name, pathName, credential) {
	return workflow(id, name, [
		webhook(pathName),
		{
			id: uuid(++nodeSeq),
			name: 'One item per person',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [220, 0],
			parameters: { fieldToSplitOut: 'body.people', options: {} },
		},
		serviceNode(
			'Create person',
			{
				resource: 'person',
				operation: 'create',
				firstName: '={{ $json.firstName }}',
				lastName: '={{ $json.lastName }}',
				requestOptions: { concurrency: 4 },
			},
			credential,
		),
	]);
}

/**
 * All the workflows, given the two credentials ({ id, name } each). `trigger` (optional) is a
 * workflow built by the trigger scenario when the package has the trigger node.
 */
function buildWorkflows(tokenCred, clientCred) {
	return {
		ready: workflow('queueReady000000001', 'Queue: workers ready', [
			webhook(PATHS.ready, { method: 'GET', respond: 'lastNode' }),
			{
				id: uuid(++nodeSeq),
				name: 'Done',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [220, 0],
				parameters: {},
			},
		]),
		create: createWorkflow(
			'queueCreate00000001',
			'Queue: create people (access token)',
			PATHS.create,
			tokenCred,
		),
		createClient: createWorkflow(
			'queueCreateClient01',
			'Queue: create people (client id and secret)',
			PATHS.createClient,
			clientCred,
		),
		list: workflow('queueList0000000001', 'Queue: list all people', [
			webhook(PATHS.list, { respond: 'lastNode' }),
			serviceNode(
				'Get all people',
				{ resource: 'person', operation: 'getAll', returnAll: true, options: { pageSize: 100 } },
				tokenCred,
				220,
			),
		]),
	};
}

module.exports = { PATHS, buildWorkflows, uuid };
