import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ResourceSpec } from '../../../shared/catalogue';
import type { BodyForm } from '../../helpers/body';
import { readBody } from '../../helpers/body';
import { catalogueForm, formProperties, JSON_BODY } from '../../helpers/form';
import type { OperationModule } from '../modules';
import { readOutput, shapeRecord } from '../output';
import { readId, sendToEntity } from '../request';
import { FORM_VERSION, versioned } from '../settings';
import { idLocator, idOf, idProperty, shownFor } from './texts';

/** Create or Update: each version's form (`given`, else the catalogue's), the body checked before sending. */
function writeOperation(
	resource: ResourceSpec,
	operation: 'create' | 'update',
	given: BodyForm | undefined,
	[id1, id2]: INodeProperties[],
): OperationModule {
	const form1 = given ?? catalogueForm(resource, operation);
	const form2 = given ?? catalogueForm(resource, operation, true);
	const ids = id1 ? { label: idOf(resource).label, name: id1.name } : undefined;
	const properties = versioned(
		[...(id1 ? [id1] : []), ...formProperties(form1)],
		[...(id2 ? [id2] : []), ...formProperties(form2)],
	);
	return {
		description: updateDisplayOptions(shownFor(resource, operation), properties),
		async execute(itemIndex, run) {
			const id = ids && readId(this, itemIndex, ids);
			const form = this.getNode().typeVersion >= FORM_VERSION ? form2 : form1;
			const read = readBody(this, itemIndex, form, operation === 'create');
			const body = resource.jsonBody ? (read[JSON_BODY.name] as IDataObject) : read;
			const choice = readOutput(this, itemIndex, undefined, resource.simple);
			const method = operation === 'create' ? 'POST' : 'PUT';
			const path = id && [id];
			const record = await sendToEntity(this, itemIndex, run, resource, { method, path, body });
			return [shapeRecord(record, choice)];
		},
	};
}

/** POST {host}/api/{path}, the body checked before anything is sent. */
export const createOperation = (resource: ResourceSpec, given?: BodyForm) =>
	writeOperation(resource, 'create', given, []);

/** PUT {host}/api/{path}/{id}; `id` asks for the ID (the catalogue's unless given). */
export function updateOperation(
	resource: ResourceSpec,
	given?: BodyForm,
	id: INodeProperties = idProperty(resource, 'change'),
): OperationModule {
	const id2 = given ? id : idLocator(resource, 'change');
	return writeOperation(resource, 'update', given, [id, id2]);
}
