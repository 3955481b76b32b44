import type {
	IDataObject,
	IHookFunctions,
	INodeExecutionData,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_DEFAULT, newRun, serviceRequest } from '../IntegrationService/transport';
import { webhookIdProperty } from '../shared/descriptions';
import { EVENT_KINDS } from '../shared/catalogue';
import { CREDENTIAL_TYPE, hostOfUrl, originOf } from '../shared/service';
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
import { fetchRecords, parseFilters } from './records';

/** Event names are `<kind>Created|Updated|Deleted` for the catalogue's kinds (people and spec 2.3's). */
const EVENT_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Any Event', value: '*', description: 'Every event delivered to this trigger' },
	...EVENT_KINDS.flatMap((kind) =>
		['Created', 'Updated', 'Deleted'].map((action) => `${kind}${action}`),
	)
		.sort((a, b) => a.localeCompare(b))
		.map((name) => ({ name, value: name })),
];

export class IntegrationServiceTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Integration Service Trigger',
		name: 'integrationServiceTrigger',
		icon: {
			light: 'file:../../icons/integrationServiceTrigger.svg',
			dark: 'file:../../icons/integrationServiceTrigger.dark.svg',
		},
		group: ['trigger'],
		version: 1,
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
			{
				// Not "Events": n8n's node creator would turn each of the 85 names into its own trigger entry,
				// burying the package's actions under them.
				displayName: 'Event Names',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['peopleCreated'],
				options: EVENT_OPTIONS,
				description:
					'The events that start the workflow. Deliveries of other events are acknowledged and start nothing.',
			},
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
			{
				displayName: 'Register Webhook on Activation',
				name: 'registerWebhook',
				type: 'boolean',
				default: false,
				description:
					'Whether activating the workflow points an existing webhook of the service at this trigger (its production URL, the chosen event and filters)',
			},
			{
				displayName:
					'The service has no way to delete a webhook: deactivating the workflow leaves the webhook pointing here (deliveries then get 404 from n8n). Point it elsewhere with the Integration Service node, Webhook › Update.',
				name: 'registrationNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { registerWebhook: [true] } },
			},
			{
				...webhookIdProperty,
				description:
					"ID of the service's webhook to update on activation; registration needs exactly one event selected, since a webhook holds one event name",
				displayOptions: { show: { registerWebhook: [true] } },
			},
			{
				displayName: 'Filters',
				name: 'filters',
				type: 'json',
				default: '{}',
				description:
					'Conditions an event must meet to be delivered, as a JSON object sent unchanged with the registration, e.g. {"stage": "Lead"}',
				displayOptions: { show: { registerWebhook: [true] } },
			},
		],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				// The service cannot be asked what a webhook points at (no read in the spec), so activation always
				// updates it. A test listen ("manual") never re-points the service's webhook: that would take the
				// deliveries away from the active workflow's production URL with nothing to give them back.
				if (this.getMode() === 'manual') return true;
				return !(this.getNodeParameter('registerWebhook', false) as boolean);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				const webhookId = String(this.getNodeParameter('webhookId', '')).trim();
				if (webhookId === '') {
					throw new NodeOperationError(
						this.getNode(),
						"Webhook ID: set the ID of the service's webhook to register",
					);
				}
				const events = this.getNodeParameter('events', []) as string[];
				if (events.length !== 1 || events[0] === '*') {
					throw new NodeOperationError(
						this.getNode(),
						'Register Webhook on Activation needs exactly one event selected (not Any Event)',
						{
							description:
								'A webhook of the service holds one event name. Select one event, or turn registration off and point webhooks here yourself.',
						},
					);
				}
				const url = this.getNodeWebhookUrl('default');
				if (!url)
					throw new NodeOperationError(
						this.getNode(),
						'n8n gave no production URL for this trigger',
					);
				const body: IDataObject = { url, event: events[0] };
				const filters = parseFilters(this, this.getNodeParameter('filters', '{}'));
				if (filters !== undefined) body.filters = filters;
				await serviceRequest.call(
					this,
					0,
					{
						method: 'PUT',
						host: 'calendar',
						path: ['webhooks', { id: webhookId, field: 'Webhook ID' }],
						body,
						connection: CREDENTIAL_DEFAULT,
					},
					newRun(),
				);
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				// The specification shows no delete for webhooks: deactivating cannot undo the registration (docs/trigger.md).
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

		// n8n keeps the exact bytes received; a re-serialised body could never match the signature.
		const rawBody: unknown = (request as unknown as { rawBody?: unknown }).rawBody;
		const raw = Buffer.isBuffer(rawBody) ? rawBody : Buffer.alloc(0);
		if (raw.length > MAX_BODY_BYTES) {
			return answer(413, { error: `The body is larger than ${MAX_BODY_BYTES} bytes` });
		}

		if (this.getNodeParameter('verifySignature', true) as boolean) {
			const credentials = (await this.getCredentials(CREDENTIAL_TYPE)) as IDataObject;
			const secretField =
				credentials.authentication === 'clientCredentials' ? 'clientSecret' : 'signingSecret';
			const secret =
				typeof credentials[secretField] === 'string' ? (credentials[secretField] as string) : '';
			if (secret === '') {
				return answer(401, {
					error:
						secretField === 'clientSecret'
							? 'Signature not checked: the credential has no Client Secret to verify deliveries with'
							: 'Signature not checked: the credential (Access Token mode) has no Webhook Signing Secret; add it to the credential',
				});
			}
			const header = request.headers[SIGNATURE_HEADER];
			if (!signatureMatches(secret, raw, Array.isArray(header) ? header[0] : header)) {
				return answer(401, {
					error:
						header === undefined ? 'Missing X-Service-Signature' : 'Invalid X-Service-Signature',
				});
			}
		}

		const parsed = parseEvent(raw);
		if ('problem' in parsed) return answer(400, { error: parsed.problem });
		const { event } = parsed;

		const selected = this.getNodeParameter('events', []) as string[];
		if (!eventSelected(selected, event.event)) {
			return answer(200, {
				received: true,
				started: false,
				reason: `event ${event.event} is not selected`,
			});
		}

		const staticData = this.getWorkflowStaticData('node');
		const triggerKey = `${this.getWorkflow().id ?? ''}:${this.getNode().id}`;
		if (!claimEvent(triggerKey, staticData, event.eventId)) {
			return answer(200, { received: true, started: false, reason: 'duplicate eventId' });
		}
		// Until the workflow starts, the claim is given back on any way out (a refused uri, a failed read),
		// so the service's next delivery of this event can still start it.
		let started = false;
		try {
			let items: INodeExecutionData[] = [{ json: event }];
			const fetch = this.getNodeParameter('fetchRecords', true) as boolean;
			if (fetch && !/Deleted$/.test(event.event)) {
				if (typeof event.uri !== 'string' || event.uri === '') {
					return answer(400, { error: 'The event has no "uri" to fetch its records from' });
				}
				const credentials = (await this.getCredentials(CREDENTIAL_TYPE)) as IDataObject;
				const host = hostOfUrl(credentials, event.uri);
				if (!host) {
					return answer(422, {
						error: `The event's uri is on ${originOf(event.uri)}, which is none of the credential's hosts; it is not read with your token`,
					});
				}
				const records = await fetchRecords(this, host, event.uri);
				// No record left (deleted since): the event itself starts the workflow, so nothing is lost silently.
				if (records.length > 0) items = records.map((json) => ({ json }));
			}
			rememberId(staticData, event.eventId);
			started = true;
			return { workflowData: [items] };
		} finally {
			if (!started) releaseEvent(triggerKey, event.eventId);
		}
	}
}
