import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { entitiesToSyncProperty } from '../../helpers/compoundFields';
import { readBody } from '../../helpers/fieldMapper';
import { requireId } from '../../helpers/validation';
import type { ServiceRun } from '../../transport';
import { serviceRequest } from '../../transport';
import { shownFor } from '../node.type';

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

export const description = updateDisplayOptions(shownFor('credential', 'update'), [
	credentialToUpdateProperty,
	...bodyProperties,
]);

/** PUT {universal}/api/credentials/{id} (spec 4.5): the changed credential. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: ServiceRun,
): Promise<IDataObject[]> {
	const id = requireId(
		this,
		itemIndex,
		'Credential ID',
		this.getNodeParameter('credentialToUpdate', itemIndex, ''),
	);
	const body = readBody(this, itemIndex, bodyProperties);
	const path = ['credentials', { id, field: 'Credential ID' }];
	return [
		await serviceRequest.call(
			this,
			itemIndex,
			{ method: 'PUT', host: 'universal', path, body },
			run,
		),
	];
}
