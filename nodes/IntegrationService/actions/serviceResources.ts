import type { INodeProperties } from 'n8n-workflow';

import type { FieldSpec } from '../../shared/catalogue';
import { webhookIdProperty } from '../../shared/descriptions';
import type { BodyForm } from '../helpers/body';
import { entityOperation } from './entity/texts';
import { writeOperation } from './entity/write';
import type { EntityOperation } from './modules';

/** The service's own resources, written by hand: authorization links, credentials, calendar webhooks. */

/** The external application a connection is for (Credential and Authorization Link › Create). */
const appKeyField = (description: string): FieldSpec => ({
	name: 'appKey',
	label: 'App Key',
	type: 'string',
	required: true,
	placeholder: 'e.g. my-crm-app',
	description,
});

/** The plan a connection gets (Credential › Create, Authorization Link › Create). */
const planField = (description: string): FieldSpec => ({
	name: 'plan',
	label: 'Plan',
	type: 'string',
	placeholder: 'e.g. premium',
	description,
});

const syncField = (description: string, required = false): FieldSpec => ({
	name: 'entitiesToSync',
	label: 'Entities to Sync',
	type: 'entitiesToSync',
	description,
	...(required ? { required } : {}),
});

/** POST {universal}/api/oauth/authorize-url (spec 4.3): the link for the end user. */
const authorizationLinkForm: BodyForm = {
	fields: [
		appKeyField(
			'Key of the external application the end user will grant access to, as registered with the Integration Service',
		),
	],
	group: {
		kind: 'additional',
		fields: [
			{
				name: 'customParams',
				label: 'Custom Params',
				type: 'json',
				description:
					'Extra values as a JSON object, passed to the service unchanged, e.g. {"tenant": "acme"}',
			},
			syncField(
				'Which kinds of records the new connection synchronises. Add a flag and switch it on (sync) or off (do not sync); flags you do not add are not sent.',
			),
			planField('Plan to attach to the new connection, as named by the Integration Service'),
			{
				name: 'returnURI',
				label: 'Return URI',
				type: 'string',
				placeholder: 'e.g. https://example.com/connected',
				description: 'Where to send the end user after they have granted access',
			},
		],
	},
};

/** POST {universal}/api/credentials (spec 4.4): the new credential's ID. */
const credentialForm: BodyForm = {
	fields: [
		appKeyField(
			'Key of the external application to connect, as registered with the Integration Service',
		),
		{
			name: 'userInputs',
			label: 'User Inputs',
			type: 'json',
			required: true,
			// The specification does not show its contents: {} may be all an application needs.
			emptyAllowed: true,
			description:
				'The values the external application needs to connect (for example its API key or account ID), as a JSON object, e.g. {"apiKey": "…"}. Sent unchanged.',
		},
	],
	group: {
		kind: 'additional',
		fields: [
			{
				name: 'credentialKey',
				label: 'Credential Key',
				type: 'string',
				description:
					'Your own key for this connection, for example the ID of the end user it belongs to',
			},
			syncField(
				'Which kinds of records the connection synchronises. Add a flag and switch it on (sync) or off (do not sync); flags you do not add are not sent.',
			),
			planField('Plan to attach to the connection, as named by the Integration Service'),
		],
	},
};

/** PUT {universal}/api/credentials/{id} (spec 4.5): the changed credential; at least one flag. */
const credentialUpdateForm: BodyForm = {
	fields: [
		syncField(
			'Which kinds of records the connection synchronises. Add at least one flag and switch it on (sync) or off (stop syncing); flags you do not add are not sent and stay as they are.',
			true,
		),
	],
};

const credentialIdProperty: INodeProperties = {
	// Not "credentialId": that name is the shared X-Service-Credential-Id override of the other resources.
	displayName: 'Credential ID',
	name: 'credentialToUpdate',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. cred-123',
	description:
		'ID of the connection (Integration Service credential) to change, as returned by Credential › Create',
};

/** PUT {calendar}/api/webhooks/{id} (spec 2.6, 4.8): the changed registration. */
const webhookForm: BodyForm = {
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
};

export const SERVICE_OPERATIONS: Record<string, Record<string, EntityOperation>> = {
	authorizationLink: {
		create: entityOperation((r) => writeOperation(r, 'create', authorizationLinkForm), 'Create', [
			'in',
			': a URL an end user opens to connect an external application; returns it with a request ID',
		]),
	},
	credential: {
		create: entityOperation((r) => writeOperation(r, 'create', credentialForm), 'Create', [
			'in',
			': a connection to an external application, from the values it needs; returns its ID',
		]),
		update: entityOperation(
			(r) => writeOperation(r, 'update', credentialUpdateForm, credentialIdProperty),
			'Update',
			['in', ': which kinds of records it synchronises'],
		),
	},
	webhook: {
		update: entityOperation(
			(r) => writeOperation(r, 'update', webhookForm, webhookIdProperty),
			'Update',
			['in', ': its URL, event or filters'],
		),
	},
};
