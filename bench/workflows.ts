/**
 * The workflows the benchmark runs in the real n8n application. Every contender is a sub-workflow
 * "Start → contender → Count", called by an Execute Workflow node of a parent workflow; that node's
 * time in the parent's run data is the contender's time (its whole work: requests, expressions,
 * output items), and the parent's output stays a few kB whatever the contender returns.
 */
import type { SandboxInfo } from './common';

export const NODE_TYPE = 'n8n-nodes-integration-service.integrationService';
export const FLOOR_TYPE = 'n8n-nodes-bench-floor.benchFloor';
export const CREDENTIALS = {
	ours: {
		type: 'integrationServiceApi',
		id: 'benchSandboxCred',
		name: 'Integration Service sandbox (bench)',
	},
	header: { type: 'httpHeaderAuth', id: 'benchHeaderCred', name: 'Sandbox bearer token (bench)' },
} as const;

type WfNode = Record<string, unknown>;

export interface Contender {
	key: string;
	label: string;
	/** The nodes between the sub-workflow's Start and Count. */
	nodes: WfNode[];
}

function node(
	name: string,
	type: string,
	typeVersion: number,
	position: [number, number],
	parameters: Record<string, unknown>,
	extra: Record<string, unknown> = {},
): WfNode {
	return {
		id: `${name.replace(/\W/g, '')}-${position[0]}-${position[1]}`,
		name,
		type,
		typeVersion,
		position,
		parameters,
		...extra,
	};
}

/** A credential of our type: the main sandbox's, or another sandbox's (the latency sweep runs one sandbox per latency). */
export interface CredentialRef {
	id: string;
	name: string;
}

function oursCredentialOf(ref: CredentialRef = CREDENTIALS.ours) {
	return { credentials: { [CREDENTIALS.ours.type]: { id: ref.id, name: ref.name } } };
}
const oursCredential = oursCredentialOf();
const headerCredential = {
	credentials: {
		[CREDENTIALS.header.type]: { id: CREDENTIALS.header.id, name: CREDENTIALS.header.name },
	},
};

/** Request Options for our node: `undefined` keeps every default (Concurrency and the per-second cap). */
function requestOptions(
	concurrency?: number,
	maxRequestsPerSecond?: number,
): Record<string, unknown> {
	if (concurrency === undefined && maxRequestsPerSecond === undefined) return {};
	const options: Record<string, unknown> = {};
	if (concurrency !== undefined) options.concurrency = concurrency;
	if (maxRequestsPerSecond !== undefined) options.maxRequestsPerSecond = maxRequestsPerSecond;
	return { requestOptions: options };
}

/**
 * Our node, Person › Create with `{{ $json.firstName }}` and `{{ $json.lastName }}`, or with Map
 * Automatically when `mapParameter` names the Mapping Mode parameter.
 */
export function oursCreate(
	key: string,
	label: string,
	concurrency?: number,
	maxRequestsPerSecond?: number,
	mapParameter?: string,
	credential?: CredentialRef,
): Contender {
	const fields = mapParameter
		? { [mapParameter]: 'autoMapInputData' }
		: { firstName: '={{ $json.firstName }}', lastName: '={{ $json.lastName }}' };
	return {
		key,
		label,
		nodes: [
			node(
				'Integration Service',
				NODE_TYPE,
				1,
				[300, 0],
				{
					resource: 'person',
					operation: 'create',
					...fields,
					...requestOptions(concurrency, maxRequestsPerSecond),
				},
				oursCredentialOf(credential),
			),
		],
	};
}

/**
 * The same contender on its own connection (Connection ID `connectionId`): the tenant's pace counts
 * every request of the credential and Connection ID in the process, so a capped contender that follows
 * uncapped ones on the same connection would first wait out their last second.
 */
export function onConnection(contender: Contender, connectionId: string): Contender {
	return {
		...contender,
		nodes: contender.nodes.map((n) => ({
			...n,
			parameters: { ...(n.parameters as Record<string, unknown>), credentialId: connectionId },
		})),
	};
}

/**
 * n8n's HTTP Request node (v4.2) on the sandbox's `{crm}/api/people`: the credential id header, and the
 * bearer token from the header credential or as a second plain header. `parameters` follow the headers.
 */
