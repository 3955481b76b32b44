import type { INodeProperties } from 'n8n-workflow';

import {
	credentialIdOverride,
	fieldsToReturn,
} from '../IntegrationService/actions/common.descriptions';
import { MAX_PAGE_SIZE } from '../IntegrationService/transport';
import { RESOURCES, searchable, type ListedResource } from '../shared/catalogue';

/** Every listable entity of the catalogue, in the order of its labels. */
export const WATCHED: readonly ListedResource[] = RESOURCES.filter(searchable);

/** The trigger's editor: what to watch, for which change, on which connection, and what it outputs. */
export const CHANGES_PROPERTIES: INodeProperties[] = [
	{
		displayName: `Each poll reads the whole list, ${MAX_PAGE_SIZE} records per request (about records ÷ ${MAX_PAGE_SIZE} requests, at the tenant's pace): 20,000 people take 200 requests. Where the service can reach n8n's URL, the Integration Service Trigger (webhooks) is the cheaper choice.`,
		name: 'costNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Entity',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: WATCHED.map((resource) => ({
			name: resource.label,
			value: resource.value,
			description: resource.description,
		})),
		default: 'person',
	},
	{
		displayName: 'Event',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'New',
				value: 'new',
				description:
					'A record whose ID was not seen before, by its creation time (created or createdAt); an update never fires it again',
			},
			{
				name: 'New or Updated',
				value: 'newOrUpdated',
				description:
					'A new record, or one whose modification time (serviceUpdated, updated or updatedAt) has moved on: once per change',
			},
		],
		default: 'newOrUpdated',
		hint: 'A record without any time can only be new: an update to it is not seen. The first activation starts nothing for the records already there; a manual test run returns the latest few as a sample.',
	},
	{
		displayName: credentialIdOverride.displayName,
		name: credentialIdOverride.name,
		type: 'string',
		default: '',
		placeholder: 'e.g. cred-123',
		description:
			"Which connected system to watch: the service's credential ID, sent in a request header. Leave empty to use the Default Credential ID of the n8n credential.",
	},
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description: 'Whether to return a simplified version of the response instead of the raw data',
		hint: 'On: each record without its bulky "original" (the data as held in the external system). Off: each record exactly as the service returns it.',
	},
	{
		displayName: 'Output',
		name: 'output',
		type: 'collection',
		placeholder: 'Add Output Option',
		default: {},
		options: [fieldsToReturn],
	},
	{
		displayName: 'Items',
		name: 'items',
		type: 'options',
		options: [
			{
				name: 'One per Record',
				value: 'eachRecord',
				description: 'Each new or updated record starts the workflow as its own item',
			},
			{
				name: 'One per Poll',
				value: 'perPoll',
				description: 'One item with every record of the poll (records, count)',
			},
		],
		default: 'eachRecord',
	},
];
