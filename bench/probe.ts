/**
 * The micro-benchmark's transport probe (bench/micro.ts): a node that sends `count` creates, 8 at a
 * time, or reads the whole people list, either through a build of our transport (`serviceRequest`,
 * `serviceRequestPages`, no pace cap) or as the floor does (a bare `httpRequestWithAuthentication`
 * with the credential loaded once), so that the difference is the transport's alone: no parameters
 * are read and no output is shaped. `transport` names the build to load (another build's
 * `dist/nodes/IntegrationService/transport`, to compare before and after in one run).
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	NodeConnectionType,
} from 'n8n-workflow';

import type * as Transport from '../nodes/IntegrationService/transport';

const CREDENTIAL_TYPE = 'integrationServiceApi';
const MAIN = 'main' as NodeConnectionType;
const CONCURRENCY = 8;

export const PROBE_TYPE = 'transportProbe';

async function inParallel(count: number, send: (i: number) => Promise<unknown>): Promise<number> {
	let next = 0;
	let done = 0;
	const worker = async () => {
		while (next < count) {
			await send(next++);
			done++;
		}
	};
	await Promise.all(Array.from({ length: CONCURRENCY }, worker));
	return done;
}

async function viaTransport(ctx: IExecuteFunctions, path: string, list: boolean, count: number) {
	const transport = (
		path === '' ? require('../nodes/IntegrationService/transport') : require(path)
	) as typeof Transport;
	const run = transport.newRun({ ...transport.DEFAULT_SETTINGS, maxRequestsPerSecond: 0 });
	if (list) {
		const { received } = await transport.serviceRequestPages.call(
			ctx,
			0,
			{
				request: {
					method: 'GET',
					host: 'crm',
					path: ['people'],
					connection: transport.CREDENTIAL_DEFAULT,
				},
				pageSize: 100,
				recordsKey: 'people',
			},
			run,
			() => undefined,
		);
		return received;
	}
	const body = { firstName: 'Ada', lastName: 'Probe' };
	return await inParallel(
		count,
		async (i) =>
			await transport.serviceRequest.call(
				ctx,
				i,
				{
					method: 'POST',
					host: 'crm',
					path: ['people'],
					body,
					connection: transport.CREDENTIAL_DEFAULT,
				},
				run,
			),
	);
}

async function bare(ctx: IExecuteFunctions, list: boolean, count: number) {
	const data = await ctx.getCredentials(CREDENTIAL_TYPE);
	const options = {
		credentialsDecrypted: {
			id: '',
			name: '',
			type: CREDENTIAL_TYPE,
			data: data as ICredentialDataDecryptedObject,
		},
	};
	const headers = { 'X-Service-Credential-Id': String(data.credentialId) };
	const send = async (method: 'GET' | 'POST', url: string, body?: IDataObject) =>
		(await ctx.helpers.httpRequestWithAuthentication.call(
			ctx,
			CREDENTIAL_TYPE,
			{ method, url, body, headers, json: true },
			options,
		)) as { people?: IDataObject[]; _metadata?: { nextLink?: string } };
	if (list) {
		let received = 0;
		let url: string | undefined = `${String(data.crmUrl)}/api/people?limit=100`;
		while (url) {
			const page = await send('GET', url);
			received += page.people?.length ?? 0;
			url = page.people?.length ? page._metadata?.nextLink : undefined;
		}
		return received;
	}
	const url = `${String(data.crmUrl)}/api/people`;
	return await inParallel(
		count,
		async () => await send('POST', url, { firstName: 'Ada', lastName: 'Probe' }),
	);
}

export const transportProbe: INodeType = {
	description: {
		displayName: 'Transport Probe',
		name: PROBE_TYPE,
		group: ['transform'],
		version: 1,
		description: 'Our transport against bare httpRequestWithAuthentication',
		defaults: { name: 'Transport Probe' },
		inputs: [MAIN],
		outputs: [MAIN],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: [
			{ displayName: 'Transport', name: 'transport', type: 'string', default: '' },
			{ displayName: 'Bare', name: 'bare', type: 'boolean', default: false },
			{ displayName: 'List', name: 'list', type: 'boolean', default: false },
			{ displayName: 'Count', name: 'count', type: 'number', default: 100 },
		],
	},
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const count = this.getNodeParameter('count', 0) as number;
		const list = this.getNodeParameter('list', 0) as boolean;
		const done = (this.getNodeParameter('bare', 0) as boolean)
			? await bare(this, list, count)
			: await viaTransport(this, this.getNodeParameter('transport', 0) as string, list, count);
		return [Array.from({ length: done }, () => ({ json: {} }))];
	},
};
