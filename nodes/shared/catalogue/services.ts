import type { ResourceSpec } from './types';

export const authorizationLinkResource: ResourceSpec = {
	value: 'authorizationLink',
	label: 'Authorization Link',
	description: 'A link an end user opens to grant access to an external application',
	section: 'administration',
	host: 'universal',
	path: ['oauth', 'authorize-url'],
	operations: ['create'],
};

export const credentialResource: ResourceSpec = {
	value: 'credential',
	label: 'Credential',
	description: 'A connection to one external application, and which entities it synchronises',
	section: 'administration',
	host: 'universal',
	path: ['credentials'],
	id: { label: 'Credential ID', name: 'credentialToUpdate', placeholder: 'e.g. cred-123' },
	operations: ['create', 'update'],
};

export const customApiCallResource: ResourceSpec = {
	value: 'customApiCall',
	label: 'Custom API Call',
	description: 'Any other endpoint of the service, through the same safety rules',
	section: 'anyEndpoint',
	host: 'chosen',
	path: [],
	operations: ['send'],
};

/** The calendar host's webhook (spec 4.8). */
export const webhookResource: ResourceSpec = {
	value: 'webhook',
	label: 'Calendar Webhook',
	description: 'A calendar webhook registration',
	section: 'administration',
	host: 'calendar',
	path: ['webhooks'],
	id: { label: 'Webhook ID', name: 'webhookId', placeholder: 'e.g. w-1' },
	operations: ['update'],
};

/** Functions of the service itself, not entities of a connected system. */
export const SERVICE_RESOURCES: readonly ResourceSpec[] = [
	authorizationLinkResource,
	credentialResource,
	customApiCallResource,
	webhookResource,
];
