/**
 * Runs our built package inside n8n's real execution engine (n8n-core's WorkflowExecute), the way the
 * n8n application does, so tests read like workflows: node parameters in, output items out.
 */
import './setup-env';

import {
	ExecuteContext,
	ExecutionLifecycleHooks,
	PackageDirectoryLoader,
	RoutingNode,
	WorkflowExecute,
} from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialType,
	IDataObject,
	IExecuteData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypes,
	IRequestOptionsSimplified,
	IRun,
	IRunExecutionData,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	createRunExecutionData,
	ICredentials,
	ICredentialsHelper,
	NodeConnectionTypes,
	NodeHelpers,
	Workflow,
} from 'n8n-workflow';

import { PACKAGE_NAME, packageRoot } from './package-root';

export const NODE_TYPE = `${PACKAGE_NAME}.integrationService`;
export const CREDENTIAL_TYPE = 'integrationServiceApi';
const INPUT_NODE_TYPE = 'harness.items';

/** A start node that emits the test's input items, like a Manual Trigger followed by a Code node. */
const inputNodeType: INodeType = {
	description: {
		displayName: 'Test Items',
		name: INPUT_NODE_TYPE,
		group: ['input'],
		version: 1,
		description: 'Emits the items given in its parameter',
		defaults: { name: 'Test Items' },
		inputs: [],
		outputs: ['main'],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	},
	async execute(this) {
		const items = JSON.parse(this.getNodeParameter('items', 0) as string) as IDataObject[];
		return [items.map((json) => ({ json }))];
	},
};

export const PREDEFINED_REQUEST_TYPE = 'harness.predefinedCredentialRequest';

/**
 * What n8n's HTTP Request node does with "Predefined Credential Type" = our credential: one legacy
 * `requestWithAuthentication` per item, where n8n-core refreshes the credential and re-sends after a
 * failure whenever preAuthentication hands back a new token.
 */
const predefinedRequestNodeType: INodeType = {
	description: {
		displayName: 'Predefined Credential Request',
		name: PREDEFINED_REQUEST_TYPE,
		group: ['transform'],
		version: 1,
		description:
			'Sends one request with the Integration Service credential, as the HTTP Request node does',
		defaults: { name: 'Predefined Credential Request' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'integrationServiceApi', required: true }],
		properties: [
			{ displayName: 'Method', name: 'method', type: 'string', default: 'GET' },
			{ displayName: 'URL', name: 'url', type: 'string', default: '' },
			{ displayName: 'Body', name: 'body', type: 'json', default: '' },
		],
	},
	async execute(this) {
		const out: INodeExecutionData[] = [];
		for (let itemIndex = 0; itemIndex < this.getInputData().length; itemIndex++) {
			const body = this.getNodeParameter('body', itemIndex) as string;
			const options = {
				method: this.getNodeParameter('method', itemIndex) as string,
				uri: this.getNodeParameter('url', itemIndex) as string,
				json: true,
				...(body ? { body: JSON.parse(body) as IDataObject } : {}),
			};
			const answer = (await this.helpers.requestWithAuthentication.call(
				this,
				'integrationServiceApi',
				options as never,
				undefined,
				itemIndex,
			)) as IDataObject;
			out.push({ json: answer, pairedItem: { item: itemIndex } });
		}
		return [out];
	},
};

/** Node types a test adds to the engine's (e.g. test/harness/tool.ts's tool caller). */
const extraNodeTypes: Record<string, INodeType> = {};
export function registerNodeType(type: INodeType): void {
	extraNodeTypes[type.description.name] = type;
}

/**
 * The tool variant n8n 2.41 makes of a node that is usableAsTool (convertNodeToAiTool in the n8n
 * package): the same execute, a type name ending in "Tool", no main input, one ai_tool output.
 */
function asAiTool(type: INodeType): INodeType {
	const { usableAsTool: _usable, ...description } = type.description;
	return Object.assign(Object.create(type) as INodeType, {
		description: {
			...description,
			name: `${description.name}Tool`,
			displayName: `${description.displayName} Tool`,
			inputs: [],
			outputs: [NodeConnectionTypes.AiTool],
		},
	});
}

