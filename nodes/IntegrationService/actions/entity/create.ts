import type { IDataObject } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ResourceSpec } from '../../../shared/catalogue';
import type { BodyForm } from '../../helpers/body';
import { readBody } from '../../helpers/body';
import { catalogueForm, formProperties, JSON_BODY } from '../../helpers/form';
import { readOutput, shapeRecord } from '../output';
import { sendToEntity } from '../request';
import type { OperationModule } from '../modules';
import { FORM_VERSION, versioned } from '../settings';
import { shownFor } from './texts';

/** POST {host}/api/{path}, the body checked before anything is sent. */
export function createOperation(resource: ResourceSpec, given?: BodyForm): OperationModule {
	const form1 = given ?? catalogueForm(resource, 'create');
	const form2 = given ?? catalogueForm(resource, 'create', true);
	const properties = versioned(formProperties(form1), formProperties(form2));
	return {
		description: updateDisplayOptions(shownFor(resource, 'create'), properties),
		async execute(itemIndex, run) {
			const form = this.getNode().typeVersion >= FORM_VERSION ? form2 : form1;
			const read = readBody(this, itemIndex, form, true);
			const body = resource.jsonBody ? (read[JSON_BODY.name] as IDataObject) : read;
			const choice = readOutput(this, itemIndex, undefined, resource.simple);
			const record = await sendToEntity(this, itemIndex, run, resource, { method: 'POST', body });
			return [shapeRecord(record, choice)];
		},
	};
}
