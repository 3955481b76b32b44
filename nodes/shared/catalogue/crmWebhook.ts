import { crmResource, field, simpleForm } from './entry';

/**
 * The CRM host's webhooks, as crm-endpoints.md publishes them: `GET`/`POST /api/webhooks` and
 * `PUT`/`DELETE /api/webhooks/{id}` (no get by ID), `url` and `event` required on create. A resource
 * of its own, beside the specification's calendar webhook (`webhook`, services.ts): one host per
 * resource, so an ID from one is never sent to the other's host. The trigger registers its own
 * webhooks on the same endpoints (IntegrationServiceTrigger/webhooks.ts).
 */
export const crmWebhookResource = crmResource(
	'webhooks',
	'A webhook registration on the CRM host: which CRM event is delivered to which URL',
	[
		field(
			'event',
			'Event',
			'string',
			'The event delivered, named after an entity kind plus Created, Updated or Deleted, e.g. peopleCreated, notesUpdated. Any text is accepted and sent unchanged.',
			{ required: true, placeholder: 'e.g. peopleCreated' },
		),
		field(
			'filters',
			'Filters',
			'json',
			'Conditions an event must meet to be delivered, as a JSON object passed through unchanged, e.g. {"stage": "Lead"}',
		),
		field('url', 'URL', 'string', 'The address the service delivers events to', {
			required: true,
			placeholder: 'e.g. https://example.com/hooks/people',
		}),
	],
	{
		value: 'crmWebhook',
		label: 'CRM Webhook',
		listKey: 'webhooks',
		id: { label: 'CRM Webhook ID', name: 'crmWebhookId', placeholder: 'e.g. wh-1' },
		noun: { one: 'webhook', many: 'webhooks' },
		operations: ['create', 'delete', 'getAll', 'update'],
		section: 'administration',
		readKeys: ['status'],
		simple: simpleForm('event', 'url', 'status'),
	},
);