interface LoadedPackage {
	nodeTypes: INodeTypes;
	credentialTypes: Record<string, ICredentialType>;
}

let loaded: Promise<LoadedPackage> | undefined;

/** Loads dist/ through n8n-core's PackageDirectoryLoader, exactly as n8n loads a community package. */
export async function loadPackage(): Promise<LoadedPackage> {
	loaded ??= (async () => {
		const loader = new PackageDirectoryLoader(packageRoot());
		await loader.loadAll();
		const byName: Record<string, INodeType | IVersionedNodeType> = {
			[INPUT_NODE_TYPE]: inputNodeType,
			[PREDEFINED_REQUEST_TYPE]: predefinedRequestNodeType,
		};
		for (const [name, data] of Object.entries(loader.nodeTypes)) {
			byName[`${PACKAGE_NAME}.${name}`] = data.type;
			// n8n makes a tool variant of every node that is usableAsTool (below).
			const type = data.type as INodeType;
			if (type.description?.usableAsTool) byName[`${PACKAGE_NAME}.${name}Tool`] = asAiTool(type);
		}
		const credentialTypes: Record<string, ICredentialType> = {};
		for (const [name, data] of Object.entries(loader.credentialTypes))
			credentialTypes[name] = data.type;
		const nodeTypes: INodeTypes = {
			getByName: (type) => byName[type] ?? extraNodeTypes[type],
			getByNameAndVersion: (type, version) =>
				NodeHelpers.getVersionedNodeType(byName[type] ?? extraNodeTypes[type], version),
			getKnownTypes: () => ({}),
		};
		return { nodeTypes, credentialTypes };
	})();
	return await loaded;
}

class StoredCredentials extends ICredentials {
	constructor(
		details: INodeCredentialsDetails,
		type: string,
		private readonly plain: ICredentialDataDecryptedObject,
	) {
		super(details, type);
	}
	async getData(): Promise<ICredentialDataDecryptedObject> {
		return { ...this.plain };
	}
	getDataToSave() {
		return { id: this.id, name: this.name, type: this.type, data: '' };
	}
	async setData(): Promise<void> {}
	async updateData(): Promise<void> {}
}

/**
 * The credential store of a test run. It calls the credential's `authenticate` function with the
 * decrypted data, as n8n's CredentialsHelper does; defaults of the credential's properties are
 * applied to the stored data, as n8n does on decryption.
 */
export class TestCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly types: Record<string, ICredentialType>,
		private readonly store: Record<string, ICredentialDataDecryptedObject>,
	) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	/** As n8n's CredentialsHelper: a function authenticates itself; a generic one resolves its expressions. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.types[typeName];
		if (typeof authenticate === 'function')
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		const options = requestOptions as IHttpRequestOptions & Record<string, IDataObject | undefined>;
		if (authenticate?.type === 'generic') {
			for (const [where, values] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries(values as IDataObject)) {
					const resolved =
						typeof value === 'string' && value.startsWith('=')
							? workflow.expression.getSimpleParameterValue(
									node,
									value,
									'internal',
									{ $credentials: credentials },
									undefined,
									'',
								)
							: value;
					options[where] = { ...(options[where] ?? {}), [key]: resolved as string };
				}
			}
		}
		return options;
	}

	/** As n8n's: runs the type's preAuthentication when its expirable field is empty, expired, or under test. */
	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.types[typeName];
		const expirable = type.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (!expirable || typeof type.preAuthentication !== 'function') return undefined;
		const testing = node?.type === 'n8n-nodes-base.noOp';
		if (
			credentials[expirable.name] !== '' &&
			credentials[expirable.name] !== undefined &&
			!credentialsExpired &&
			!testing
		)
			return undefined;
		const output = await type.preAuthentication.call(helpers, credentials);
		// As n8n 2.41's CredentialsHelper: no new value means nothing changes (and n8n-core does not re-send).
		if (output[expirable.name] === undefined) return undefined;
		const details = Object.values(node.credentials ?? {})[0];
		if (details?.id && this.store[details.id]) Object.assign(this.store[details.id], output);
		return Object.assign(credentials, output);
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async getCredentials(details: INodeCredentialsDetails, type: string): Promise<ICredentials> {
		return new StoredCredentials(details, type, this.stored(details, type));
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		details: INodeCredentialsDetails,
		type: string,
		_mode: WorkflowExecuteMode,
	): Promise<ICredentialDataDecryptedObject> {
		return this.applyDefaults(type, this.stored(details, type));
	}

	applyDefaults(
		type: string,
		data: ICredentialDataDecryptedObject,
	): ICredentialDataDecryptedObject {
		const properties = this.getCredentialsProperties(type);
		return (NodeHelpers.getNodeParameters(
			properties,
			data as INodeParameters,
			true,
			false,
			null,
			null,
		) ?? {}) as ICredentialDataDecryptedObject;
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.types[type].properties;
	}

	private stored(details: INodeCredentialsDetails, type: string): ICredentialDataDecryptedObject {
		const data = details.id ? this.store[details.id] : undefined;
		if (!data) throw new Error(`No ${type} credential with id ${details.id}`);
		return data;
	}
}

