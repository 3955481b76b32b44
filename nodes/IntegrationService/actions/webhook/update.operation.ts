import type { INodeProperties } from 'n8n-workflow';

import { webhookIdProperty } from '../../../shared/descriptions';
import { fieldGroup } from '../../helpers/fieldMapper';
import { catalogueResource } from '../generic/entity';
import { updateOperation } from '../generic/body';

/** The body fields: each parameter is named as its wire field (spec 2.6, 4.8). */
const bodyProperties: INodeProperties[] = [
	fieldGroup('update', [
		{
			displayName: 'Event',
			name: 'event',
			type: 'string',
			default: '',
			placeholder: 'e.g. peopleCreated',
			description:
				'The event that triggers the webhook. Events are usually named after an entity kind plus Created, Updated or Deleted, e.g. peopleCreated, peopleUpdated, documentsDeleted. Any text is accepted and sent unchanged.',
		},
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'json',
			default: '{}',
			description:
				'Conditions an event must meet to be delivered, as a JSON object passed through unchanged, e.g. {"stage": "Lead"}. {} sends an empty object.',
		},
		{
			displayName: 'URL',
			name: 'url',
			type: 'string',
			default: '',
			placeholder: 'e.g. https://example.com/hooks/people',
			description: 'The address the service delivers events to',
		},
	]),
];

/** PUT {calendar}/api/webhooks/{id} (spec 4.8): the changed registration. */
export const { description, execute } = updateOperation(
	catalogueResource('webhook'),
	webhookIdProperty,
	{ properties: bodyProperties },
);
