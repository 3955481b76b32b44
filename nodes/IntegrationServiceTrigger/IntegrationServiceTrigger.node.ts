import type {
	IDataObject,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../shared/service';
import {
	eventSelected,
	MAX_BODY_BYTES,
	parseEvent,
	claimEvent,
	releaseEvent,
	rememberId,
	SIGNATURE_HEADER,
	signatureMatches,
} from './delivery';
import { eventUriHost, fetchRecords } from './eventUri';
import { EVENTS_PROPERTIES } from './events';
import { managesWebhooks, pointWebhook, REGISTRATION_PROPERTIES } from './registration';
import { createWebhooks, deleteWebhooks, webhooksExist } from './webhooks';

/** Why a delivery's signature is not accepted (no key to check with, missing, or wrong), if it is not. */
async function signatureProblem(ctx: IWebhookFunctions, raw: Buffer): Promise<string | undefined> {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
	const clientMode = credentials.authentication === 'clientCredentials';
	const secret = credentials[clientMode ? 'clientSecret' : 'signingSecret'];
	if (typeof secret !== 'string' || secret === '')
		return clientMode
			? 'Signature not checked: the credential has no Client Secret to verify deliveries with'
			: 'Signature not checked: the credential (Access Token mode) has no Webhook Signing Secret; add it to the credential';
	const header = ctx.getRequestObject().headers[SIGNATURE_HEADER];
	if (signatureMatches(secret, raw, Array.isArray(header) ? header[0] : header)) return undefined;
	return header === undefined ? 'Missing X-Service-Signature' : 'Invalid X-Service-Signature';
}

export class IntegrationServiceTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Integration Service Trigger',
		name: 'integrationServiceTrigger',
		icon: {
			light: 'file:../../icons/integrationServiceTrigger.svg',
			dark: 'file:../../icons/integrationServiceTrigger.dark.svg',
		},
		group: ['trigger'],
		// 1.1: Create and Delete Webhooks is on by default; version 1 keeps it off, so a saved workflow works as before.
		// 1.2: events by name ("Person Created") and Filters as fields; the values stored and sent are the same.
		version: [1, 1.1, 1.2],
		defaultVersion: 1.2,
		subtitle: '={{ $parameter["events"].join(", ") }}',
		description:
			'Starts the workflow when the Integration Service delivers an event (a person, borrower or document created, updated or deleted), verified and deduplicated',
		defaults: { name: 'Integration Service Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		webhooks: [
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
		],
		properties: [
			...EVENTS_PROPERTIES,
			{
				displayName: 'Fetch Records',
				name: 'fetchRecords',
				type: 'boolean',
				default: true,
				description:
					"Whether to read the records the event names (from its uri, on one of the credential's hosts) and output one item per record. Off: the event itself is the item. Events ending in Deleted are never fetched.",
			},
			{
				displayName: 'Verify Signature',
				name: 'verifySignature',
				type: 'boolean',
				default: true,
				description:
					"Whether to accept only deliveries signed with the credential's signing key (the client secret, or the Webhook Signing Secret of an access-token connection) in the X-Service-Signature header; others are answered 401",
			},
			{
				displayName:
					'Without the signature check, anyone who learns this webhook URL can start the workflow with an event they made up',
				name: 'unverifiedNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { verifySignature: [false] } },
			},
			...REGISTRATION_PROPERTIES,
		],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				if (managesWebhooks(this)) return await webhooksExist(this);
				// The calendar webhook cannot be read, so activation always updates it; a test listen never does
				// (it would take the deliveries away from the production URL).
				if (this.getMode() === 'manual') return true;
				return !(this.getNodeParameter('registerWebhook', false) as boolean);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				if (managesWebhooks(this)) await createWebhooks(this);
				else await pointWebhook(this);
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				// What this trigger created on the CRM host is deleted, whatever the options say now.
				await deleteWebhooks(this);
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const request = this.getRequestObject();
		const response = this.getResponseObject();
		const answer = (status: number, body: IDataObject): IWebhookResponseData => {
			response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
			response.end(JSON.stringify(body));
			return { noWebhookResponse: true };
		};
		const notStarted = (reason: string) => answer(200, { received: true, started: false, reason });

		// n8n keeps the exact bytes received; a re-serialised body could never match the signature.
		const rawBody: unknown = (request as unknown as { rawBody?: unknown }).rawBody;
		const raw = Buffer.isBuffer(rawBody) ? rawBody : Buffer.alloc(0);
		if (raw.length > MAX_BODY_BYTES)
			return answer(413, { error: `The body is larger than ${MAX_BODY_BYTES} bytes` });

		if (this.getNodeParameter('verifySignature', true) as boolean) {
			const problem = await signatureProblem(this, raw);
			if (problem !== undefined) return answer(401, { error: problem });
		}

		const parsed = parseEvent(raw);
		if ('problem' in parsed) return answer(400, { error: parsed.problem });
		const { event } = parsed;

		const selected = this.getNodeParameter('events', []) as string[];
		if (!eventSelected(selected, event.event))
			return notStarted(`event ${event.event} is not selected`);

		const staticData = this.getWorkflowStaticData('node');
		const triggerKey = `${this.getWorkflow().id ?? ''}:${this.getNode().id}`;
		if (!claimEvent(triggerKey, staticData, event.eventId)) return notStarted('duplicate eventId');
		// Until the workflow starts, the claim is given back on any way out (a refused uri, a failed read),
		// so the service's next delivery of this event can still start it.
		let started = false;
		try {
			let items: INodeExecutionData[] = [{ json: event }];
			const fetch = this.getNodeParameter('fetchRecords', true) as boolean;
			if (fetch && !/Deleted$/.test(event.event)) {
				if (typeof event.uri !== 'string' || event.uri === '')
					return answer(400, { error: 'The event has no "uri" to fetch its records from' });
				const credentials = (await this.getCredentials(CREDENTIAL_TYPE)) as IDataObject;
				const target = eventUriHost(credentials, event.uri);
				if ('refused' in target) return answer(422, { error: target.refused });
				const records = await fetchRecords(this, target.host, event.uri);
				// No record left (deleted since): the event itself starts the workflow, so nothing is lost silently.
				if (records.length > 0) items = records.map((json) => ({ json }));
			}
			rememberId(staticData, event.eventId);
			started = true;
			// Answered here, not by n8n after it starts the run: n8n saves the static data when the answer is
			// sent, and from n8n ~2.18 the run's start clears its "changed" mark (docs/trigger.md, Memory).
			answer(200, { message: 'Workflow was started' });
			return { noWebhookResponse: true, workflowData: [items] };
		} finally {
			if (!started) releaseEvent(triggerKey, event.eventId);
		}
	}
}
