import type { INodeProperties } from 'n8n-workflow';

/** The calendar webhook that Webhook › Update and the trigger's registration change (spec 4.8). */
export const webhookIdProperty: INodeProperties = {
	displayName: 'Webhook ID',
	name: 'webhookId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. w-1',
	description: 'ID of the webhook registration to change',
};
