import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { entitiesToSyncProperty, toEntitiesToSync } from '../../helpers/entityFlags';
import { inputError, requireId } from '../../helpers/validation';
import type { ServiceRun } from '../../transport';
import { serviceRequest } from '../../transport';

const properties: INodeProperties[] = [
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
	entitiesToSyncProperty({
		required: true,
		description:
			'Which kinds of records the connection synchronises. Add at least one flag and switch it on (sync) or off (stop syncing); flags you do not add are not sent and stay as they are.',
	}),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['credential'], operation: ['update'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: ServiceRun,
): Promise<IDataObject[]> {
	const id = requireId(this, itemIndex, 'Credential ID', this.getNodeParameter('credentialToUpdate', itemIndex, ''));
	const entitiesToSync = toEntitiesToSync(this, itemIndex, this.getNodeParameter('entitiesToSync', itemIndex, {}));
	if (Object.keys(entitiesToSync).length === 0) {
		throw inputError(this, itemIndex, 'Entities to Sync', 'add at least one flag (the service requires this field)');
	}

	const credential = await serviceRequest.call(
		this,
		itemIndex,
		{ method: 'PUT', host: 'universal', path: ['credentials', { id, field: 'Credential ID' }], body: { entitiesToSync } },
		run,
	);
	return [credential];
}
