import type { INodeProperties } from 'n8n-workflow';

import { personResource } from '../../../shared/catalogue/person';
import { fieldGroup } from '../../helpers/fieldMapper';
import { fieldProperties } from '../generic/fields';
import { createOperation } from '../generic/body';

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

/** POST {crm}/api/people (spec 4.2): the new person. Every field is checked before anything is sent. */
export const { description, execute } = createOperation(personResource, {
	properties: bodyProperties,
	mappingModes: true,
});
