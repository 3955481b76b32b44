import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { personResource } from '../../../shared/catalogue/person';
import {
	fieldGroup,
	mappingModeProperties,
	readBody,
	shownWhenMappedFromForm,
} from '../../helpers/fieldMapper';
import type { ServiceRun } from '../../transport';
import { idProperty } from '../generic/entity';
import { updateRecord } from '../generic/update';
import { shownFor } from '../node.type';
import { personFields } from './create.operation';

/** Every field Create writes, each optional (decisions.md: the service's public documentation). */
const bodyProperties: INodeProperties[] = [fieldGroup('update', personFields)];

export const description = updateDisplayOptions(shownFor('person', 'update'), [
	idProperty(personResource, 'change'),
	...mappingModeProperties(bodyProperties),
	...shownWhenMappedFromForm(bodyProperties),
]);

/** PUT {crm}/api/people/{id}: the changed person. Fields not sent stay as they are. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: ServiceRun,
): Promise<IDataObject[]> {
	return await updateRecord(this, itemIndex, run, personResource, () =>
		readBody(this, itemIndex, bodyProperties, { mappingModes: true }),
	);
}
