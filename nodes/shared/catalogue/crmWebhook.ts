import { crmResource, json, simpleForm, text } from './entry';

/** The CRM host's webhooks: a resource apart from the calendar's, so an ID never reaches the other host. */
export const crmWebhookResource = crmResource('webhooks', {
	description: 'A webhook registration on the CRM host: which CRM event is delivered to which URL',
	fields: {
		event: text(
			'The event delivered, named after an entity kind plus Created, Updated or Deleted, e.g. peopleCreated, notesUpdated. Any text is accepted and sent unchanged.',
			{ required: true, placeholder: 'e.g. peopleCreated' },
		),
		filters: json(
			'Conditions an event must meet to be delivered, as a JSON object passed through unchanged, e.g. {"stage": "Lead"}',
		),
		url: text('The address the service delivers events to', {
			required: true,
			placeholder: 'e.g. https://example.com/hooks/people',
		}),
	},
	value: 'crmWebhook',
	label: 'CRM Webhook',
	listKey: 'webhooks',
	id: { label: 'CRM Webhook ID', name: 'crmWebhookId', placeholder: 'e.g. wh-1' },
	noun: { one: 'webhook', many: 'webhooks' },
	operations: ['create', 'delete', 'getAll', 'update'],
	section: 'administration',
	readKeys: ['status'],
	simple: simpleForm('event', 'url', 'status'),
});
