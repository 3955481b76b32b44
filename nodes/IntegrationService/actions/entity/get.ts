import { updateDisplayOptions } from 'n8n-workflow';

import type { ResourceSpec } from '../../../shared/catalogue';
import { readOutput, shapeRecord } from '../output';
import { readId, sendToEntity } from '../request';
import type { OperationModule } from '../modules';
import { versioned } from '../settings';
import { idLocator, idOf, idProperty, shownFor } from './texts';

export function getOperation(resource: ResourceSpec): OperationModule {
	const id = idOf(resource);
	return {
		description: updateDisplayOptions(
			shownFor(resource, 'get'),
			versioned([idProperty(resource, 'get')], [idLocator(resource, 'get')]),
		),
		async execute(itemIndex, run) {
			const segment = readId(this, itemIndex, id);
			const choice = readOutput(this, itemIndex, undefined, resource.simple);
			const record = await sendToEntity(this, itemIndex, run, resource, {
				method: 'GET',
				path: [segment],
			});
			return [shapeRecord(record, choice)];
		},
	};
}
