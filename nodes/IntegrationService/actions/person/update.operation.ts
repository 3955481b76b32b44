import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	fieldGroup,
	mappingModeProperties,
	readBody,
	shownWhenMappedFromForm,
} from '../../helpers/fieldMapper';
import { requireId } from '../../helpers/validation';
import type { ServiceRun } from '../../transport';
import { serviceRequest } from '../../transport';
import { connectionOf } from '../common.descriptions';
import { shownFor } from '../node.type';
import { personFields } from './create.operation';

const personIdProperty: INodeProperties = {
	displayName: 'Person ID',
	name: 'personId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. p_42',
	description:
		'ID of the person to change, as the Integration Service returns it in the person\'s "ID" field',
};

/** Every field Create writes, each optional (decisions.md: the service's public documentation). */
const bodyProperties: INodeProperties[] = [fieldGroup('update', personFields)];

export const description = updateDisplayOptions(shownFor('person', 'update'), [
	personIdProperty,
	...mappingModeProperties(bodyProperties),
	...shownWhenMappedFromForm(bodyProperties),
]);

/** PUT {crm}/api/people/{id}: the changed person. Fields not sent stay as they are. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: ServiceRun,
): Promise<IDataObject[]> {
	const id = requireId(
		this,
		itemIndex,
		'Person ID',
		this.getNodeParameter('personId', itemIndex, ''),
	);
	const body = readBody(this, itemIndex, bodyProperties, { mappingModes: true });
	const path = ['people', { id, field: 'Person ID' }];
	return [
		await serviceRequest.call(
			this,
			itemIndex,
			{
				method: 'PUT',
				host: 'crm',
				path,
				body,
				connection: connectionOf(this, itemIndex),
			},
			run,
		),
	];
}
