import type { INodeProperties } from 'n8n-workflow';

import { addressesProperty, contactValuesProperty } from '../../helpers/compoundFields';
import { fieldGroup } from '../../helpers/fieldMapper';
import { catalogueResource, idProperty } from '../generic/entity';
import { updateOperation } from '../generic/body';

const borrower = catalogueResource('borrower');

/** The body fields: each parameter is named as its wire field (spec 2.4). */
const bodyProperties: INodeProperties[] = [
	fieldGroup('update', [
		addressesProperty({
			description:
				"The borrower's postal addresses; every part is optional text passed through unchanged. The list sent replaces the borrower's addresses.",
		}),
		{
			displayName: 'Bio',
			name: 'bio',
			type: 'json',
			default: '{}',
			description:
				'Biographical details as a JSON object, passed through unchanged, e.g. {"maritalStatus": "married"}',
		},
		contactValuesProperty('emails', {
			description:
				"The borrower's email addresses, each with an optional type (e.g. work), status and primary flag. The list sent replaces the borrower's emails.",
		}),
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			placeholder: 'e.g. Jane Doe',
			description: "The borrower's full name (or an entity's name)",
		},
		contactValuesProperty('phones', {
			description:
				"The borrower's phone numbers, each with an optional type (e.g. mobile), status and primary flag. The list sent replaces the borrower's phones.",
		}),
		{
			displayName: 'Tax ID',
			name: 'taxId',
			type: 'string',
			default: '',
			placeholder: 'e.g. 123-45-6789',
			description: "The borrower's tax identification number, sent as entered",
		},
		{
			displayName: 'Type',
			name: 'type',
			type: 'string',
			default: '',
			placeholder: 'e.g. individual',
			description: 'Kind of borrower as used by the connected system, e.g. individual or business',
		},
	]),
];

/** PUT {los}/api/borrowers/{id} (spec 4.6): the changed borrower. */
export const { description, execute } = updateOperation(borrower, idProperty(borrower, 'change'), {
	properties: bodyProperties,
	mappingModes: true,
});
