import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { entriesReader, inputError, refuseUnknownKeys, withoutValue } from '../validation';
import type { Kind } from './kind';
import { compoundValue, jsonListPart } from './kind';
import { parseJsonParameter } from './json';
import { optionalText } from './text';

/** Address parts (spec 2.1), each optional text. */
export const ADDRESS_PARTS = ['type', 'street', 'city', 'state', 'code', 'country'] as const;

/** Addresses (spec 2.1): type, street, city, state, code, country; used by person and borrower. */
function addressesProperty(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Addresses',
		name: 'addresses',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Address',
		default: {},
		description: 'Postal addresses; every part is optional text passed through unchanged',
		options: [
			{
				displayName: 'Address',
				name: 'values',
				values: [
					{
						displayName: 'Type',
						name: 'type',
						type: 'string',
						default: '',
						placeholder: 'home',
						description: 'Kind of address, e.g. home or mailing',
					},
					{
						displayName: 'Street',
						name: 'street',
						type: 'string',
						default: '',
						placeholder: '1 Main St',
					},
					{ displayName: 'City', name: 'city', type: 'string', default: '' },
					{ displayName: 'State', name: 'state', type: 'string', default: '', placeholder: 'CA' },
					{
						displayName: 'Postal Code',
						name: 'code',
						type: 'string',
						default: '',
						placeholder: '94105',
					},
					{
						displayName: 'Country',
						name: 'country',
						type: 'string',
						default: '',
						placeholder: 'US',
					},
				],
			},
		],
		...overrides,
	};
}

/** Addresses (spec 2.1): every part optional, an address with no part is an error. */
const toAddresses = entriesReader(
	{ list: 'addresses', entry: 'must be an object' },
	(ctx, itemIndex, entry, { field, number, label }) => {
		refuseUnknownKeys(ctx, itemIndex, label, entry, ADDRESS_PARTS);
		const address: IDataObject = {};
		for (const part of ADDRESS_PARTS) {
			const value = withoutValue(ctx, itemIndex, entry[part], () =>
				optionalText(ctx, itemIndex, `${label} › ${part}`, entry[part]),
			);
			if (value !== undefined) address[part] = value;
		}
		if (Object.keys(address).length === 0) {
			throw inputError(ctx, itemIndex, field, `entry ${number} is empty`);
		}
		return address;
	},
);

const read: Kind['read'] = (at, spec, raw) =>
	compoundValue(at, spec, raw, 'address', (given) =>
		toAddresses(at.ctx, at.itemIndex, at.label, given),
	);

/** Postal addresses of a person or a borrower (spec 2.1). */
export const addresses: Kind = {
	property: (spec) =>
		addressesProperty({
			description: spec.description,
			...(spec.required ? { required: true } : {}),
		}),
	part: jsonListPart,
	read,
	// Inside an entry the list is one JSON value: parsed, then read as the form's.
	readPart: (at, spec, raw, fields) =>
		read(
			at,
			spec,
			typeof raw === 'string' && raw !== ''
				? parseJsonParameter(at.ctx, at.itemIndex, at.label, raw, 'arrayOfObjects')
				: raw,
			fields,
		),
	words: () => `list of objects with ${ADDRESS_PARTS.map((part) => `${part} (text)`).join(', ')}`,
	list: true,
};
