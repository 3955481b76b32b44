import { updateDisplayOptions } from 'n8n-workflow';

import type { ResourceSpec } from '../../../shared/catalogue';
import { readId, sendToEntity } from '../request';
import type { OperationModule } from '../modules';
import { versioned } from '../settings';
import { idLocator, idOf, idProperty, shownFor } from './texts';

/** DELETE {host}/api/{path}/{id}; a 404 is an error of the item, never a success. */
export function deleteOperation(resource: ResourceSpec): OperationModule {
	const id = idOf(resource);
	return {
		description: updateDisplayOptions(
			shownFor(resource, 'delete'),
			versioned([idProperty(resource, 'delete')], [idLocator(resource, 'delete')]),
		),
		async execute(itemIndex, run) {
			const segment = readId(this, itemIndex, id);
			await sendToEntity(this, itemIndex, run, resource, { method: 'DELETE', path: [segment] });
			return [{ id: segment.value, deleted: true }];
		},
	};
}
