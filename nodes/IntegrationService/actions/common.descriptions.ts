import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { optionalText } from '../helpers/validation';

/**
 * Per-node and per-item override of X-Service-Credential-Id: one n8n credential serves many end
 * users' connections (decisions.md). Shown for the resources on the CRM, LOS and calendar hosts.
 */
export const credentialIdOverride: INodeProperties = {
	// Not "Credential ID": next to n8n's credential picker and the Credential resource that would mean three things.
	displayName: 'Connection ID',
	name: 'credentialId',
	type: 'string',
	default: '',
	placeholder: 'e.g. {{ $json.credentialId }}',
	description:
		"Which connected system this call reads or writes: the service's credential ID, sent in a request header. Leave empty to use the Default Credential ID of the n8n credential; use an expression to pick one per item.",
	displayOptions: { show: { resource: ['person', 'borrower', 'document', 'webhook'] } },
};

/** The item's Credential ID override, or undefined for the credential's default. */
export function credentialIdOverrideFor(ctx: IExecuteFunctions, itemIndex: number): string | undefined {
	return optionalText(ctx, itemIndex, 'Connection ID', ctx.getNodeParameter(credentialIdOverride.name, itemIndex, ''));
}

/** The calendar webhook a request or a trigger registration changes (spec 4.8). */
export const webhookIdProperty: INodeProperties = {
	displayName: 'Webhook ID',
	name: 'webhookId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. w-1',
	description: 'ID of the webhook registration to change',
};

/** The external application a connection is for (Credential › Create, Authorization Link › Create). */
export const appKeyProperty: INodeProperties = {
	displayName: 'App Key',
	name: 'appKey',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. my-crm-app',
	description: 'Key of the external application to connect, as registered with the Integration Service',
};

/** The plan a connection gets (Credential › Create, Authorization Link › Create). */
export const planProperty: INodeProperties = {
	displayName: 'Plan',
	name: 'plan',
	type: 'string',
	default: '',
	placeholder: 'e.g. premium',
	description: 'Plan to attach to the connection, as named by the Integration Service',
};
