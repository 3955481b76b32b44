import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { inputError, parseJsonParameter, requireId, optionalText } from '../../helpers/validation';
import { credentialIdOverrideFor } from '../common.descriptions';
import type { ServiceRun } from '../../transport';
import { serviceRequest } from '../../transport';

const properties: INodeProperties[] = [
	{
		displayName: 'Webhook ID',
		name: 'webhookId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. w-1',
		description: 'ID of the webhook registration to change',
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'The fields to change; add at least one. Fields you do not add are not sent and stay as they are.',
		options: [
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
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhook'], operation: ['update'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: ServiceRun,
): Promise<IDataObject[]> {
	const id = requireId(this, itemIndex, 'Webhook ID', this.getNodeParameter('webhookId', itemIndex, ''));
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;

	const body: IDataObject = {};
	const url = optionalText(this, itemIndex, 'Update Fields › URL', fields.url);
	if (url !== undefined) body.url = url;
	const event = optionalText(this, itemIndex, 'Update Fields › Event', fields.event);
	if (event !== undefined) body.event = event;
	if (fields.filters !== undefined && fields.filters !== '') {
		body.filters = parseJsonParameter(this, itemIndex, 'Update Fields › Filters', fields.filters, 'object');
	}
	if (Object.keys(body).length === 0) {
		throw inputError(this, itemIndex, 'Update Fields', 'add at least one field');
	}

	const credentialId = credentialIdOverrideFor(this, itemIndex);
	const webhook = await serviceRequest.call(
		this,
		itemIndex,
		{ method: 'PUT', host: 'calendar', path: ['webhooks', { id, field: 'Webhook ID' }], body, credentialId },
		run,
	);
	return [webhook];
}
