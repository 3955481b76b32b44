import type { ResourceSpec } from './types';

/** Functions of the service itself, not entities of a connected system. */
export const SERVICE_RESOURCES: readonly ResourceSpec[] = [
	{
		value: 'authorizationLink',
		label: 'Authorization Link',
		description: 'A link an end user opens to grant access to an external application',
		section: 'administration',
		host: 'universal',
		path: ['oauth', 'authorize-url'],
		operations: ['create'],
	},
	{
		value: 'credential',
		label: 'Credential',
		description: 'A connection to one external application, and which entities it synchronises',
		section: 'administration',
		host: 'universal',
		path: ['credentials'],
		id: { label: 'Credential ID', name: 'credentialToUpdate', placeholder: 'e.g. cred-123' },
		operations: ['create', 'update'],
	},
	{
		value: 'customApiCall',
		label: 'Custom API Call',
		description: 'Any other endpoint of the service, through the same safety rules',
		section: 'anyEndpoint',
		host: 'chosen',
		path: [],
		operations: ['send'],
	},
	{
		value: 'webhook',
		label: 'Calendar Webhook',
		description: 'A calendar webhook registration',
		section: 'administration',
		host: 'calendar',
		path: ['webhooks'],
		id: { label: 'Webhook ID', name: 'webhookId', placeholder: 'e.g. w-1' },
		operations: ['update'],
	},
];