export function additionalDataFor(
	credentialsHelper: ICredentialsHelper,
	hooks?: ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper,
		hooks,
		executeWorkflow: async () => {
			throw new Error('sub-workflows are not used in these tests');
		},
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		currentNodeParameters: undefined,
		executionTimeoutTimestamp: undefined,
		userId: 'test-user',
		variables: {},
		logAiEvent: async () => {},
		startRunnerTask: async () => {
			throw new Error('task runners are not used in these tests');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}

export interface RunOptions {
	/** Parameters of our node, as the editor would store them. */
	parameters: INodeParameters;
	/** Credential data as a user fills it in the credential form. */
	credentials: ICredentialDataDecryptedObject;
	/** Input items for our node; one empty item when not given. */
	items?: IDataObject[];
	/** n8n's node setting "On Error". */
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
	/** Presses n8n's Stop Execution this long after the run starts (the execution's cancel signal). */
	cancelAfterMs?: number;
	/** Presses Stop Execution once this settles (e.g. when the service has the request): at any speed. */
	cancelWhen?: Promise<unknown>;
	/** The node under test: ours unless given (PREDEFINED_REQUEST_TYPE: as the HTTP Request node). */
	nodeType?: string;
	/** The node's version: 1 unless given (the version of the workflows the tests were written with). */
	typeVersion?: number;
	/**
	 * The n8n credential's ID. Runs of one credential share the tenant's pace and 429 pause, so each run
	 * gets its own ID unless a test gives one to run several executions of one tenant.
	 */
	credentialId?: string;
}

export interface RunResult {
	/** Items of the node's main output. */
	items: INodeExecutionData[];
	/** Items of the error output (only with onError: continueErrorOutput). */
	errorItems: INodeExecutionData[];
	/** The error that stopped the workflow, if any. */
	error?: {
		message: string;
		description?: string | null;
		httpCode?: string | null;
		context?: IDataObject;
		name?: string;
	};
	run: IRun;
}

const NODE_NAME = 'Integration Service';

/** Runs Test Items → Integration Service through WorkflowExecute and returns what the node produced. */
let runCount = 0;

export async function runNode(options: RunOptions): Promise<RunResult> {
	const { nodeTypes, credentialTypes } = await loadPackage();
	const credentialId = options.credentialId ?? `cred${++runCount}`;
	const credentialsHelper = new TestCredentialsHelper(credentialTypes, {
		[credentialId]: options.credentials,
	});
	const nodes: INode[] = [
		{
			id: 'input',
			name: 'Test Items',
			type: INPUT_NODE_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: { items: JSON.stringify(options.items ?? [{}]) },
		},
		{
			id: 'subject',
			name: NODE_NAME,
			type: options.nodeType ?? NODE_TYPE,
			typeVersion: options.typeVersion ?? 1,
			position: [200, 0],
			parameters: options.parameters,
			credentials: { [CREDENTIAL_TYPE]: { id: credentialId, name: 'Integration Service account' } },
			...(options.onError ? { onError: options.onError } : {}),
		},
	];
	const workflow = new Workflow({
		id: 'test-workflow',
		name: 'test',
		nodes,
		connections: { 'Test Items': { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] } },
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1' },
	});
	const hooks = new ExecutionLifecycleHooks('manual', 'test-execution', {
		id: 'test-workflow',
		name: 'test',
		active: false,
		isArchived: false,
		nodes,
		connections: workflow.connectionsBySourceNode,
		createdAt: new Date(),
		updatedAt: new Date(),
		activeVersionId: null,
	} as never);
	const execution = new WorkflowExecute(additionalDataFor(credentialsHelper, hooks), 'manual');
	const running = execution.run({ workflow, startNode: workflow.getNode('Test Items')! });
	const cancel =
		options.cancelAfterMs === undefined
			? undefined
			: setTimeout(() => running.cancel(), options.cancelAfterMs);
	void options.cancelWhen?.then(() => running.cancel());
	const run = await running;
	if (cancel) clearTimeout(cancel);
	const taskData = run.data.resultData.runData[NODE_NAME]?.[0];
	const outputs = taskData?.data?.main ?? [];
	const error = run.data.resultData.error as RunResult['error'] | undefined;
	return { items: outputs[0] ?? [], errorItems: outputs[1] ?? [], error, run };
}

