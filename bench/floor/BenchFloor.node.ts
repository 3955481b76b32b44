/**
 * The floor: the least a node can do for the benchmark's requests inside n8n. It loads our credential
 * once per run and hands it to `httpRequestWithAuthentication` (as `credentialsDecrypted`), reads its
 * parameters through n8n like any node (expressions included), and does nothing else: no retries, no
 * checks, no paging rules. Our node ÷ this node is what our node's own work costs.
 *
 * Loaded into the real n8n application as the package `n8n-nodes-bench-floor` (bench/n8nApp.ts writes
 * it into the user folder's nodes directory next to ours). Never part of the published package.
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	NodeConnectionType,
} from 'n8n-workflow';

const CREDENTIAL_TYPE = 'integrationServiceApi';
const MAIN = 'main' as NodeConnectionType;

interface Page {
	people?: IDataObject[];
	_metadata?: { nextLink?: string | null };
}

export class BenchFloor implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Bench Floor',
		name: 'benchFloor',
		group: ['transform'],
		version: 1,
		description:
			'The benchmark floor: bare httpRequestWithAuthentication calls with the Integration Service credential',
		defaults: { name: 'Bench Floor' },
		inputs: [MAIN],
		outputs: [MAIN],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				options: [
					{ name: 'Create Person', value: 'create' },
					{ name: 'List All People', value: 'list' },
				],
				default: 'create',
			},
			{
				displayName: 'First Name',
				name: 'firstName',
				type: 'string',
				default: '',
				displayOptions: { show: { operation: ['create'] } },
			},
			{
				displayName: 'Last Name',
				name: 'lastName',
				type: 'string',
				default: '',
				displayOptions: { show: { operation: ['create'] } },
			},
			{
				displayName: 'Concurrency',
				name: 'concurrency',
				type: 'number',
				default: 8,
				displayOptions: { show: { operation: ['create'] } },
			},
			{
				displayName: 'Max Pages (0: All)',
				name: 'maxPages',
				type: 'number',
				default: 0,
				displayOptions: { show: { operation: ['list'] } },
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const data = await this.getCredentials(CREDENTIAL_TYPE);
		const options = {
			credentialsDecrypted: {
				id: '',
				name: '',
				type: CREDENTIAL_TYPE,
				data: data as ICredentialDataDecryptedObject,
			},
		};
		const headers = { 'X-Service-Credential-Id': String(data.credentialId) };
		const send = async (request: IHttpRequestOptions): Promise<unknown> =>
			await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_TYPE,
				{ ...request, headers, json: true },
				options,
			);

		if (this.getNodeParameter('operation', 0) === 'list') {
			const out: INodeExecutionData[] = [];
			let url: string | null | undefined = `${String(data.crmUrl)}/api/people?limit=100`;
			const maxPages = this.getNodeParameter('maxPages', 0) as number;
			for (let pages = 0; url && (maxPages <= 0 || pages < maxPages); pages++) {
				const page = (await send({ method: 'GET', url })) as Page;
				for (const person of page.people ?? []) out.push({ json: person, pairedItem: { item: 0 } });
				url = page.people?.length ? page._metadata?.nextLink : undefined;
			}
			return [out];
		}

		const items = this.getInputData();
		const out = new Array<INodeExecutionData>(items.length);
		const url = `${String(data.crmUrl)}/api/people`;
		let next = 0;
		const worker = async () => {
			while (next < items.length) {
				const i = next++;
				const body = {
					firstName: this.getNodeParameter('firstName', i) as string,
					lastName: this.getNodeParameter('lastName', i) as string,
				};
				out[i] = {
					json: (await send({ method: 'POST', url, body })) as IDataObject,
					pairedItem: { item: i },
				};
			}
		};
		const concurrency = Math.max(1, this.getNodeParameter('concurrency', 0) as number);
		await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
		return [out];
	}
}
