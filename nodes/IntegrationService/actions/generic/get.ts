import { updateDisplayOptions } from 'n8n-workflow';

import type { ResourceSpec } from '../../../shared/catalogue';
import type { OperationModule } from '../node.type';
import { readOutput, shapeRecord } from '../output';
import { readId } from '../parameters';
import { idOf, idProperty, sendToEntity, shownForResource } from './entity';

/** Get of a catalogue entity: GET {host}/api/{path}/{id}, the record as one item. */
export function getOperation(resource: ResourceSpec): OperationModule {
	const id = idOf(resource);
	return {
		description: updateDisplayOptions(shownForResource(resource, 'get'), [
			idProperty(resource, 'get'),
		]),
		async execute(itemIndex, run) {
			const segment = readId(this, itemIndex, id);
			const choice = readOutput(this, itemIndex);
			const record = await sendToEntity(this, itemIndex, run, resource, {
				method: 'GET',
				path: [segment],
			});
			return [shapeRecord(record, choice)];
		},
	};
}