/**
 * Tests a credential as n8n's CredentialsTester does: the credential type's `test.request` becomes
 * the routing request of a temporary node that RoutingNode runs with the credential; any non-2xx
 * answer or network error is a failed test.
 */
export async function testCredential(
	data: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult> {
	const { credentialTypes } = await loadPackage();
	const credentialType = credentialTypes[CREDENTIAL_TYPE];
	if (!credentialType.test)
		return { status: 'Error', message: 'No testing function found for this credential.' };
	const credentialsHelper = new TestCredentialsHelper(credentialTypes, { cred1: data });
	const decrypted: ICredentialsDecrypted = {
		id: 'cred1',
		name: 'Integration Service account',
		type: CREDENTIAL_TYPE,
		data: credentialsHelper.applyDefaults(CREDENTIAL_TYPE, data),
	};
	const testNodeType: INodeType = {
		description: {
			displayName: 'Credential Test',
			name: 'n8n-nodes-base.noOp',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: { name: 'Temp-Node' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: CREDENTIAL_TYPE, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: credentialType.test.request },
					default: '',
				},
			],
		},
	};
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: testNodeType.description.name,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [CREDENTIAL_TYPE]: { id: 'cred1', name: 'Integration Service account' } },
	};
	const nodeTypes: INodeTypes = {
		getByName: () => testNodeType,
		getByNameAndVersion: () => testNodeType,
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const runExecutionData: IRunExecutionData = createRunExecutionData({
		resultData: { runData: {} },
	});
	const executeData: IExecuteData = { node, data: {}, source: null };
	const context = new ExecuteContext(
		workflow,
		node,
		additionalDataFor(credentialsHelper),
		'internal',
		runExecutionData,
		0,
		[],
		{ main: [[{ json: {} }]] },
		executeData,
		[],
	);
	// As n8n's CredentialsTester: status-code rules when the request failed, body rules when it succeeded.
	const rules = (credentialType.test.rules ?? []) as Array<{
		type: string;
		properties: { value: unknown; message: string; key?: string };
	}>;
	let response: INodeExecutionData[][] | null | undefined;
	try {
		response = await new RoutingNode(context, testNodeType, decrypted).runNode();
	} catch (error) {
		const cause = (
			error as { cause?: { response?: { status: number; statusText?: string }; code?: string } }
		).cause;
		if (cause?.response) {
			const rule = rules.find(
				(candidate) =>
					candidate.type === 'responseCode' &&
					candidate.properties.value === cause.response!.status,
			);
			if (rule) return { status: 'Error', message: rule.properties.message };
			return {
				status: 'Error',
				message: cause.response.statusText || `Received HTTP status code: ${cause.response.status}`,
			};
		}
		if (cause?.code) return { status: 'Error', message: cause.code };
		return { status: 'Error', message: (error as Error).message };
	}
	const body = response?.[0]?.[0]?.json ?? {};
	for (const rule of rules) {
		if (
			rule.type === 'responseSuccessBody' &&
			(body as Record<string, unknown>)[rule.properties.key!] === rule.properties.value
		) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}
