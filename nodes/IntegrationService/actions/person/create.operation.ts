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
import { serviceRequest } from '../../transport';
import { connectionOf } from '../common.descriptions';
import { fieldProperties } from '../generic/fields';
import { shownFor } from '../node.type';

/**
 * Every writable field of a person, from the catalogue (nodes/shared/catalogue/person.ts). Create
 * shows the names first and the rest under Additional Fields; Update offers all of them under Update
 * Fields.
 */
export const personFields: INodeProperties[] = fieldProperties(personResource.fields);

/** First and last name: shown on their own on Create, where a person is usually named. */
const NAME_FIELDS = ['firstName', 'lastName'];

const bodyProperties: INodeProperties[] = [
	...personFields.filter((field) => NAME_FIELDS.includes(field.name)),
	fieldGroup(
		'additional',
		personFields.filter((field) => !NAME_FIELDS.includes(field.name)),
		'Further fields of the new person. Only the fields you add are sent.',
	),
];

export const description = updateDisplayOptions(shownFor('person', 'create'), [
	...mappingModeProperties(bodyProperties),
	...shownWhenMappedFromForm(bodyProperties),
]);

/** POST {crm}/api/people (spec 4.2): the new person. Every field is checked before anything is sent. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: ServiceRun,
): Promise<IDataObject[]> {
	const body = readBody(this, itemIndex, bodyProperties, { mappingModes: true });
	const connection = connectionOf(this, itemIndex);
	const person = await serviceRequest.call(
		this,
		itemIndex,
		{ method: 'POST', host: 'crm', path: ['people'], body, connection },
		run,
	);
	return [person];
}
