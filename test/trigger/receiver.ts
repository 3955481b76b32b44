/**
 * Runs the Integration Service Trigger the way n8n 2.41 runs a production webhook, through n8n-core's
 * real WebhookContext and HookContext: a 127.0.0.1 HTTP server keeps the exact bytes of each request as
 * `rawBody` (n8n's rawBodyReader), parses a JSON body (n8n answers 422 to invalid JSON), loads the
 * workflow's static data as stored, calls the node's webhook(), answers for it unless it answered
 * itself, and stores the static data again if it changed (LiveWebhooks → saveStaticData).
 */
import '../harness/setup-env';

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'http';
import type { AddressInfo } from 'net';

import { HookContext, WebhookContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IWebhookData,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { CREDENTIAL_TYPE, loadPackage, NODE_TYPE, TestCredentialsHelper } from '../harness/engine';

export const TRIGGER_TYPE = `${NODE_TYPE}Trigger`;
const NODE_NAME = 'Integration Service Trigger';
const WEBHOOK_ID = '5b0c9a1e-7d1f-4c43-9a57-0d1c2b3a4f5e';

export interface Delivery {
	status: number;
	/** The answer's body, parsed when JSON. */
	body: unknown;
	/** What the trigger handed n8n to start the workflow with; undefined when it started nothing. */
	workflowData?: INodeExecutionData[][];
}

export interface Receiver {
	/** This receiver's URL (stands for n8n's production webhook URL). */
	url: string;
	/** The workflow's static data as n8n would have stored it. */
	storedStaticData: IDataObject;
	/** Executions started, in order: the items each one starts with. */
	started: INodeExecutionData[][];
	/** Replaces the stored static data (as if earlier deliveries had left it so). */
	seedStaticData(data: IDataObject): void;
	/** POSTs a body (bytes as given) with headers, and returns the answer and what started. */
	deliver(body: string | Buffer, headers?: Record<string, string>): Promise<Delivery>;
	/** Runs the webhook lifecycle of activation (checkExists, then create if needed), as ActiveWorkflowManager does. */
	activate(
		mode?: WorkflowExecuteMode,
		activation?: WorkflowActivateMode,
	): Promise<{ created: boolean }>;
	/** Runs the webhook lifecycle of deactivation (delete), and stores the static data as n8n does after it. */
	deactivate(mode?: WorkflowExecuteMode): Promise<boolean>;
	/** n8n's test URL of this trigger ("Listen for test event"). */
	testUrl: string;
	close(): Promise<void>;
}

/**
 * Until the credential type declares `signingSecret` (contract 2, added in parallel), applying the
 * credential's defaults drops it; this keeps any field of the stored data that the defaults left out.
 */
class KeepSigningSecret extends TestCredentialsHelper {
	constructor(
		types: ConstructorParameters<typeof TestCredentialsHelper>[0],
		store: ConstructorParameters<typeof TestCredentialsHelper>[1],
		private readonly raw: ICredentialDataDecryptedObject,
	) {
		super(types, store);
	}

	async getDecrypted(
		...args: Parameters<TestCredentialsHelper['getDecrypted']>
	): Promise<ICredentialDataDecryptedObject> {
		return { ...this.raw, ...(await super.getDecrypted(...args)) };
	}
}

/** workflowId: another ID with the stored static data stands for an n8n restart (no process memory). */
export interface ReceiverOptions {
	workflowId?: string;
	typeVersion?: number;
	/** An n8n restarted on its URL; any free port by default. */
	port?: number;
}

export async function startReceiver(
	parameters: INodeParameters,
	credentials: ICredentialDataDecryptedObject,
	options: ReceiverOptions = {},
): Promise<Receiver> {
	const { nodeTypes, credentialTypes } = await loadPackage();
	const credentialsHelper = new KeepSigningSecret(
		credentialTypes,
		{ cred1: credentials },
		credentials,
	);
	const typeVersion = options.typeVersion ?? 1;
	const nodeType = nodeTypes.getByNameAndVersion(TRIGGER_TYPE, typeVersion) as INodeType;
	const node: INode = {
		id: 'trigger',
		name: NODE_NAME,
		type: TRIGGER_TYPE,
		typeVersion,
		position: [0, 0],
		webhookId: WEBHOOK_ID,
		parameters,
		credentials: { [CREDENTIAL_TYPE]: { id: 'cred1', name: 'Integration Service account' } },
	};
	let stored: IDataObject = {};
	const started: INodeExecutionData[][] = [];
	let pending: ((delivery: Omit<Delivery, 'status' | 'body'>) => void) | undefined;

	// A fresh Workflow per request with the stored static data, as LiveWebhooks loads it from the database.
	const newWorkflow = (staticData: IDataObject) =>
		new Workflow({
			id: options.workflowId ?? 'trigger-workflow',
			name: 'trigger test',
			nodes: [node],
			connections: {},
			active: true,
			nodeTypes,
			staticData,
			settings: { executionOrder: 'v1' },
		});
	const storedCopy = () => JSON.parse(JSON.stringify(stored)) as IDataObject;
	const saveStaticData = (workflow: Workflow) => {
		if (workflow.staticData.__dataChanged === true) {
			const copy = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
			delete copy.__dataChanged;
			stored = copy;
		}
	};

	let baseUrl = '';
	const additionalData = (
		request?: IncomingMessage,
		response?: ServerResponse,
	): IWorkflowExecuteAdditionalData =>
		({
			credentialsHelper,
			webhookBaseUrl: `${baseUrl}/webhook`,
			webhookTestBaseUrl: `${baseUrl}/webhook-test`,
			webhookWaitingBaseUrl: `${baseUrl}/webhook-waiting`,
			instanceBaseUrl: `${baseUrl}/`,
			restApiUrl: `${baseUrl}/rest`,
			httpRequest: request,
			httpResponse: response,
			variables: {},
		}) as unknown as IWorkflowExecuteAdditionalData;

	const webhookData = (
		workflow: Workflow,
		data: IWorkflowExecuteAdditionalData,
		isTest = false,
	): IWebhookData => ({
		isTest,
		httpMethod: 'POST',
		node: NODE_NAME,
		path: `${WEBHOOK_ID}/webhook`,
		webhookDescription: nodeType.description.webhooks![0],
		workflowId: workflow.id,
		workflowExecuteAdditionalData: data,
		webhookId: WEBHOOK_ID,
	});

	/** The workflow as stored and a HookContext on it, as n8n runs a webhook's lifecycle methods. */
	const hook = (mode: WorkflowExecuteMode, activation: WorkflowActivateMode) => {
		const workflow = newWorkflow(storedCopy());
		const data = additionalData();
		const description = webhookData(workflow, data, mode === 'manual');
		const context = new HookContext(workflow, node, data, mode, activation, description);
		return { workflow, context };
	};

	const handle = async (request: IncomingMessage, response: ServerResponse) => {
		const chunks: Buffer[] = [];
		for await (const chunk of request) chunks.push(chunk as Buffer);
		const raw = Buffer.concat(chunks);
		const req = request as IncomingMessage & IDataObject;
		req.rawBody = raw;
		req.params = {};
		req.query = {};
		const contentType = String(request.headers['content-type'] ?? '')
			.split(';')[0]
			.trim()
			.toLowerCase();
		if (contentType === 'application/json' && raw.length > 0) {
			try {
				req.body = JSON.parse(raw.toString('utf8')) as IDataObject;
			} catch {
				response.writeHead(422, { 'Content-Type': 'application/json' });
				response.end(JSON.stringify({ message: 'Failed to parse request body' }));
				pending?.({});
				return;
			}
		} else {
			req.body = {};
		}
		const loaded = storedCopy();
		const workflow = newWorkflow(loaded);
		const data = additionalData(request, response);
		const context = new WebhookContext(
			workflow,
			node,
			data,
			'webhook',
			webhookData(workflow, data),
			[],
			null,
		);
		try {
			const result = await nodeType.webhook!.call(context);
			// As n8n 2.41: the node's own answer saves the static data before the run starts; starting it
			// (establishContextForPersistence) clears the "changed" mark; n8n's answer and save come after.
			if (result.noWebhookResponse === true) saveStaticData(workflow);
			if (result.workflowData) newWorkflow(loaded);
			if (result.noWebhookResponse !== true) {
				response.writeHead(200, { 'Content-Type': 'application/json' });
				response.end(JSON.stringify({ message: 'Workflow was started' }));
				saveStaticData(workflow);
			}
			if (result.workflowData) started.push(result.workflowData[0]);
			pending?.({ workflowData: result.workflowData });
		} catch (error) {
			// n8n answers a webhook that threw with 500 (and records a failed execution).
			response.writeHead(500, { 'Content-Type': 'application/json' });
			response.end(JSON.stringify({ message: (error as Error).message }));
			pending?.({});
		}
	};

	const server: Server = createServer((request, response) => {
		void handle(request, response);
	});
	await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	const url = `${baseUrl}/webhook/${WEBHOOK_ID}/webhook`;

	return {
		url,
		get storedStaticData() {
			return stored;
		},
		started,
		seedStaticData(data) {
			stored = JSON.parse(JSON.stringify(data)) as IDataObject;
		},
		async deliver(body, headers = { 'Content-Type': 'application/json' }) {
			const done = new Promise<Omit<Delivery, 'status' | 'body'>>((resolve) => (pending = resolve));
			const answer = await fetch(url, {
				method: 'POST',
				headers,
				body: typeof body === 'string' ? body : new Uint8Array(body),
			});
			const text = await answer.text();
			const outcome = await done;
			pending = undefined;
			let parsed: unknown = text;
			try {
				parsed = JSON.parse(text);
			} catch {
				// Not JSON: keep the text.
			}
			return { status: answer.status, body: parsed, ...outcome };
		},
		async activate(mode = 'trigger', activation = 'activate') {
			const { workflow, context } = hook(mode, activation);
			const hooks = nodeType.webhookMethods!.default!;
			const created = !(await hooks.checkExists.call(context));
			if (created) await hooks.create.call(context);
			saveStaticData(workflow);
			return { created };
		},
		async deactivate(mode = 'trigger') {
			const { workflow, context } = hook(mode, 'activate');
			try {
				return await nodeType.webhookMethods!.default!.delete.call(context);
			} finally {
				// WebhookTriggerRegistrar.clearRegisteredWebhook saves the static data after delete.
				saveStaticData(workflow);
			}
		},
		testUrl: `${baseUrl}/webhook-test/${WEBHOOK_ID}/webhook`,
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
