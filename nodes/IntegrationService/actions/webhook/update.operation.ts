import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { webhookIdProperty } from '../../../shared/descriptions';
import { fieldGroup, readBody } from '../../helpers/fieldMapper';
import { requireId } from '../../helpers/validation';
import type { ServiceRun } from '../../transport';
import { serviceRequest } from '../../transport';
import { connectionOf } from '../common.descriptions';
import { shownFor } from '../node.type';

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

export const description = updateDisplayOptions(shownFor('webhook', 'update'), [
	webhookIdProperty,
	...bodyProperties,
]);

/** PUT {calendar}/api/webhooks/{id} (spec 4.8): the changed registration. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: ServiceRun,
): Promise<IDataObject[]> {
	const id = requireId(
		this,
		itemIndex,
		'Webhook ID',
		this.getNodeParameter('webhookId', itemIndex, ''),
	);
	const body = readBody(this, itemIndex, bodyProperties);
	const path = ['webhooks', { id, field: 'Webhook ID' }];
	return [
		await serviceRequest.call(
			this,
			itemIndex,
			{
				method: 'PUT',
				host: 'calendar',
				path,
				body,
				connection: connectionOf(this, itemIndex),
			},
			run,
		),
	];
}
