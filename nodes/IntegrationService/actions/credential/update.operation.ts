import type { INodeProperties } from 'n8n-workflow';

import { entitiesToSyncProperty } from '../../helpers/compoundFields';
import { updateOperation } from '../generic/body';
import { catalogueResource } from '../generic/entity';

const credentialToUpdateProperty: INodeProperties = {
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

/** The body: the flags to change (spec 4.5); the service requires at least one. */
const bodyProperties: INodeProperties[] = [
	entitiesToSyncProperty({
		required: true,
		description:
			'Which kinds of records the connection synchronises. Add at least one flag and switch it on (sync) or off (stop syncing); flags you do not add are not sent and stay as they are.',
	}),
];

/** PUT {universal}/api/credentials/{id} (spec 4.5): the changed credential. */
export const { description, execute } = updateOperation(
	catalogueResource('credential'),
	credentialToUpdateProperty,
	{ properties: bodyProperties },
);