function httpPeopleNode(
	info: SandboxInfo,
	auth: 'credential' | 'headers',
	position: [number, number],
	method: 'GET' | 'POST',
	parameters: Record<string, unknown>,
): WfNode {
	const headers = [{ name: 'X-Service-Credential-Id', value: info.credentialId }];
	if (auth === 'headers') headers.push({ name: 'Authorization', value: `Bearer ${info.token}` });
	return node(
		'HTTP Request',
		'n8n-nodes-base.httpRequest',
		4.2,
		position,
		{
			method,
			url: `${info.urls.crm}/api/people`,
			...(auth === 'credential'
				? { authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth' }
				: {}),
			sendHeaders: true,
			headerParameters: { parameters: headers },
			...parameters,
		},
		auth === 'credential' ? headerCredential : {},
	);
}

/** n8n's HTTP Request node, POST /api/people with the same two fields as expressions. */
export function httpCreate(
	key: string,
	label: string,
	info: SandboxInfo,
	batchSize: number | undefined,
	auth: 'credential' | 'headers',
): Contender {
	const nodes = [
		httpPeopleNode(info, auth, [300, 0], 'POST', {
			sendBody: true,
			contentType: 'json',
			specifyBody: 'keypair',
			bodyParameters: {
				parameters: [
					{ name: 'firstName', value: '={{ $json.firstName }}' },
					{ name: 'lastName', value: '={{ $json.lastName }}' },
				],
			},
			options:
				batchSize === undefined ? {} : { batching: { batch: { batchSize, batchInterval: 0 } } },
		}),
	];
	return { key, label, nodes };
}

export function floorCreate(key: string, label: string, concurrency: number): Contender {
	return {
		key,
		label,
		nodes: [
			node(
				'Bench Floor',
				FLOOR_TYPE,
				1,
				[300, 0],
				{
					operation: 'create',
					firstName: '={{ $json.firstName }}',
					lastName: '={{ $json.lastName }}',
					concurrency,
				},
				oursCredential,
			),
		],
	};
}

/** Our node, Person › Get Many, Simplify off: Return All, or the first `warmPages` pages of 100 (a warm-up). */
export function oursList(
	key: string,
	label: string,
	maxRequestsPerSecond?: number,
	warmPages?: number,
): Contender {
	const amount =
		warmPages === undefined ? { returnAll: true } : { returnAll: false, limit: warmPages * 100 };
	return {
		key,
		label,
		nodes: [
			node(
				'Integration Service',
				NODE_TYPE,
				1,
				[300, 0],
				{
					resource: 'person',
					operation: 'getAll',
					...amount,
					simplify: false,
					...requestOptions(undefined, maxRequestsPerSecond),
				},
				oursCredential,
			),
		],
	};
}

/** n8n's HTTP Request node with its pagination (follow `_metadata.nextLink`), then Split Out: one item per person. */
export function httpList(
	key: string,
	label: string,
	info: SandboxInfo,
	auth: 'credential' | 'headers',
	warmPages?: number,
): Contender {
	const nodes = [
		httpPeopleNode(info, auth, [200, 0], 'GET', {
			sendQuery: true,
			queryParameters: { parameters: [{ name: 'limit', value: '100' }] },
			options: {
				pagination: {
					pagination: {
						paginationMode: 'responseContainsNextURL',
						nextURL: '={{ $response.body._metadata.nextLink }}',
						paginationCompleteWhen: 'other',
						completeExpression: '={{ !$response.body._metadata.nextLink }}',
						limitPagesFetched: warmPages !== undefined,
						...(warmPages === undefined ? {} : { maxRequests: warmPages }),
					},
				},
			},
		}),
		node('Split Out', 'n8n-nodes-base.splitOut', 1, [400, 0], {
			fieldToSplitOut: 'people',
			include: 'noOtherFields',
			options: {},
		}),
	];
	return { key, label, nodes };
}

export function floorList(key: string, label: string, warmPages?: number): Contender {
	return {
		key,
		label,
		nodes: [
			node(
				'Bench Floor',
				FLOOR_TYPE,
				1,
				[300, 0],
				{ operation: 'list', maxPages: warmPages ?? 0 },
				oursCredential,
			),
		],
	};
}

const SETTINGS = {
	executionOrder: 'v1',
	saveDataSuccessExecution: 'none',
	saveDataErrorExecution: 'none',
	saveManualExecutions: false,
	callerPolicy: 'any',
};

function connect(
	connections: Record<
		string,
		{ main: Array<Array<{ node: string; type: string; index: number }>> }
	>,
	from: string,
	to: string,
): void {
	const entry = (connections[from] ??= { main: [[]] });
	entry.main[0].push({ node: to, type: 'main', index: 0 });
}

export function subWorkflowId(key: string): string {
	return `benchSub${key.charAt(0).toUpperCase()}${key.slice(1)}`;
}

/** Start (passes the caller's items through) → contender → Count. */
export function subWorkflow(c: Contender): Record<string, unknown> {
	const nodes = [
		node('Start', 'n8n-nodes-base.executeWorkflowTrigger', 1.1, [0, 0], {
			inputSource: 'passthrough',
		}),
		...c.nodes,
		node('Count', 'n8n-nodes-base.summarize', 1.1, [700, 0], {
			fieldsToSummarize: { values: [{ aggregation: 'count', field: 'id' }] },
			options: {},
		}),
	];
	const connections = {};
	for (let i = 0; i + 1 < nodes.length; i++)
		connect(connections, nodes[i].name as string, nodes[i + 1].name as string);
	return {
		id: subWorkflowId(c.key),
		name: `bench: ${c.label}`,
		active: false,
		nodes,
		connections,
		settings: SETTINGS,
		pinData: {},
	};
}

function callNode(name: string, position: [number, number], key: string): WfNode {
	return node(name, 'n8n-nodes-base.executeWorkflow', 1.1, position, {
		source: 'database',
		workflowId: { __rl: true, mode: 'id', value: subWorkflowId(key) },
		mode: 'once',
		options: { waitForSubWorkflow: true },
	});
}

export interface Branch {
	key: string;
	/** Input items handed to the contender (0: none, for a list). */
	items: number;
}

/** The Execute Workflow node that runs one measured branch (its name in the run data). */
export function measuredName(key: string): string {
	return `Measured ${key}`;
}

/**
 * A parent workflow: makes the most input items `{ firstName, lastName }` any branch needs, once; runs
 * the warm-up branches, then the measured ones, one after the other in the given order (n8n's v1
 * order runs branches top to bottom). Each branch hands its first `items` rows to its contender.
 */
export function parentWorkflow(
	id: string,
	branches: Branch[],
	warmUp: Branch[],
): Record<string, unknown> {
	const max = Math.max(1, ...branches.map((b) => b.items), ...warmUp.map((b) => b.items));
	const nodes: WfNode[] = [
		node('Manual', 'n8n-nodes-base.manualTrigger', 1, [0, 0], {}),
		node('Make rows', 'n8n-nodes-base.set', 3.4, [200, 0], {
			mode: 'manual',
			assignments: {
				assignments: [
					{
						id: 'rows',
						name: 'rows',
						type: 'array',
						value: `={{ Array.from({ length: ${max} }, (_, i) => ({ firstName: 'Bench' + i, lastName: 'Person' + i })) }}`,
					},
				],
			},
			includeOtherFields: false,
			options: {},
		}),
		node('Rows', 'n8n-nodes-base.splitOut', 1, [400, 0], {
			fieldToSplitOut: 'rows',
			include: 'noOtherFields',
			options: {},
		}),
	];
	const connections = {};
	connect(connections, 'Manual', 'Make rows');
	connect(connections, 'Make rows', 'Rows');
	const all = [
		...warmUp.map((b) => ({ ...b, name: warmUpName(b.key) })),
		...branches.map((b) => ({ ...b, name: measuredName(b.key) })),
	];
	all.forEach((b, i) => {
		const limit = `Rows for ${b.name}`;
		nodes.push(
			node(limit, 'n8n-nodes-base.limit', 1, [600, i * 200], { maxItems: Math.max(1, b.items) }),
		);
		nodes.push(callNode(b.name, [800, i * 200], b.key));
		connect(connections, 'Rows', limit);
		connect(connections, limit, b.name);
	});
	return {
		id,
		name: `bench ${id}`,
		active: false,
		nodes,
		connections,
		settings: SETTINGS,
		pinData: {},
	};
}

function warmUpName(key: string): string {
	return `Warm-up ${key}`;
}
