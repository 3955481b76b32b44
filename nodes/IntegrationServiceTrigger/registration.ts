import type { IHookFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_DEFAULT, newRun, serviceRequest } from '../IntegrationService/transport';
import { webhookIdProperty } from '../shared/descriptions';
import { lossyNumberAt, lossyProblem } from '../shared/jsonNumbers';
import { FILTER_PROPERTIES, filtersOf } from './filters';

/** Create and Delete Webhooks: off in version 1, so a saved workflow works as before; on by default from 1.1. */
const manageWebhooks = (versions: number[]): INodeProperties => ({
	displayName: 'Create and Delete Webhooks',
	name: 'manageWebhooks',
	type: 'boolean',
	default: false,
	description:
		"Whether activating the workflow creates a webhook on the CRM host for each selected CRM event (at this trigger's production URL, with the Filters) and deactivating deletes them. A webhook already pointing here for an event is used, and one made by hand is never deleted.",
	displayOptions: { show: { '@version': versions, registerWebhook: [false] } },
});

export const REGISTRATION_PROPERTIES: INodeProperties[] = [
	{ ...manageWebhooks([1.1, 1.2]), default: true },
	manageWebhooks([1]),
	{
		displayName:
			'Only CRM events (people, notes, tasks, appointments, calls, …) can be registered on the CRM host. For borrowers, documents, loans, calendars and other events, point an existing webhook at this trigger: with Register Webhook on Activation (turn this off), or the Integration Service node, Webhook › Update.',
		name: 'manageNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { manageWebhooks: [true], registerWebhook: [false] } },
	},
	{
		displayName: 'Register Webhook on Activation',
		name: 'registerWebhook',
		type: 'boolean',
		default: false,
		description:
			'Whether activating the workflow points an existing webhook of the service (on the calendar host) at this trigger (its production URL, the chosen event and filters); for events the CRM host cannot register',
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
	...FILTER_PROPERTIES,
];

/** The trigger creates and deletes its CRM webhooks itself (not with Register Webhook on Activation). */
export function managesWebhooks(ctx: IHookFunctions): boolean {
	if (ctx.getNodeParameter('registerWebhook', false) as boolean) return false;
	return ctx.getNodeParameter('manageWebhooks', false) as boolean;
}

/** Register Webhook on Activation: points an existing webhook (calendar host, spec 4.8) at the production URL. */
export async function pointWebhook(ctx: IHookFunctions): Promise<void> {
	const given = ctx.getNodeParameter('webhookId', '');
	if (lossyNumberAt(given) !== undefined)
		throw new NodeOperationError(ctx.getNode(), `Webhook ID: ${lossyProblem('')}`);
	const webhookId = String(given).trim();
	if (webhookId === '')
		throw new NodeOperationError(
			ctx.getNode(),
			"Webhook ID: set the ID of the service's webhook to register",
		);
	const events = ctx.getNodeParameter('events', []) as string[];
	if (events.length !== 1 || events[0] === '*')
		throw new NodeOperationError(
			ctx.getNode(),
			'Register Webhook on Activation needs exactly one event selected (not Any Event)',
			{
				description:
					'A webhook of the service holds one event name. Select one event, or turn registration off and point webhooks here yourself.',
			},
		);
	const url = ctx.getNodeWebhookUrl('default');
	if (!url)
		throw new NodeOperationError(ctx.getNode(), 'n8n gave no production URL for this trigger');
	const path = ['webhooks', { id: webhookId, field: 'Webhook ID' }];
	const body = { url, event: events[0], ...filtersOf(ctx) };
	await serviceRequest.call(
		ctx,
		0,
		{ method: 'PUT', host: 'calendar', path, body, connection: CREDENTIAL_DEFAULT },
		newRun(),
	);
}
