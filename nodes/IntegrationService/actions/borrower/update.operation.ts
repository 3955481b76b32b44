import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { addressesProperty, contactValuesProperty } from '../../helpers/compoundFields';
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

const borrowerIdProperty: INodeProperties = {
	displayName: 'Borrower ID',
	name: 'borrowerId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. b-1',
	description:
		'ID of the borrower to change, as the Integration Service returns it in the borrower\'s "ID" field',
};

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

export const description = updateDisplayOptions(shownFor('borrower', 'update'), [
	borrowerIdProperty,
	...mappingModeProperties(bodyProperties),
	...shownWhenMappedFromForm(bodyProperties),
]);

/** PUT {los}/api/borrowers/{id} (spec 4.6): the changed borrower. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: ServiceRun,
): Promise<IDataObject[]> {
	const id = requireId(
		this,
		itemIndex,
		'Borrower ID',
		this.getNodeParameter('borrowerId', itemIndex, ''),
	);
	const body = readBody(this, itemIndex, bodyProperties, { mappingModes: true });
	const path = ['borrowers', { id, field: 'Borrower ID' }];
	return [
		await serviceRequest.call(
			this,
			itemIndex,
			{
				method: 'PUT',
				host: 'los',
				path,
				body,
				connection: connectionOf(this, itemIndex),
			},
			run,
		),
	];
}
