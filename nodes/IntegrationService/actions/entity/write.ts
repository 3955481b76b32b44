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
import { idOf, idProperties, shownFor } from './texts';

/**
 * POST {host}/api/{path}, or PUT {host}/api/{path}/{id}: each version's form (`given`, else the
 * catalogue's), the body checked before sending; `id` asks for an Update's ID (else the catalogue's).
 */
export function writeOperation(
	resource: ResourceSpec,
	operation: 'create' | 'update',
	given?: BodyForm,
	id?: INodeProperties,
): OperationModule {
	const form1 = given ?? catalogueForm(resource, operation);
	const form2 = given ?? catalogueForm(resource, operation, true);
	const [id1, id2] = operation === 'create' ? [] : id ? [id, id] : idProperties(resource, 'change');
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
