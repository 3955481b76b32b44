import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ResourceSpec } from '../../../shared/catalogue';
import type { BodyForm } from '../../helpers/body';
import { readBody } from '../../helpers/body';
import { catalogueForm, formProperties, JSON_BODY } from '../../helpers/form';
import { readOutput, shapeRecord } from '../output';
import { readId, sendToEntity } from '../request';
import type { OperationModule } from '../modules';
import { FORM_VERSION, versioned } from '../settings';
import { idLocator, idOf, idProperty, shownFor } from './texts';

/** PUT {host}/api/{path}/{id}; `id` asks for the ID (the catalogue's unless given). */
export function updateOperation(
	resource: ResourceSpec,
	given?: BodyForm,
	id: INodeProperties = idProperty(resource, 'change'),
): OperationModule {
	const ids = { label: idOf(resource).label, name: id.name };
	const form1 = given ?? catalogueForm(resource, 'update');
	const form2 = given ?? catalogueForm(resource, 'update', true);
	const id2 = given ? id : idLocator(resource, 'change');
	const properties = versioned([id, ...formProperties(form1)], [id2, ...formProperties(form2)]);
	return {
		description: updateDisplayOptions(shownFor(resource, 'update'), properties),
		async execute(itemIndex, run) {
			const segment = readId(this, itemIndex, ids);
			const form = this.getNode().typeVersion >= FORM_VERSION ? form2 : form1;
			const read = readBody(this, itemIndex, form);
			const body = resource.jsonBody ? (read[JSON_BODY.name] as IDataObject) : read;
			const choice = readOutput(this, itemIndex, undefined, resource.simple);
			const record = await sendToEntity(this, itemIndex, run, resource, {
				method: 'PUT',
				path: [segment],
				body,
			});
			return [shapeRecord(record, choice)];
		},
	};
}
