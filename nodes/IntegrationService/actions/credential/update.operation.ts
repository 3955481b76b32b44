import type { INodeProperties } from 'n8n-workflow';

import { entitiesToSyncProperty } from '../../helpers/entityFlags';
import { readBody } from '../../helpers/fieldMapper';
import { requireId } from '../../helpers/validation';
import { oneRequestOperation } from '../singleRequest';

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

export const { description, execute } = oneRequestOperation(
	{ resource: 'credential', operation: 'update' },
	[
		credentialToUpdateProperty,
		...bodyProperties,
	],
	(ctx, itemIndex) => {
		const id = requireId(ctx, itemIndex, 'Credential ID', ctx.getNodeParameter('credentialToUpdate', itemIndex, ''));
		return {
			method: 'PUT',
			host: 'universal',
			path: ['credentials', { id, field: 'Credential ID' }],
			body: readBody(ctx, itemIndex, bodyProperties),
		};
	},
);
