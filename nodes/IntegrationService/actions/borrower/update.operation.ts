import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { addressesProperty, toAddresses } from '../../helpers/addresses';
import { contactValuesProperty, toContactValues } from '../../helpers/contactValues';
import { inputError, parseJsonParameter, requireId, optionalText } from '../../helpers/validation';
import { credentialIdOverrideFor } from '../common.descriptions';
import type { ServiceRun } from '../../transport';
import { serviceRequest } from '../../transport';

const properties: INodeProperties[] = [
	{
		displayName: 'Borrower ID',
		name: 'borrowerId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. b-1',
		description: 'ID of the borrower to change, as the Integration Service returns it in the borrower\'s "ID" field',
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'The fields to change; add at least one. Fields you do not add are not sent and stay as they are.',
		options: [
			addressesProperty({
				description:
					"The borrower's postal addresses; every part is optional text passed through unchanged. The list sent replaces the borrower's addresses.",
			}),
			{
				displayName: 'Bio',
				name: 'bio',
				type: 'json',
				default: '{}',
				description: 'Biographical details as a JSON object, passed through unchanged, e.g. {"maritalStatus": "married"}',
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
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['borrower'], operation: ['update'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: ServiceRun,
): Promise<IDataObject[]> {
	const id = requireId(this, itemIndex, 'Borrower ID', this.getNodeParameter('borrowerId', itemIndex, ''));
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;

	const body: IDataObject = {};
	for (const [key, label] of [
		['name', 'Name'],
		['type', 'Type'],
		['taxId', 'Tax ID'],
	] as const) {
		const value = optionalText(this, itemIndex, `Update Fields › ${label}`, fields[key]);
		if (value !== undefined) body[key] = value;
	}
	if (fields.emails !== undefined) {
		const emails = toContactValues(this, itemIndex, 'Update Fields › Emails', fields.emails);
		if (emails.length) body.emails = emails;
	}
	if (fields.phones !== undefined) {
		const phones = toContactValues(this, itemIndex, 'Update Fields › Phones', fields.phones);
		if (phones.length) body.phones = phones;
	}
	if (fields.addresses !== undefined) {
		const addresses = toAddresses(this, itemIndex, 'Update Fields › Addresses', fields.addresses);
		if (addresses.length) body.addresses = addresses;
	}
	if (fields.bio !== undefined && fields.bio !== '') {
		body.bio = parseJsonParameter(this, itemIndex, 'Update Fields › Bio', fields.bio, 'object');
	}
	if (Object.keys(body).length === 0) {
		throw inputError(this, itemIndex, 'Update Fields', 'add at least one field');
	}

	const credentialId = credentialIdOverrideFor(this, itemIndex);
	const borrower = await serviceRequest.call(
		this,
		itemIndex,
		{ method: 'PUT', host: 'los', path: ['borrowers', { id, field: 'Borrower ID' }], body, credentialId },
		run,
	);
	return [borrower];
}
