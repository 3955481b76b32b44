import { webhookResource } from '../../shared/catalogue/services';
import { webhookIdProperty } from '../../shared/descriptions';
import { updateOperation } from './entity/write';
import { entityOperation } from './entity/texts';
import type { EntityOperation } from './modules';

/** PUT {calendar}/api/webhooks/{id} (spec 2.6, 4.8): the changed registration. */
const update = updateOperation(
	webhookResource,
	{
		fields: [],
		group: {
			kind: 'update',
			fields: [
				{
					name: 'event',
					label: 'Event',
					type: 'string',
					placeholder: 'e.g. peopleCreated',
					description:
						'The event that triggers the webhook. Events are usually named after an entity kind plus Created, Updated or Deleted, e.g. peopleCreated, peopleUpdated, documentsDeleted. Any text is accepted and sent unchanged.',
				},
				{
					name: 'filters',
					label: 'Filters',
					type: 'json',
					description:
						'Conditions an event must meet to be delivered, as a JSON object passed through unchanged, e.g. {"stage": "Lead"}. {} sends an empty object.',
				},
				{
					name: 'url',
					label: 'URL',
					type: 'string',
					placeholder: 'e.g. https://example.com/hooks/people',
					description: 'The address the service delivers events to',
				},
			],
		},
	},
	webhookIdProperty,
);

export const operations: Record<string, EntityOperation> = {
	update: entityOperation(() => update, 'Update', ['in', ': its URL, event or filters']),
};
