import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { inputError, optionalText, toEntries } from './validation';

const ADDRESS_PARTS = ['type', 'street', 'city', 'state', 'code', 'country'] as const;

/** Addresses (spec 2.1): type, street, city, state, code, country; used by person and borrower. */
export function addressesProperty(overrides: Partial<INodeProperties> = {}): INodeProperties {
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
					{ displayName: 'Type', name: 'type', type: 'string', default: '', placeholder: 'home', description: 'Kind of address, e.g. home or mailing' },
					{ displayName: 'Street', name: 'street', type: 'string', default: '', placeholder: '1 Main St' },
					{ displayName: 'City', name: 'city', type: 'string', default: '' },
					{ displayName: 'State', name: 'state', type: 'string', default: '', placeholder: 'CA' },
					{ displayName: 'Postal Code', name: 'code', type: 'string', default: '', placeholder: '94105' },
					{ displayName: 'Country', name: 'country', type: 'string', default: '', placeholder: 'US' },
				],
			},
		],
		...overrides,
	};
}

export function toAddresses(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	raw: unknown,
): IDataObject[] {
	const entries = toEntries(ctx, itemIndex, field, raw, { list: 'addresses', entry: 'must be an object' });
	return entries.map((entry, position) => {
		const address: IDataObject = {};
		for (const part of ADDRESS_PARTS) {
			const value = optionalText(ctx, itemIndex, `${field} › entry ${position + 1} › ${part}`, entry[part]);
			if (value !== undefined) address[part] = value;
		}
		if (Object.keys(address).length === 0) {
			throw inputError(ctx, itemIndex, field, `entry ${position + 1} is empty`);
		}
		return address;
	});
}
