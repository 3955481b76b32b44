import type { FieldSpec } from '../../shared/catalogue';
import { credentialResource } from '../../shared/catalogue/services';
import { createOperation, updateOperation } from './entity/write';
import { entityOperation } from './entity/texts';
import type { EntityOperation } from './modules';

/** Credential › Create and Update (spec 4.4, 4.5): a connection and the entities it synchronises. */

/** The external application a connection is for (Credential › Create, Authorization Link › Create). */
export const appKeyField = (description: string): FieldSpec => ({
	name: 'appKey',
	label: 'App Key',
	type: 'string',
	required: true,
	placeholder: 'e.g. my-crm-app',
	description,
});

/** The plan a connection gets (Credential › Create, Authorization Link › Create). */
export const planField = (description: string): FieldSpec => ({
	name: 'plan',
	label: 'Plan',
	type: 'string',
	placeholder: 'e.g. premium',
	description,
});

export const syncField = (description: string, required = false): FieldSpec => ({
	name: 'entitiesToSync',
	label: 'Entities to Sync',
	type: 'entitiesToSync',
	description,
	...(required ? { required } : {}),
});

/** POST {universal}/api/credentials (spec 4.4): the new credential's ID. */
const create = createOperation(credentialResource, {
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
});

/** PUT {universal}/api/credentials/{id} (spec 4.5): the changed credential; at least one flag. */
const update = updateOperation(
	credentialResource,
	{
		fields: [
			syncField(
				'Which kinds of records the connection synchronises. Add at least one flag and switch it on (sync) or off (stop syncing); flags you do not add are not sent and stay as they are.',
				true,
			),
		],
	},
	{
		// Not "credentialId": that name is the shared X-Service-Credential-Id override of the other resources.
		displayName: 'Credential ID',
		name: 'credentialToUpdate',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. cred-123',
		description:
			'ID of the connection (Integration Service credential) to change, as returned by Credential › Create',
	},
);

export const operations: Record<string, EntityOperation> = {
	create: entityOperation(() => create, 'Create', [
		'in',
		': a connection to an external application, from the values it needs; returns its ID',
	]),
	update: entityOperation(() => update, 'Update', [
		'in',
		': which kinds of records it synchronises',
	]),
};
